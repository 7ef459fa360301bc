// The entry point and the one place that exits: parse, run, map any error to its exit code.
import { CommanderError } from 'commander';
import { CliError, EXIT } from './cli/errors.js';
import { buildProgram } from './program.js';
import { packageVersion } from './version.js';

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    const success = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
    return success ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliError) {
    process.stderr.write(`pinvoice: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof Error && error.name === 'ExitPromptError') return EXIT.cancelled;
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
