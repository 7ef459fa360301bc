// `pinvoice profile list|use`: the stored profiles, tokens shown masked, never whole.
import { Argument, Command, Option } from '../commander.js';
import { completes, examples, type FlagsOf } from '../options.js';

const listCommand = () =>
  new Command('list')
    .description('list profiles (tokens masked)')
    .option('--json', 'print JSON')
    .option('--no-color', 'no colour')
    // what the completion scripts run for `--profile <TAB>` and `profile use <TAB>`
    .addOption(new Option('--names', 'print only the names, one per line').hideHelp().conflicts(['json']))
    .addHelpText('after', examples('pinvoice profile list'));
export type ProfileListFlags = FlagsOf<typeof listCommand>;

const useCommand = () =>
  new Command('use')
    .description('make a profile the current one')
    .addArgument(completes(new Argument('<name>', 'profile name'), 'profiles'))
    .addHelpText('after', examples('pinvoice profile use sandbox'));
export type ProfileUseFlags = FlagsOf<typeof useCommand>;

export function profileGroup() {
  return new Command('profile')
    .description('list and choose the stored profiles')
    .addCommand(listCommand().action(async (flags) =>
      flags.names ? (await import('../completion/profile-names.js')).printProfileNames() : (await import('./list.js')).profileList(flags)))
    .addCommand(useCommand().action(async (name, flags) => (await import('./use.js')).profileUse(name, flags)));
}
