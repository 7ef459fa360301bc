// Commander's usage errors in pinvoice's voice: every error starts `pinvoice:` (commander writes
// `error:`), a suggestion stays on its line, and a flag's bad value is said as ours are
// (`--timeout: "abc" must be a whole number of seconds, at least 1`). Loaded with the program (a usage
// error is found while parsing, before any handler), so it stays small; argv may hold terminal controls.
import { safeText } from './render/safe-text.js';

/** "--timeout <seconds>" or "-y, --yes" -> the long flag, as a person types it. */
const flagOf = (flags: string) => /--[\w-]+/.exec(flags)?.[0] ?? flags.split(/[ ,]/)[0] ?? flags;

/** "must be …" reads on from the value; anything else (commander's "Allowed choices are …") after "is invalid". */
const afterValue = (reason: string) => {
  const said = reason.trim().replace(/\.$/, '');
  return /^(must|is|has) /.test(said) ? said : `is invalid${said ? `: ${said.charAt(0).toLowerCase()}${said.slice(1)}` : ''}`;
};

const REWRITES: [RegExp, (...parts: string[]) => string][] = [
  [/^option '([^']+)' argument '([\s\S]*)' is invalid\.\s*([\s\S]*)$/, (flags, value, reason) => `${flagOf(flags)}: ${JSON.stringify(value)} ${afterValue(reason)}`],
  [/^option '([^']+)' value '([\s\S]*)' from env '([^']+)' is invalid\.\s*([\s\S]*)$/, (flags, value, env, reason) =>
    `${env}: ${JSON.stringify(value)} ${afterValue(reason)} (it gives ${flagOf(flags)})`],
  [/^command-argument value '([\s\S]*)' is invalid for argument '([^']+)'\.\s*([\s\S]*)$/, (value, name, reason) => `<${name}>: ${JSON.stringify(value)} ${afterValue(reason)}`],
  [/^option '([^']+)' argument missing$/, (flags) => `${flagOf(flags)} needs a value (${flags})`],
  [/^required option '([^']+)' not specified$/, (flags) => `${flagOf(flags)} is required (${flags})`],
  [/^too many arguments(?: for '([^']+)')?\. Expected (\d+) arguments? but got (\d+)\.$/, (name, expected, got) =>
    `too many arguments${name ? ` for '${name}'` : ''}: it takes ${expected}, and got ${got}`],
];

/** The message as ours are worded, when it is one of the forms above; otherwise as commander wrote it. */
function reworded(message: string): string {
  for (const [pattern, say] of REWRITES) {
    const match = pattern.exec(message);
    if (match) return say(...match.slice(1).map((part) => part ?? ''));
  }
  return message;
}

/**
 * "error: unknown option '--amout'\n(Did you mean --amount?)\n" -> "unknown option '--amout' (did you mean --amount?)":
 * commander's message, without its prefix, in one line, control characters made visible.
 */
export function usageWords(text: string): string {
  const body = text.replace(/^error: /, '').replace(/\n+$/, '');
  const [, message = body, suggestion] = /^([\s\S]*?)\n\(Did you mean ([^\n]*)\?\)$/.exec(body) ?? [];
  const said = reworded(message);
  return safeText(suggestion === undefined ? said : `${said} (did you mean ${suggestion}?)`);
}
