// What every API command needs: the resolved profile, base URL and token (flag > environment > file),
// an output channel, and the client.
import type { Client, ClientOptions } from '../client/index.js';
import { ApiRequestError } from '../client/errors.js';
import { CliError, EXIT, usageError } from './errors.js';
import { DEFAULT_BASE_URL, readConfig, type ConfigView } from './config.js';
import { PROFILE_NAME } from './profile-name.js';
import { safeOutput } from './render/safe-text.js';
import { checkHttpUrl } from './url-flag.js';

export { checkHttpUrl };

/** What connect() and the profile lookup read of a command's flags: those of withConnection (src/commands/options.ts). */
export interface CommonFlags {
  profile?: string;
  baseUrl?: string;
  /** seconds a request may go unanswered (retries included) */
  timeout?: number;
  tokenFile?: string;
  /** the flag that gave baseUrl, for messages (default --base-url; drift says --against) */
  baseUrlFlag?: string;
  debug?: boolean;
  color?: boolean;
  json?: boolean;
  input?: boolean;
}

export interface Connection {
  profile: string;
  baseUrl: string;
  token: string;
  /** where the token came from, for the message when the server rejects it */
  tokenFrom: 'PINVOICE_TOKEN' | '--token-file' | 'profile';
  config: ConfigView;
}

/**
 * A base URL: paths are appended to it, so trailing slashes go, and so does a trailing `/api/v2` (the
 * operations' own prefix: a gateway's documentation often gives the base URL with it).
 */
export function checkBaseUrl(value: string, source: string): string {
  return checkHttpUrl(value.trim(), source).replace(/\/+$/, '').replace(/\/api\/v2$/i, '');
}

/** "https://gw.example:8443", or the text itself when it is not a URL. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Seconds a request may go unanswered: --timeout, else PINVOICE_TIMEOUT, else the client's default (20 s). */
export function timeoutMsOf(flags: { timeout?: number | undefined }, env = process.env): number | undefined {
  if (flags.timeout !== undefined) return flags.timeout * 1000;
  const text = env.PINVOICE_TIMEOUT?.trim();
  if (!text) return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1) throw usageError(`PINVOICE_TIMEOUT "${text}" must be a whole number of seconds, at least 1`);
  return Number(text) * 1000;
}

export function profileName(flags: CommonFlags, config: ConfigView, env = process.env): string {
  const name = flags.profile ?? (env.PINVOICE_PROFILE || undefined) ?? config.current() ?? 'default';
  if (!PROFILE_NAME.test(name)) throw usageError(`profile name "${name}" may hold letters, digits, "_", "-" and "." only`);
  return name;
}

export function baseUrlOf(flags: CommonFlags, stored: string | undefined, env = process.env): string {
  if (flags.baseUrl) return checkBaseUrl(flags.baseUrl, '--base-url');
  if (env.PINVOICE_BASE_URL) return checkBaseUrl(env.PINVOICE_BASE_URL, 'PINVOICE_BASE_URL');
  return stored ?? DEFAULT_BASE_URL;
}

function notLoggedIn(profile: string, hasProfile: boolean, config: ConfigView, chosen: boolean): CliError {
  const others = Object.keys(config.all());
  if (!chosen && others.length > 0) {
    return new CliError(`not logged in: no profile is current; choose one with \`pinvoice profile use <name>\` (${others.join(', ')}), or run \`pinvoice login\``, EXIT.auth);
  }
  const hint = hasProfile ? `profile "${profile}" has no token` : `no profile "${profile}"`;
  return new CliError(`not logged in (${hint}): run \`pinvoice login --profile ${profile}\` or set PINVOICE_TOKEN`, EXIT.auth);
}

async function tokenFromFile(path: string): Promise<string> {
  const { readTextFlag } = await import('../base/read-input.js'); // only with --token-file
  const token = (await readTextFlag('--token-file', path)).trim();
  if (!token || /\s/.test(token)) throw usageError(`--token-file ${path}: the token is empty or holds spaces`);
  return token;
}

/**
 * A profile's token belongs to the origin it was given for: a --base-url or PINVOICE_BASE_URL of another
 * origin never receives it (it would hand one gateway's secret to another). A token given for this run
 * (PINVOICE_TOKEN, --token-file) goes where the run says.
 */
function refuseForeignOrigin(flags: CommonFlags, profile: string, stored: string, baseUrl: string): void {
  if (originOf(stored) === originOf(baseUrl)) return;
  const source = flags.baseUrl ? flags.baseUrlFlag ?? '--base-url' : 'PINVOICE_BASE_URL';
  throw usageError(
    `profile "${profile}" holds a token for ${originOf(stored)}; pinvoice does not send it to ${originOf(baseUrl)} (${source}).\n` +
      `  to use ${originOf(baseUrl)}, log in to it with a profile of its own: pinvoice login --profile <name> --base-url ${baseUrl}\n` +
      `  or give its token for this run with PINVOICE_TOKEN or --token-file`,
  );
}

export async function resolveConnection(flags: CommonFlags, env = process.env): Promise<Connection> {
  const config = await readConfig(env);
  const profile = profileName(flags, config, env);
  const stored = config.get(profile);
  const fromFile = flags.tokenFile === undefined ? undefined : await tokenFromFile(flags.tokenFile);
  const fromEnv = env.PINVOICE_TOKEN || undefined;
  const token = fromFile ?? fromEnv ?? stored?.token;
  if (!token) throw notLoggedIn(profile, stored !== undefined, config, Boolean(flags.profile ?? (env.PINVOICE_PROFILE || config.current())));
  const tokenFrom = fromFile ? '--token-file' : fromEnv ? 'PINVOICE_TOKEN' : 'profile';
  const baseUrl = baseUrlOf(flags, stored?.baseUrl, env);
  if (tokenFrom === 'profile' && stored) refuseForeignOrigin(flags, profile, stored.baseUrl, baseUrl);
  return { profile, baseUrl, token, tokenFrom, config };
}

/** `at https://gw.example for profile "production"` (or `for the token in PINVOICE_TOKEN`): where a lookup happened. */
export function whereOf({ profile, baseUrl, tokenFrom }: Pick<Connection, 'profile' | 'baseUrl' | 'tokenFrom'>): string {
  return `at ${baseUrl} for ${tokenFrom === 'profile' ? `profile "${profile}"` : `the token in ${tokenFrom}`}`;
}

/**
 * A 401 says where the token came from and the command that replaces it (a server reset, a revoked
 * token); a 404 names what was looked up, where, and whose token asked (another company's charge is a 404).
 */
function explainRejection(error: unknown, connection: Connection): unknown {
  if (!(error instanceof ApiRequestError)) return error;
  const { profile, baseUrl, tokenFrom } = connection;
  if (error.status === 404 && error.lookedUp !== undefined) {
    return new ApiRequestError(404, error.code, `no ${error.lookedUp} ${whereOf(connection)}: ${error.message}`, error.details, error.complete);
  }
  if (error.status !== 401) return error;
  const message = tokenFrom === 'PINVOICE_TOKEN'
    ? `${baseUrl} rejected the token in PINVOICE_TOKEN (${error.message}): set it to a valid token, or unset it to use profile "${profile}"`
    : tokenFrom === '--token-file'
      ? `${baseUrl} rejected the token in --token-file (${error.message})`
      : `${baseUrl} rejected the token of profile "${profile}" (${error.message}): log in again with \`pinvoice login --profile ${profile} --base-url ${baseUrl}\``;
  return new CliError(message, EXIT.auth);
}

/** The client with every call's 401 and 404 explained, so that no command has to. */
function withExplainedRejections(client: Client, connection: Connection): Client {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(client)) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        throw explainRejection(error, connection);
      }
    };
  }
  return wrapped as Client;
}

/** `--debug`: each HTTP exchange on stderr; the client masks secrets, this makes the server's text terminal-safe. */
export function debugWriter(flags: { debug?: boolean }): ((line: string) => void) | undefined {
  return flags.debug ? (line) => void process.stderr.write(`${safeOutput(line, false)}\n`) : undefined;
}

/** The client of the profile the flags choose; `options` adds to what that decides (a batch: 429s waited out, a keep-alive pool). */
export async function connect(flags: CommonFlags, options: Pick<ClientOptions, 'waitOutRateLimit' | 'keepAlive' | 'timeoutMs' | 'ca'> = {}) {
  const [{ createClient }, { packageVersion }, { commandOf }] = await Promise.all([import('../client/index.js'), import('../version.js'), import('./operation-commands.js')]);
  const connection = await resolveConnection(flags);
  const debug = debugWriter(flags);
  const timeoutMs = options.timeoutMs ?? timeoutMsOf(flags);
  const client = createClient({ ...options, timeoutMs, baseUrl: connection.baseUrl, token: connection.token, debug, version: packageVersion(), nameOperation: commandOf });
  return { client: withExplainedRejections(client, connection), connection };
}
