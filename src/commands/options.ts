// What the command groups share when they declare their commands: option parsers, the connection
// options, help examples, and the type of a command's flags. Only commander is loaded here.
import { InvalidArgumentError, Option, type Argument, type Command, type OptionValues } from './commander.js';

/**
 * The flags a command declares, inferred from its options (extra-typings), never written twice:
 * `export type GetFlags = FlagsOf<typeof getCommand>` next to the command; its handler imports the type.
 */
export type FlagsOf<Declare extends (...args: never[]) => { opts(): unknown }> = ReturnType<ReturnType<Declare>['opts']>;

export function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be a port number from 0 to 65535 (0 picks a free port)');
  return n;
}

export function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InvalidArgumentError('must be a whole number of seconds, at least 1');
  return n;
}

export function wholeNumber(min: number, max: number, unit: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be a whole number of ${unit} from ${min} to ${max}`);
    return n;
  };
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** "64MB", "512k", "1GiB", "1048576" -> bytes (K, M and G are 1024-based, as `ls -h` and `du` count), from min to max. */
export function byteSize(min: number, max: number) {
  const words = (n: number) => (n % 1024 ** 3 === 0 ? `${n / 1024 ** 3} GB` : n % 1024 ** 2 === 0 ? `${n / 1024 ** 2} MB` : `${n} bytes`);
  return (value: string): number => {
    const match = /^(\d{1,13})\s*([a-z]*)$/i.exec(value.trim());
    const unit = SIZE_UNITS[(match?.[2] ?? '').toLowerCase()];
    const n = match && unit !== undefined ? Number(match[1]) * unit : Number.NaN;
    if (!(n >= min && n <= max)) throw new InvalidArgumentError(`must be a size from ${words(min)} to ${words(max)}: a whole number of bytes, or with K, M or G (1024-based), e.g. 64MB`);
    return n;
  };
}

export function days(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError('must be a whole number of days from 0 to 999');
  return Number(value);
}

/** "50/s", "600/min" -> at most that many requests in each second (or minute). */
export function rate(value: string): { max: number; windowMs: number } {
  const match = /^(\d{1,7})\s*\/\s*(s|sec|second|m|min|minute)$/i.exec(value.trim());
  if (!match || Number(match[1]) < 1) throw new InvalidArgumentError('must be a rate such as 50/s or 600/min (a whole number of requests, at least 1)');
  return { max: Number(match[1]), windowMs: /^s/i.test(match[2] ?? '') ? 1000 : 60_000 };
}

/** An ISO 8601 time with its zone ("2026-12-24T12:00:00Z", "2026-12-24T09:00:00-03:00"), as given. */
export function isoTime(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('must be an ISO 8601 time with its zone, e.g. 2026-12-24T12:00:00Z or 2026-12-24T09:00:00-03:00');
  }
  return value;
}

/** A repeatable option's values, in the order given. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * What the completion scripts offer for a value that commander's `.choices()` does not list: words (a
 * comma-separated list of them when `commaSeparated`), or the names of the stored profiles. File names
 * need no mark: an option whose value is named `<path>` (or `<file>`), or an argument so named, takes one.
 * Any other value is completed with nothing (src/commands/completion reads these from the tree).
 */
export type CompletionHint = { words: readonly string[]; commaSeparated?: boolean } | 'profiles';

const completionHints = new WeakMap<Option | Argument, CompletionHint>();

/** Marks an option or argument with what completes its value: `completes(new Option('--status <s>'), {words: STATUSES})`. */
export function completes<Target extends Option | Argument>(target: Target, hint: CompletionHint): Target {
  completionHints.set(target, hint);
  return target;
}

export const completionHint = (target: Option | Argument): CompletionHint | undefined => completionHints.get(target);

/** Help's width: no example line is wider, so that help fits an 80-column terminal (and stays the same on any other). */
const HELP_WIDTH = 80;

/**
 * One example as help shows it: `  $ command   # why`, or when that is wider than HELP_WIDTH, the
 * comment on a line above and the command folded at its spaces (outside quotes) with ` \`, as a shell
 * reads it back.
 */
function exampleLines(example: string): string[] {
  const whole = example.replace(/\\\n\s*/g, '');
  if (`  $ ${whole}`.length <= HELP_WIDTH) return [`  $ ${whole}`];
  // a comment is set apart by two spaces or more ("…   # why")
  const at = whole.search(/\s{2,}# /);
  const command = at < 0 ? whole : whole.slice(0, at);
  const comment = at < 0 ? undefined : whole.slice(at).trim();
  if (comment !== undefined && `  $ ${command}   ${comment}`.length <= HELP_WIDTH) return [`  $ ${command}   ${comment}`];
  const lines = comment === undefined ? [] : [`  ${comment}`];
  let current = '  $';
  for (const [word] of command.matchAll(/(?:"[^"]*"|'[^']*'|\S)+/g)) {
    if (current.length + 1 + word.length > HELP_WIDTH - 2 && current !== '  $') {
      lines.push(`${current} \\`);
      current = `     ${word}`;
    } else current = `${current} ${word}`;
  }
  return [...lines, current];
}

export const examples = (...lines: string[]) => `\nExamples:\n${lines.flatMap(exampleLines).join('\n')}\n`;

/** The options every command that talks to the API takes (see withConnection, which adds --json and the request's own). */
export function connectionOptions<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return command
    .addOption(completes(new Option('--profile <name>', 'profile to use (default: $PINVOICE_PROFILE, else the current profile)'), 'profiles'))
    .option('--base-url <url>', 'API base URL (default: $PINVOICE_BASE_URL, else the profile’s)')
    .option('--debug', 'print each HTTP exchange to stderr (the token masked)')
    .option('--no-color', 'no colour (also NO_COLOR=1, or when stdout is not a terminal)');
}

/** The connection options and --json: what a command that shows a resource takes (login: its own --token-file). */
export function withConnection<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return connectionOptions(command)
    .option('--json', 'print JSON for scripts instead of tables')
    .option('--utc', 'show times in UTC (default: the zone in TZ, else America/Sao_Paulo, with its offset)');
}

/** --timeout for a request's answer, for commands whose own --timeout means nothing else. */
export function requestTimeout<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return command.addOption(new Option('--timeout <seconds>', 'give up on a request with no answer after this long, retries included (default: $PINVOICE_TIMEOUT, else 20)').argParser(positiveSeconds));
}

/** withConnection, --timeout and --token-file: a command that talks to the API with a profile's token or one given for the run. */
export function apiCommand<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return requestTimeout(withTokenFile(withConnection(command)));
}

/** --token-file: a token for this run, sent wherever the run points (unlike a profile's, kept to its origin). */
export function withTokenFile<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return command.option('--token-file <path>', 'read the token from this file for this run instead of the profile (also PINVOICE_TOKEN)');
}

/** --yes: an irreversible action goes ahead without asking (it asks only on a terminal anyway). */
export function withYes<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>, description = 'do not ask for confirmation (asked only on a terminal; scripts are never asked)') {
  return command.option('-y, --yes', description);
}

/** --qr, --no-qr and --qr-theme: a command that may draw a charge's pix QR on the terminal. */
export function withQr<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>, when: string) {
  return command
    .option('--qr', `draw the pix QR code (default: ${when})`)
    .option('--no-qr', 'never draw the QR code')
    .addOption(new Option('--qr-theme <theme>', "without colour (NO_COLOR, --no-color, TERM=dumb), the QR in the terminal's own colours: dark (light text on a dark background) or light (default: $PINVOICE_QR_THEME, else from $COLORFGBG, else dark)").choices(['dark', 'light'] as const));
}
