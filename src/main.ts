// The entry point and the one place that exits: parse, run, map any error to its exit code.
import type { CommandUnknownOpts } from './commands/commander.js';
import { InputError } from './base/input-error.js';
import { CliError, EXIT, usageError } from './cli/errors.js';
import { ApiRequestError, NetworkError, RedirectError, UnexpectedResponseError } from './client/errors.js';
import { packageVersion } from './version.js';

function apiExitCode(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status >= 400 && status < 500 && status !== 429) return EXIT.usage;
  return EXIT.network;
}

type Complain = (text: string) => void;

/** Commander's own ends (help, version, a usage mistake it has already printed), told apart without loading it. */
function isCommanderError(error: unknown): error is Error & { code: string } {
  const code: unknown = error instanceof Error ? (error as unknown as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('commander.');
}

/** Commander's ends that are not mistakes: help asked for, the version. */
const COMMANDER_SUCCESS = ['commander.helpDisplayed', 'commander.version', 'commander.help'];

async function exitCodeOf(error: unknown, complain: Complain): Promise<number> {
  if (isCommanderError(error)) {
    const success = COMMANDER_SUCCESS.includes(error.code);
    return success ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliError) {
    complain(error.message);
    return error.exitCode;
  }
  if (error instanceof InputError) {
    complain(error.message);
    return EXIT.usage;
  }
  if (error instanceof ApiRequestError) {
    // its fields in a person's words (amounts in reais), loaded only for such an error
    complain((await import('./cli/field-errors.js')).describeApiError(error));
    return apiExitCode(error.status);
  }
  if (error instanceof RedirectError) {
    complain(error.message);
    return EXIT.usage;
  }
  if (error instanceof NetworkError || error instanceof UnexpectedResponseError) {
    complain(error.message);
    return EXIT.network;
  }
  if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'CancelledError' || error.name === 'AbortPromptError')) {
    complain(`cancelled${error.name === 'CancelledError' ? `: ${error.message}` : ''}`);
    return EXIT.cancelled;
  }
  const detail = process.env.PINVOICE_DEBUG ? (error as Error)?.stack : (error as Error)?.message;
  complain(`unexpected error: ${detail ?? String(error)}`);
  return EXIT.unexpected;
}

/**
 * Node decodes argv as UTF-8 and turns any other byte into U+FFFD, which would be stored as is: a
 * value holding one is refused, naming its flag or argument. Runs once, before every action.
 */
function refuseNonUtf8Values(_hooked: CommandUnknownOpts, action: CommandUnknownOpts): void {
  const mangled = (value: unknown) => (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string' && v.includes('\uFFFD'));
  const refuse = (what: string) =>
    usageError(`${what}: the value holds bytes that are not UTF-8 (shown as \uFFFD); give it as UTF-8 text (is the terminal set to UTF-8?)`);
  for (let command: CommandUnknownOpts | null = action; command; command = command.parent) {
    for (const option of command.options) {
      if (mangled(command.getOptionValue(option.attributeName()))) throw refuse(option.long ?? option.flags);
    }
  }
  action.args.forEach((arg, index) => {
    if (mangled(arg)) throw refuse(`argument <${action.registeredArguments[index]?.name() ?? index + 1}>`);
  });
}

/**
 * A reader that stops early (`pinvoice openapi | head -1`) closes the pipe: what is left to print has
 * nowhere to go, so pinvoice ends at once and quietly, with the exit code it had so far (0 unless it failed).
 */
function endQuietlyWhenPipeCloses(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? EXIT.ok);
  });
}

/**
 * Messages carry data (a server's answer, a company name): no control character in them reaches a
 * terminal raw. The guard is loaded only when there is something to say (--help and --version end here too).
 */
async function complainer(error: unknown): Promise<Complain> {
  if (isCommanderError(error)) return () => undefined;
  const [{ safeOutput }, { foldMessage }] = await Promise.all([import('./cli/render/safe-text.js'), import('./cli/render/width.js')]);
  const columns = process.stderr.isTTY ? process.stderr.columns : undefined;
  return (text) => void process.stderr.write(`${foldMessage(`pinvoice: ${safeOutput(text, false)}`, columns)}\n`);
}

/** A usage mistake commander found while parsing (its own output is silenced in program.ts), in our words, with the hint to --help. */
async function sayUsageError(error: unknown): Promise<void> {
  if (!isCommanderError(error) || COMMANDER_SUCCESS.includes(error.code) || error.message === '') return;
  const { usageWords } = await import('./cli/usage-words.js');
  process.stderr.write(`pinvoice: ${usageWords(error.message)}\n(run with --help for usage)\n`);
}

export async function main(argv: string[]): Promise<void> {
  endQuietlyWhenPipeCloses(process.stdout);
  endQuietlyWhenPipeCloses(process.stderr);
  // (`pinvoice --version` alone is answered by bin/pinvoice.js, before this module loads)
  try {
    const { buildProgram } = await import('./program.js');
    const program = await buildProgram(packageVersion(), argv.slice(2));
    await program.hook('preAction', refuseNonUtf8Values).parseAsync(argv);
  } catch (error) {
    await sayUsageError(error);
    process.exitCode = await exitCodeOf(error, await complainer(error));
  }
}

await main(process.argv);
