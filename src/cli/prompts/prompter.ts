// The prompts the guided flows need, as a small interface: tests script it, the CLI adapts
// @inquirer/prompts to it. The library is imported only when a prompt is about to be shown,
// so commands that never prompt (and --help) do not pay for loading it.
import { CliError, EXIT } from '../errors.js';

/** inquirer's contract: `true` accepts the answer, a string is shown to the user as the reason it does not. */
export type Validate = (value: string) => true | string;

export interface Prompter {
  input(o: { message: string; default?: string; validate?: Validate }): Promise<string>;
  select<T extends string>(o: { message: string; choices: { name: string; value: T }[]; default?: T }): Promise<T>;
  confirm(o: { message: string; default?: boolean }): Promise<boolean>;
  password(o: { message: string; mask?: string; validate?: Validate }): Promise<string>;
}

/** The user said no (or pressed Ctrl-C): exit 130, with no stack trace. */
export class CancelledError extends CliError {
  override readonly name = 'CancelledError';

  constructor(message = 'cancelled') {
    super(message, EXIT.cancelled);
  }
}

// inquirer rejects with ExitPromptError on Ctrl-C; callers should not need to know that name.
async function cancellable<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CancelledError();
    throw error;
  }
}

/**
 * Prompts are drawn on stderr, never stdout: stdout carries data only, so `invoice create --json > out.json`
 * or `login > log` on a terminal asks its questions on screen and the file holds only what was asked for.
 */
export async function inquirerPrompter(flags: { color?: boolean | undefined } = {}): Promise<Prompter> {
  const inquirer = await import('@inquirer/prompts');
  const context = { output: process.stderr };
  // inquirer reads NO_COLOR and TERM=dumb itself, not our --no-color: then it paints nothing either (it
  // still moves the cursor, as any interactive prompt must)
  const theme = flags.color === false ? { theme: PLAIN_THEME } : {};
  return {
    input: (o) => cancellable(inquirer.input({ ...o, ...theme }, context)),
    select: (o) => cancellable(inquirer.select({ ...o, ...theme }, context)),
    confirm: (o) => cancellable(inquirer.confirm({ ...o, ...theme }, context)),
    password: (o) => cancellable(inquirer.password({ ...o, ...theme }, context)),
  };
}

const plain = (text: string) => text;
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] },
  style: {
    answer: plain, message: plain, help: plain, highlight: plain, description: plain,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    key: (text: string) => `<${text}>`,
    disabled: (text: string) => `- ${text}`,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
  },
};
