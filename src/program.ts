// The command tree, assembled from the command groups (src/commands/<group>/index.ts), each loaded when a run needs it. Only commander
// is loaded here: every action imports its handler when it runs, so `--help` and `--version` stay fast.
import { Command, type CommandUnknownOpts } from './commands/commander.js';
import { EXIT_CODE_HELP } from './cli/errors.js';

type Group = () => Promise<CommandUnknownOpts[]>;

/**
 * The command groups in the order --help lists them, each with the words that start its commands and
 * a loader: a run names one group (`pinvoice invoice get …`), and needs only that group's module.
 */
const GROUPS: readonly (readonly [names: readonly string[], load: Group])[] = [
  [['login', 'logout', 'whoami', 'company'], async () => (await import('./commands/auth/index.js')).authGroup()],
  [['profile'], async () => [(await import('./commands/profile/index.js')).profileGroup()]],
  [['invoice'], async () => [(await import('./commands/invoice/index.js')).invoiceGroup()]],
  [['sandbox'], async () => [(await import('./commands/sandbox/index.js')).sandboxGroup()]],
  [['logs'], async () => [(await import('./commands/logs/index.js')).logsGroup()]],
  [['dashboard'], async () => [(await import('./commands/dashboard/index.js')).dashboardGroup()]],
  [['webhooks'], async () => [(await import('./commands/webhooks/index.js')).webhooksGroup()]],
  [['events'], async () => [(await import('./commands/events/index.js')).eventsGroup()]],
  [['pix'], async () => [(await import('./commands/pix/index.js')).pixGroup()]],
  [['boleto'], async () => [(await import('./commands/boleto/index.js')).boletoGroup()]],
  [['serve'], async () => [(await import('./commands/serve/index.js')).serveGroup()]],
  [['proxy'], async () => [(await import('./commands/proxy/index.js')).proxyGroup()]],
  [['openapi'], async () => [(await import('./commands/openapi/index.js')).openapiGroup()]],
  [['completion'], async () => [(await import('./commands/completion/index.js')).completionGroup()]],
];

/**
 * The group a command line runs, when that is all it needs: its first word names one, and nothing asks
 * for the whole tree (help lists every command; an unknown word is answered with the nearest known ones;
 * the completion scripts are written from the whole tree).
 */
function groupOf(args: readonly string[]): Group | undefined {
  const first = args[0];
  if (first === undefined || first === 'completion' || args.some((arg) => arg === '--help' || arg === '-h' || arg === 'help')) return undefined;
  return GROUPS.find(([names]) => names.includes(first))?.[1];
}

/** addCommand does not copy settings to added commands, so they are applied to the whole tree here. */
function forEachCommand(command: CommandUnknownOpts, fn: (command: CommandUnknownOpts) => void): void {
  fn(command);
  for (const child of command.commands) forEachCommand(child, fn);
}

/**
 * The command tree: whole, or (given the command line's words after `pinvoice`) only the group they
 * run, which is what a run pays for at start-up (each group's module and its commands' declarations).
 */
export async function buildProgram(version: string, args?: readonly string[]): Promise<Command> {
  const program = new Command('pinvoice')
    .description('Issue, inspect and test pix, card and boleto charges against the payment invoicing API')
    .version(version, '-V, --version')
    .enablePositionalOptions()
    .addHelpText('after', `\n${EXIT_CODE_HELP}\n`);
  const one = args === undefined ? undefined : groupOf(args);
  const groups = await Promise.all(one === undefined ? GROUPS.map(([, load]) => load()) : [one()]);
  for (const command of groups.flat()) program.addCommand(command);
  // Usage errors are said by main.ts as every other error is ("pinvoice: …", src/cli/usage-words.ts),
  // from the error commander throws: its words are loaded only when there is one to say.
  forEachCommand(program, (command) => command.exitOverride().configureOutput({ outputError: () => undefined }));
  return program;
}
