// `pinvoice completion bash|zsh|fish`: completion scripts generated from the command tree.
import { Command } from '@commander-js/extra-typings';
import { examples } from '../options.js';

export function completionGroup() {
  return new Command('completion')
    .description('print a shell completion script generated from the command tree')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText('after', examples(
      'pinvoice completion bash > ~/.local/share/bash-completion/completions/pinvoice',
      'pinvoice completion zsh > "${fpath[1]}/_pinvoice"',
      'pinvoice completion fish > ~/.config/fish/completions/pinvoice.fish',
    ))
    .action(async (shell) => (await import('./script.js')).printCompletion(shell));
}
