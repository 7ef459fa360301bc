// `pinvoice completion bash|zsh|fish`: completion scripts generated from the command tree.
import { Argument, Command, type CommandUnknownOpts } from '../commander.js';
import { examples } from '../options.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The tree the scripts are made from is the one this command was parsed in: no import of program.ts. */
function rootOf(command: CommandUnknownOpts): CommandUnknownOpts {
  return command.parent ? rootOf(command.parent) : command;
}

export function completionGroup() {
  return new Command('completion')
    .description('print a shell completion script generated from the command tree')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText('after', examples(
      'pinvoice completion bash > ~/.local/share/bash-completion/completions/pinvoice',
      'pinvoice completion zsh > "${fpath[1]}/_pinvoice"        # then start a new zsh',
      'source <(pinvoice completion zsh)                         # in ~/.zshrc, after compinit',
      'pinvoice completion fish > ~/.config/fish/completions/pinvoice.fish',
    ))
    .action(async (shell, _flags, command) => (await import('./script.js')).printCompletion(rootOf(command), shell));
}
