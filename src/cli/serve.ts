// `pinvoice serve` and `pinvoice serve company add|list`.
import { randomBytes } from 'node:crypto';
import { controlCharacterProblem } from '../api/schemas.js';
import { documentProblem, formatCnpj } from '../domain/document.js';
import { addCompany } from '../server/seed.js';
import { ListenError, startServer, type RunningServer } from '../server/serve.js';
import { DatabaseOpenError } from '../server/store/database.js';
import { openStore, type Store } from '../server/store/index.js';
import { DatabaseInUseError } from '../server/store/lock.js';
import { packageVersion } from '../version.js';
import { DEFAULT_BASE_URL } from './config.js';
import { CliError, EXIT, usageError } from './errors.js';
import { defaultDbPath } from './paths.js';

export interface ServeFlags {
  host: string;
  port: number;
  db?: string;
  token?: string;
  pixExpiry: number;
  boletoDueDays: number;
  postbackAttempts: number;
  postbackBaseDelay: number;
  postbackTimeout: number;
}

const MIN_TOKEN_LENGTH = 16;

function fixedToken(flag: string | undefined): string | undefined {
  const token = flag ?? (process.env.PINVOICE_SERVE_TOKEN || undefined);
  if (token === undefined) return undefined;
  if (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw usageError(`--token (or PINVOICE_SERVE_TOKEN) must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces`);
  }
  return token;
}

/** Started through npx (npm sets npm_command=exec), the command to paste needs npx too. */
function invocation(): string {
  return process.env.npm_command === 'exec' ? 'npx pinvoice' : 'pinvoice';
}

function announceSeed(server: RunningServer, db: string): void {
  if (!server.seeded) return;
  const { token, fantasyName } = server.seeded;
  const cnpj = formatCnpj(server.seeded.cnpj);
  const where = db === ':memory:' ? 'an in-memory database' : db;
  process.stderr.write(
    `Created the sandbox company "${fantasyName}" (CNPJ ${cnpj}) in ${where}.\n` +
      `Its access token, shown this once:\n\n  ${token}\n\n` +
      `Store it in a CLI profile with:\n\n` +
      `  printf '%s' '${token}' | ${invocation()} login --profile local --base-url ${server.url} --token-stdin\n\n`,
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
      pixExpirySeconds: flags.pixExpiry,
      boletoDueDays: flags.boletoDueDays,
      postbacks: { attempts: flags.postbackAttempts, baseDelayMs: flags.postbackBaseDelay, timeoutMs: flags.postbackTimeout },
    });
  } catch (error) {
    if (error instanceof ListenError || error instanceof DatabaseInUseError) throw new CliError(error.message, EXIT.network);
    if (error instanceof DatabaseOpenError) throw new CliError(error.message, EXIT.unexpected);
    throw error;
  }
}

export async function serve(flags: ServeFlags): Promise<void> {
  const db = flags.db ?? defaultDbPath();
  const server = await start(flags, db);
  process.stdout.write(`listening on ${server.url}\n`);
  announceSeed(server, db);
  const signal = await untilSignal();
  process.stderr.write(`${signal}: finishing requests in flight and closing the database\n`);
  await server.close();
}

export interface CompanyAddFlags {
  db?: string;
  name?: string;
  corporateReason?: string;
  cnpj?: string;
  json?: boolean;
}

function withStore<T>(db: string | undefined, fn: (store: Store) => T): T {
  let store: Store;
  try {
    store = openStore(db ?? defaultDbPath());
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw new CliError(error.message, EXIT.unexpected);
    throw error;
  }
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

export async function companyAdd(flags: CompanyAddFlags): Promise<void> {
  const cnpjProblem = flags.cnpj === undefined ? null : documentProblem(flags.cnpj, 'cnpj');
  if (cnpjProblem) throw usageError(`--cnpj ${flags.cnpj} is ${cnpjProblem.message}`);
  if (flags.name !== undefined && flags.name.trim() === '') throw usageError('--name must not be empty');
  for (const [flag, value] of [['--name', flags.name], ['--corporate-reason', flags.corporateReason]] as const) {
    const problem = value === undefined ? undefined : controlCharacterProblem(value);
    if (problem) throw usageError(`${flag} ${problem}`);
  }
  const options = { fantasyName: flags.name, corporateReason: flags.corporateReason, cnpj: flags.cnpj };
  const created = withStore(flags.db, (store) => addCompany(store, options, (n) => randomBytes(n), new Date()));
  const out = { id: created.id, fantasy_name: created.fantasyName, cnpj: formatCnpj(created.cnpj), token: created.token };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  process.stdout.write(`company ${out.id}: ${out.fantasy_name} (CNPJ ${out.cnpj})\ntoken: ${out.token}\n`);
  process.stderr.write(
    'The token is shown this once. Store it in a new CLI profile (your current profile keeps its token) with:\n\n' +
      `  printf '%s' '${out.token}' | ${invocation()} login --profile ${profileFor(created.fantasyName, created.id)} --base-url ${DEFAULT_BASE_URL} --token-stdin\n\n` +
      `(with the server's URL after --base-url if it does not listen on ${DEFAULT_BASE_URL})\n`,
  );
}

/** A profile name of its own for an added company, e.g. "loja-dois-2", so the suggested login adds a profile. */
export function profileFor(fantasyName: string, id: number): string {
  const words = fantasyName.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const slug = words.join('-').slice(0, 40).replace(/-+$/, '');
  return `${slug || 'company'}-${id}`;
}

export async function companyList(flags: { db?: string; json?: boolean }): Promise<void> {
  const rows = withStore(flags.db, (store) =>
    store.companies.list().map((c) => ({ id: c.id, fantasy_name: c.fantasy_name, cnpj: formatCnpj(c.cnpj), tokens: c.tokens })),
  );
  if (flags.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
  else for (const r of rows) process.stdout.write(`${r.id}\t${r.fantasy_name}\t${r.cnpj}\t${r.tokens} token(s)\n`);
}
