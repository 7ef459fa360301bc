// Irreversible actions (a refund, removing a token, a chargeback…) ask first on a terminal. `--yes`
// skips the question; without a terminal (a script, CI) nothing is asked, so scripts keep working.
import { CancelledError, inquirerPrompter } from './prompter.js';

export interface ConfirmFlags {
  yes?: boolean | undefined;
  input?: boolean | undefined;
  color?: boolean | undefined;
}

/** Whether a person can answer here: stdin and stderr (where prompts are drawn) are both terminals. */
export function canAsk(flags: ConfirmFlags = {}): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true && flags.input !== false;
}

/**
 * Asks `question` (default: no) on a terminal unless --yes; a "no" cancels with exit 130 and
 * `nothing was changed`. Without a terminal it returns at once: the action goes ahead.
 */
export async function confirmAction(question: string, flags: ConfirmFlags): Promise<void> {
  if (flags.yes === true || !canAsk(flags)) return;
  const prompter = await inquirerPrompter(flags);
  if (!(await prompter.confirm({ message: question, default: false }))) throw new CancelledError('nothing was changed');
}
