// `pinvoice serve`: the local server on its database, until SIGINT or SIGTERM. One stdout line,
// `listening on <url>`, printed once the port is bound; everything else is a message on stderr.
import { createOutput, type Output } from '../../cli/output.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { defaultDbPath } from '../../cli/paths.js';
import { checkedDb } from './with-store.js';
import { formatCnpj } from '../../domain/document.js';
import { ListenError, startServer, type RunningServer } from '../../server/serve.js';
import { DatabaseOpenError } from '../../server/store/port.js';
import { packageVersion } from '../../version.js';
import type { ServeFlags } from './index.js';
import { loginLine } from './login-line.js';
import { registerServer } from './registry.js';

const MIN_TOKEN_LENGTH = 16;

function fixedToken(flag: string | undefined): string | undefined {
  const token = flag ?? (process.env.PINVOICE_SERVE_TOKEN || undefined);
  if (token === undefined) return undefined;
  if (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw usageError(`--token (or PINVOICE_SERVE_TOKEN) must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces`);
  }
  return token;
}

/** The company and token a first start created: shown this once, with the command that stores the token. */
function announceSeed(out: Output, server: RunningServer, db: string): void {
  if (!server.seeded) return;
  const { token, fantasyName } = server.seeded;
  const cnpj = formatCnpj(server.seeded.cnpj);
  const where = db === ':memory:' ? 'an in-memory database' : db;
  out.message(
    `Created the sandbox company "${fantasyName}" (CNPJ ${cnpj}) in ${where}.\n` +
      `Its access token, shown this once:\n\n  ${token}\n\n` +
      `Store it in a CLI profile with:\n\n` +
      `  ${loginLine(token, 'local', server.url)}\n\n`,
  );
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => resolve(signal);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function start(flags: ServeFlags, db: string): Promise<RunningServer> {
  try {
    return await startServer({
      host: flags.host,
      port: flags.port,
      db,
      token: fixedToken(flags.token),
      version: packageVersion(),
      durability: flags.durability,
      pixExpirySeconds: flags.pixExpiry,
      boletoDueDays: flags.boletoDueDays,
      boletoGraceDays: flags.boletoGraceDays,
      rateLimit: flags.rateLimit ?? false,
      postbacks: { attempts: flags.postbackAttempts, baseDelayMs: flags.postbackBaseDelay, timeoutMs: flags.postbackTimeout },
    });
  } catch (error) {
    if (error instanceof ListenError) throw new CliError(error.message, EXIT.network);
    if (error instanceof DatabaseOpenError) throw new CliError(error.message, EXIT.unexpected);
    throw error;
  }
}

export async function serve(flags: ServeFlags): Promise<void> {
  const out = createOutput({});
  const db = checkedDb(flags.db ?? defaultDbPath());
  // Listened for before the "listening on" line: a SIGTERM sent as soon as it is read closes cleanly
  // (the bench's start-and-stop met the default action, an exit by the signal, in the moment between).
  const stopped = untilSignal();
  const server = await start(flags, db);
  const unregister = registerServer(db, server.url);
  out.data(`listening on ${server.url}`);
  announceSeed(out, server, db);
  const signal = await stopped;
  out.message(`${signal}: finishing requests in flight and closing the database`);
  try {
    await server.close();
  } finally {
    unregister();
  }
}
