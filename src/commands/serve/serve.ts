// `pinvoice serve`: the local server on its database, until SIGINT or SIGTERM. One stdout line,
// `listening on <url>`, printed once the port is bound; everything else is a message on stderr.
import { CLOCK_LATEST, MAX_PIX_EXPIRY_SECONDS, withinClockBound } from '../../api/clock-bound.js';
import { createOutput } from '../../cli/output.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { dataDir, defaultDbPath } from '../../cli/paths.js';
import { keyFolderFor } from '../../server/pix-location/host.js';
import { checkedDb } from './with-store.js';
import { formatCnpj } from '../../domain/document.js';
import { fixedSecretProblem } from '../../domain/secrets.js';
import { checkWritablePath } from '../../base/env-file.js';
import { allowedHostEntry } from '../../base/host-port.js';
import { keepHeapLean } from '../../base/lean-heap.js';
import { frozenClock } from '../../server/seeded.js';
import { FixturesError } from '../../server/fixtures.js';
import { KeyFolderError, ListenError, MetricsTokenError, SeedError, startServer, type RunningServer } from '../../server/serve.js';
import type { MetricsAccess } from '../../server/metrics/access.js';
import { DatabaseOpenError } from '../../server/store/port.js';
import { packageVersion } from '../../version.js';
import type { ServeFlags } from './index.js';
import { fixturesLoadedLine, fixturesRefused, readFixturesFlag } from './fixtures.js';
import { invocation } from '../../cli/invocation.js';
import { loginLine } from './login-line.js';
import { registerServer } from './registry.js';
import { checkEnvToken, FLAG as WRITE_ENV, writeServerEnv } from './write-env.js';
import { metricsAccess, telling, tokenSource, type Telling } from './watching.js';

/** `--allowed-host`: each a name or address without a port, or a .domain (src/base/host-port.ts). */
function allowedHosts(given: string[] | undefined): string[] {
  return (given ?? []).map((value) => {
    const entry = allowedHostEntry(value);
    if (entry === undefined) throw usageError(`--allowed-host ${JSON.stringify(value)}: must be a host name or address without a port (every port of an allowed name is allowed), or .example.com for a domain and the names under it`);
    return entry;
  });
}

function fixedToken(flag: string | undefined): string | undefined {
  const token = flag ?? (process.env.PINVOICE_SERVE_TOKEN || undefined);
  const problem = token === undefined ? undefined : fixedSecretProblem(token);
  if (problem) throw usageError(`--token (or PINVOICE_SERVE_TOKEN) ${problem}`);
  return token;
}

/** `--clock` and `--pix-expiry` within the sandbox clock's bound (their parsers check only their form: they load before any command). */
function checkClockFlags(flags: ServeFlags): void {
  if (flags.clock !== undefined && !withinClockBound(Date.parse(flags.clock))) throw usageError(`--clock ${flags.clock} is past ${CLOCK_LATEST}, the latest time the sandbox clock may read`);
  if (flags.pixExpiry > MAX_PIX_EXPIRY_SECONDS) throw usageError(`--pix-expiry must be at most ${MAX_PIX_EXPIRY_SECONDS} seconds (ten years), not ${flags.pixExpiry}`);
}

/**
 * The company and token a first start created: shown this once, with the command that stores the
 * token. A JSON log is kept, so the token (and the sign-in link) are never written to it: it says how to get one.
 */
function announceSeed(tell: Telling, server: RunningServer, db: string): void {
  if (!server.seeded) return;
  const { token, fantasyName } = server.seeded;
  const cnpj = formatCnpj(server.seeded.cnpj);
  const where = db === ':memory:' ? 'an in-memory database' : db;
  if (tell.json) {
    const add = db === ':memory:' ? '' : `, or add another with \`${invocation()} serve token add\``;
    return tell.say(`Created the sandbox company "${fantasyName}" (CNPJ ${cnpj}) in ${where}; its token is not written to a JSON log: fix it with --token (or PINVOICE_SERVE_TOKEN) or have it written with --write-env FILE${add}`);
  }
  tell.say(
    `Created the sandbox company "${fantasyName}" (CNPJ ${cnpj}) in ${where}.\n` +
      `Its access token, shown this once:\n\n  ${token}\n\n` +
      `Store it in a CLI profile with:\n\n` +
      `  ${loginLine(token, 'local', server.url)}\n\n` +
      (server.signInUrl ? `Its dashboard, signed in by this one-time link (for a day; later: ${invocation()} dashboard):\n\n  ${server.signInUrl}\n\n` : ''),
  );
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => resolve(signal);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

async function start(flags: ServeFlags, db: string, token: string | undefined, allowed: string[], metrics: MetricsAccess | false, tell: Telling): Promise<RunningServer> {
  const fixtures = await readFixturesFlag(flags.fixtures);
  try {
    return await startServer({
      host: flags.host,
      port: flags.port,
      db,
      token,
      seed: flags.seed,
      clock: flags.clock === undefined ? undefined : frozenClock(flags.clock),
      version: packageVersion(),
      durability: flags.durability,
      connectTimeoutMs: flags.dbTimeout * 1000,
      pixExpirySeconds: flags.pixExpiry,
      boletoDueDays: flags.boletoDueDays,
      boletoGraceDays: flags.boletoGraceDays,
      rateLimit: flags.rateLimit ?? false,
      journal: flags.journal,
      journalMaxBytes: flags.journalMaxBytes,
      postbacks: { attempts: flags.postbackAttempts, baseDelayMs: flags.postbackBaseDelay, timeoutMs: flags.postbackTimeout },
      fixtures,
      keyFolder: keyFolderFor(db, dataDir()),
      tls: flags.tls ?? false,
      publicHost: flags.publicHost,
      allowedHosts: allowed,
      metrics,
      ...tell.app,
    });
  } catch (error) {
    if (error instanceof ListenError) throw new CliError(error.message, EXIT.network);
    if (error instanceof DatabaseOpenError || error instanceof KeyFolderError) throw new CliError(error.message, EXIT.unexpected);
    if (error instanceof SeedError) throw usageError(`--seed ${flags.seed}: ${error.message}`);
    if (error instanceof MetricsTokenError) throw usageError(`${tokenSource(flags)}: ${error.message}`);
    if (error instanceof FixturesError) throw fixturesRefused(flags.fixtures ?? '', error.details);
    throw error;
  }
}

/** --write-env: the file, before the `listening on` line; a file that cannot be written stops the server. */
async function writeEnv(tell: Telling, flags: ServeFlags, server: RunningServer, token: string | undefined): Promise<void> {
  if (flags.writeEnv === undefined) return;
  const known = token ?? server.seeded?.token;
  try {
    await writeServerEnv(flags.writeEnv, server, known, (line) => tell.say(line, 'warn'));
  } catch (error) {
    await server.close();
    throw error;
  }
  if (!known) tell.say(`${WRITE_ENV}: PINVOICE_TOKEN left out of ${flags.writeEnv}: this start did not create the company (give --token to have it written)`);
}

export async function serve(flags: ServeFlags): Promise<void> {
  const out = createOutput({});
  const db = checkedDb(flags.db ?? defaultDbPath());
  const token = fixedToken(flags.token);
  const allowed = allowedHosts(flags.allowedHost);
  checkClockFlags(flags);
  if (flags.writeEnv !== undefined) {
    checkWritablePath(flags.writeEnv, WRITE_ENV);
    checkEnvToken(token);
  }
  // Listened for before the "listening on" line: a SIGTERM sent as soon as it is read closes cleanly
  // (the bench's start-and-stop met the default action, an exit by the signal, in the moment between).
  const metrics = await metricsAccess(flags);
  const tell = await telling(flags, out);
  const stopped = untilSignal();
  // this process is the server's alone: its heap may be kept near what it holds (base/lean-heap.ts)
  const unleaned = flags.memory === 'lean' ? keepHeapLean() : () => undefined;
  const server = await start(flags, db, token, allowed, metrics, tell);
  await writeEnv(tell, flags, server, token);
  const unregister = registerServer(db, server.url, (line) => tell.say(line, 'warn'));
  out.data(`listening on ${server.url}`);
  if (tell.json) tell.say(`listening on ${server.url}`);
  announceSeed(tell, server, db);
  if (!server.seeded) tell.say(`dashboard: ${server.url}/dashboard (sign in with \`${invocation()} dashboard\` or a token)`);
  if (server.fixtures && flags.fixtures) tell.say(fixturesLoadedLine(flags.fixtures, server.fixtures));
  const signal = await stopped;
  tell.say(`${signal}: finishing requests in flight and closing the database`);
  try {
    await server.close();
  } finally {
    unregister();
    unleaned();
  }
}
