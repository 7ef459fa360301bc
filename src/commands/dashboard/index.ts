// `pinvoice dashboard`: the sandbox dashboard of `pinvoice serve`, signed in as the profile's token by a
// one-time link, opened in the browser. The action imports its handler when it runs.
import { Command } from '../commander.js';
import { apiCommand, examples, type FlagsOf } from '../options.js';

const dashboardCommand = () =>
  apiCommand(new Command('dashboard'))
    .description("open the sandbox dashboard of `pinvoice serve` (requests, charges, the company's clock and chaos), signed in as this profile's token by a one-time link; the link is printed too")
    .option('--print', 'only print the link (open it once, within 10 minutes); also what happens when there is no browser to open')
    .addHelpText('after', examples('pinvoice dashboard', 'pinvoice dashboard --profile local --print', 'BROWSER=firefox pinvoice dashboard'));
export type DashboardFlags = FlagsOf<typeof dashboardCommand>;

export function dashboardGroup() {
  return dashboardCommand().action(async (flags) => (await import('./open.js')).openDashboard(flags));
}
