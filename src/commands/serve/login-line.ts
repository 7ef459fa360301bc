// The command that stores a token the server has just shown once, for `serve` and `serve company add`.
import { invocation } from '../../cli/invocation.js';

/** `printf '%s' '<token>' | pinvoice login --profile <profile> --base-url <url> --token-stdin` */
export function loginLine(token: string, profile: string, baseUrl: string): string {
  return `printf '%s' '${token}' | ${invocation()} login --profile ${profile} --base-url ${baseUrl} --token-stdin`;
}
