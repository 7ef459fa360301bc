// `pinvoice login`, `logout`, `whoami` (also as `company`): tokens come from a hidden prompt, stdin or
// a file, never a flag. Each action imports its handler when it runs, so --help loads none of them.
import { Command, type CommandUnknownOpts } from '../commander.js';
import { apiCommand, connectionOptions, examples, requestTimeout, withConnection, withYes, type FlagsOf } from '../options.js';

const loginCommand = () =>
  requestTimeout(withConnection(new Command('login')))
    .description('store an access token in a profile, after checking it against Company Infos')
    .option('--token-stdin', 'read the token from stdin')
    .option('--token-file <path>', 'read the token from a file')
    .option('--no-input', 'never prompt; fail if the token is not given by --token-stdin or --token-file')
    .option('--force', 'replace the token stored in the profile even when it belongs to another company (that token is lost)')
    .addHelpText('after', examples(
      'pinvoice login --profile local --base-url http://127.0.0.1:4010      # asks for the token, hidden',
      "printf '%s' \"$TOKEN\" | pinvoice login --profile ci --token-stdin",
      'pinvoice login --profile production --base-url https://api.example.com --token-file ~/.secrets/pinvoice',
      'pinvoice login --profile local --token-file new-token.txt --force      # over the token of another company',
    ));
export type LoginFlags = FlagsOf<typeof loginCommand>;

const logoutCommand = () =>
  withYes(connectionOptions(new Command('logout')))
    .description('remove a profile and its token (asks first on a terminal: the token cannot be shown again)')
    .addHelpText('after', examples('pinvoice logout --profile sandbox', 'pinvoice logout --profile ci --yes'));
export type LogoutFlags = FlagsOf<typeof logoutCommand>;

const whoamiCommand = (name: 'whoami' | 'company') =>
  apiCommand(new Command(name))
    .description('the company behind the token, balances included')
    .addHelpText('after', examples(`pinvoice ${name}`, `pinvoice ${name} --profile production --json | jq .balance_pix`));
export type WhoamiFlags = FlagsOf<typeof whoamiCommand>;

export function authGroup(): CommandUnknownOpts[] {
  return [
    loginCommand().action(async (flags) => (await import('./login.js')).login(flags)),
    logoutCommand().action(async (flags) => (await import('./logout.js')).logout(flags)),
    ...(['whoami', 'company'] as const).map((name) => whoamiCommand(name).action(async (flags) => (await import('./whoami.js')).whoami(flags))),
  ];
}
