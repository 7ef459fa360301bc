// The command tree, assembled from the command groups (src/commands/<group>/index.ts). Only commander
// is loaded here: every action imports its handler when it runs, so `--help` and `--version` stay fast.
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { EXIT_CODE_HELP } from './cli/errors.js';
import { authGroup } from './commands/auth/index.js';
import { boletoGroup } from './commands/boleto/index.js';
import { completionGroup } from './commands/completion/index.js';
import { eventsGroup } from './commands/events/index.js';
import { invoiceGroup } from './commands/invoice/index.js';
import { logsGroup } from './commands/logs/index.js';
import { dashboardGroup } from './commands/dashboard/index.js';
import { openapiGroup } from './commands/openapi/index.js';
import { pixGroup } from './commands/pix/index.js';
import { profileGroup } from './commands/profile/index.js';
import { sandboxGroup } from './commands/sandbox/index.js';
import { serveGroup } from './commands/serve/index.js';
import { webhooksGroup } from './commands/webhooks/index.js';

/** addCommand does not copy settings to added commands, so they are applied to the whole tree here. */
function forEachCommand(command: CommandUnknownOpts, fn: (command: CommandUnknownOpts) => void): void {
  fn(command);
  for (const child of command.commands) forEachCommand(child, fn);
}

export function buildProgram(version: string): Command {
  const program = new Command('pinvoice')
    .description('Issue, inspect and test pix, card and boleto charges against the payment invoicing API')
    .version(version, '-V, --version')
    .enablePositionalOptions()
    .addHelpText('after', `\n${EXIT_CODE_HELP}\n`);
  for (const command of authGroup()) program.addCommand(command);
  const groups: CommandUnknownOpts[] = [profileGroup(), invoiceGroup(), sandboxGroup(), logsGroup(), dashboardGroup(), webhooksGroup(), eventsGroup(), pixGroup(), boletoGroup(), serveGroup(), openapiGroup(), completionGroup()];
  for (const group of groups) program.addCommand(group);
  // Usage errors are said by main.ts as every other error is ("pinvoice: …", src/cli/usage-words.ts),
  // from the error commander throws: its words are loaded only when there is one to say.
  forEachCommand(program, (command) => command.exitOverride().configureOutput({ outputError: () => undefined }));
  return program;
}
