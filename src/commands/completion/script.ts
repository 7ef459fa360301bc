// `pinvoice completion bash|zsh|fish`: completion scripts generated from the command tree, so they
// cannot fall behind it (completions/ holds the generated files; a test fails when they drift). The
// tree is given, never imported: program.ts imports the completion command, not the other way round.
import type { CommandUnknownOpts } from '../commander.js';
import { usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { SHELLS } from './index.js';
import { commandNodes } from './tree.js';
import { zshScript } from './zsh.js';

export { SHELLS, type Shell } from './index.js';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

export function completionScript(program: CommandUnknownOpts, shell: string): string {
  if (!(SHELLS as readonly string[]).includes(shell)) throw usageError(`unknown shell "${shell}"; choose one of ${SHELLS.join(', ')}`);
  return SCRIPTS[shell as keyof typeof SCRIPTS](commandNodes(program));
}

export function printCompletion(program: CommandUnknownOpts, shell: string): void {
  createOutput({}).data(completionScript(program, shell));
}
