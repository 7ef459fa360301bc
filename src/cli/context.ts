// What every API command needs: the resolved profile, base URL and token (flag > environment > file),
// an output channel, and the client.
import { CliError, EXIT, usageError } from './errors.js';
import { DEFAULT_BASE_URL, PROFILE_NAME, openConfig, type ConfigStore } from './config.js';

export interface CommonFlags {
  profile?: string;
  baseUrl?: string;
  debug?: boolean;
  color?: boolean;
  json?: boolean;
  input?: boolean;
}

export interface Connection {
  profile: string;
  baseUrl: string;
  token: string;
  config: ConfigStore;
}

/** An absolute http(s) URL, as given; otherwise a usage error naming its source. */
export function checkHttpUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${source} "${value}" is not a URL (example: http://127.0.0.1:4010)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`${source} must be an http or https URL`);
  return value;
}

/** A base URL: paths are appended to it, so trailing slashes go. */
export function checkBaseUrl(value: string, source: string): string {
  return checkHttpUrl(value, source).replace(/\/+$/, '');
}

export function profileName(flags: CommonFlags, config: ConfigStore, env = process.env): string {
  const name = flags.profile ?? (env.PINVOICE_PROFILE || undefined) ?? config.current() ?? 'default';
  if (!PROFILE_NAME.test(name)) throw usageError(`profile name "${name}" may hold letters, digits, "_", "-" and "." only`);
  return name;
}

export function baseUrlOf(flags: CommonFlags, stored: string | undefined, env = process.env): string {
  if (flags.baseUrl) return checkBaseUrl(flags.baseUrl, '--base-url');
  if (env.PINVOICE_BASE_URL) return checkBaseUrl(env.PINVOICE_BASE_URL, 'PINVOICE_BASE_URL');
  return stored ?? DEFAULT_BASE_URL;
}

export async function resolveConnection(flags: CommonFlags, env = process.env): Promise<Connection> {
  const config = await openConfig(env);
  const profile = profileName(flags, config, env);
  const stored = config.get(profile);
  const token = (env.PINVOICE_TOKEN || undefined) ?? stored?.token;
  if (!token) {
    const hint = stored ? `profile "${profile}" has no token` : `no profile "${profile}"`;
    throw new CliError(`not logged in (${hint}): run \`pinvoice login --profile ${profile}\` or set PINVOICE_TOKEN`, EXIT.auth);
  }
  return { profile, baseUrl: baseUrlOf(flags, stored?.baseUrl, env), token, config };
}

export async function connect(flags: CommonFlags) {
  const [{ createClient }, { packageVersion }] = await Promise.all([import('../client/index.js'), import('../version.js')]);
  const connection = await resolveConnection(flags);
  const debug = flags.debug ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
  const client = createClient({ baseUrl: connection.baseUrl, token: connection.token, debug, version: packageVersion() });
  return { client, connection };
}
