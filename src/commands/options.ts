// Option parsers and shared option sets for the command tree. Only commander is loaded here.
import { Command, InvalidArgumentError } from 'commander';

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

export function days(value: string): number {
  if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError('must be a whole number of days from 0 to 999');
  return Number(value);
}

export const examples = (...lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

/** addCommand does not copy settings to added commands, so they are applied to the whole tree here. */
export function forEachCommand(command: Command, fn: (command: Command) => void): void {
  fn(command);
  for (const child of command.commands) forEachCommand(child, fn);
}

/** The options every command that talks to the API takes. */
export function withConnection(command: Command, { json = true } = {}): Command {
  command
    .option('--profile <name>', 'profile to use (default: $PINVOICE_PROFILE, else the current profile)')
    .option('--base-url <url>', 'API base URL (default: $PINVOICE_BASE_URL, else the profile’s)')
    .option('--debug', 'print each HTTP exchange to stderr (the token masked)')
    .option('--no-color', 'no colour (also NO_COLOR=1, or when stdout is not a terminal)');
  if (json) command.option('--json', 'print JSON for scripts instead of tables');
  return command;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
