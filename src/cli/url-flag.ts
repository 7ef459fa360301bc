// A URL a person gives (--base-url, PINVOICE_BASE_URL, --postback-url, --forward-to): an absolute http
// or https URL. `localhost:4311` is what people type, and `new URL` reads it as the scheme "localhost:":
// so a missing scheme is told apart from a wrong one, and the URL meant is suggested.
import { usageError } from './errors.js';

/** Hosts reached over plain http in development: the suggestion for them is http://, for any other https://. */
const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|10(\.\d{1,3}){3}|192\.168(\.\d{1,3}){2}|172\.(1[6-9]|2\d|3[01])(\.\d{1,3}){2}|[\w-]+\.local|[\w-]+)(:\d+)?([/?#]|$)/i;

/** "scheme:" at the start, unless what follows the colon is a port ("localhost:4311"). */
const SCHEME = /^([a-z][a-z\d+.-]*):(?!\d+([/?#]|$))/i;

/**
 * What is wrong with `value` as an http(s) URL, worded to follow it ("has no scheme: did you mean
 * http://localhost:4311?"); undefined when it is one.
 */
export function urlProblem(value: string): string | undefined {
  const scheme = SCHEME.exec(value)?.[1];
  if (scheme === undefined) {
    const meant = `${LOCAL_HOST.test(value) ? 'http' : 'https'}://${value.replace(/^\/+/, '')}`;
    return URL.canParse(meant) && value.trim() !== '' ? `has no scheme: did you mean ${meant}?` : 'is not a URL (example: http://127.0.0.1:4010)';
  }
  if (!/^https?$/i.test(scheme)) return `is not an http or https URL (it is ${scheme.toLowerCase()}:)`;
  return URL.canParse(value) && /^https?:\/\/[^/]/i.test(value) ? undefined : 'is not a URL (example: http://127.0.0.1:4010)';
}

/** An absolute http(s) URL, as given; otherwise a usage error naming its source (a flag or a variable). */
export function checkHttpUrl(value: string, source: string): string {
  const problem = urlProblem(value);
  if (problem) throw usageError(`${source}: ${JSON.stringify(value)} ${problem}`);
  return value;
}
