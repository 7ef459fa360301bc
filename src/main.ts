// The entry point and the one place that exits: parse, run, map any error to its exit code.
import { CommanderError } from 'commander';
import { CliError, EXIT } from './cli/errors.js';
import { ApiRequestError, NetworkError, UnexpectedResponseError } from './client/errors.js';
import { buildProgram } from './program.js';
import { packageVersion } from './version.js';

function apiExitCode(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status >= 400 && status < 500 && status !== 429) return EXIT.usage;
  return EXIT.network;
}

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    const success = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
    return success ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliError) {
    process.stderr.write(`pinvoice: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof ApiRequestError) {
    const details = error.details.map((d) => `\n  ${d.path}: ${d.message}`).join('');
    process.stderr.write(`pinvoice: ${error.message} (HTTP ${error.status} ${error.code})${details}\n`);
    return apiExitCode(error.status);
  }
  if (error instanceof NetworkError || error instanceof UnexpectedResponseError) {
    process.stderr.write(`pinvoice: ${error.message}\n`);
    return EXIT.network;
  }
  if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'CancelledError' || error.name === 'AbortPromptError')) {
    process.stderr.write(`pinvoice: cancelled${error.name === 'CancelledError' ? `: ${error.message}` : ''}\n`);
    return EXIT.cancelled;
  }
  const detail = process.env.PINVOICE_DEBUG ? (error as Error)?.stack : (error as Error)?.message;
  process.stderr.write(`pinvoice: unexpected error: ${detail ?? String(error)}\n`);
  return EXIT.unexpected;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram(packageVersion()).parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeOf(error);
  }
}

await main(process.argv);
