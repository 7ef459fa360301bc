// `pinvoice profile list|use`: the stored profiles, tokens shown masked, never whole.
import { Command } from '@commander-js/extra-typings';
import { examples, type FlagsOf } from '../options.js';

const listCommand = () =>
  new Command('list')
    .description('list profiles (tokens masked)')
    .option('--json', 'print JSON')
    .option('--no-color', 'no colour')
    .addHelpText('after', examples('pinvoice profile list'));
export type ProfileListFlags = FlagsOf<typeof listCommand>;

const useCommand = () =>
  new Command('use')
    .description('make a profile the current one')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('pinvoice profile use sandbox'));
export type ProfileUseFlags = FlagsOf<typeof useCommand>;

export function profileGroup() {
  return new Command('profile')
    .description('list and choose the stored profiles')
    .addCommand(listCommand().action(async (flags) => (await import('./list.js')).profileList(flags)))
    .addCommand(useCommand().action(async (name, flags) => (await import('./use.js')).profileUse(name, flags)));
}
