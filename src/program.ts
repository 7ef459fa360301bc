// The command tree. Only commander is loaded here: every action imports its handler when it runs,
// so `pinvoice --help` and `--version` stay fast.
import { Command, InvalidArgumentError, Option } from 'commander';
import { EXIT_CODE_HELP } from './cli/errors.js';

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be a port number from 0 to 65535 (0 picks a free port)');
  return n;
}

function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InvalidArgumentError('must be a whole number of seconds, at least 1');
  return n;
}

const examples = (...lines: string[]) => `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

function serveCommand(): Command {
  const serve = new Command('serve')
    // `serve company add --db X`: --db belongs to the subcommand, not to serve
    .enablePositionalOptions()
    .description('run a faithful, stateful local implementation of the API (embedded SQLite database)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(new Option('--port <number>', 'port to listen on (0 picks a free port)').default(4010).argParser(port))
    .option('--db <path>', 'SQLite database file, or :memory: for a throwaway run (default: $PINVOICE_DB or pinvoice.db in the data directory)')
    .option('--token <value>', "fix the seeded company's access token, for CI (also PINVOICE_SERVE_TOKEN)")
    .addOption(new Option('--pix-expiry <seconds>', 'how long a pix charge can be paid').default(3600).argParser(positiveSeconds))
    .addHelpText('after', examples(
      'pinvoice serve',
      'pinvoice serve --port 0 --db :memory: --token "$CI_TOKEN"',
      'pinvoice serve --db ./dev.db --host 0.0.0.0 --port 8080',
    ))
    .action(async (flags) => (await import('./cli/serve.js')).serve(flags));

  const company = serve.command('company').description("manage the local server's companies (works on the database file directly)");
  company
    .command('add')
    .description('create a company with its own access token (printed once)')
    .option('--db <path>', 'SQLite database file (default: as for serve)')
    .option('--name <name>', 'fantasy name', 'Pinvoice Sandbox')
    .option('--corporate-reason <name>', 'corporate name (default: the fantasy name + " Ltda")')
    .option('--cnpj <cnpj>', 'CNPJ, numeric or alphanumeric (default: a generated valid one)')
    .option('--json', 'print {id, fantasy_name, cnpj, token} as JSON')
    .addHelpText('after', examples('pinvoice serve company add --name "Loja Dois"', 'pinvoice serve company add --db ./dev.db --json | jq -r .token'))
    .action(async (flags) => (await import('./cli/serve.js')).companyAdd(flags));
  company
    .command('list')
    .description('list the companies and how many tokens each has (tokens are never shown)')
    .option('--db <path>', 'SQLite database file (default: as for serve)')
    .option('--json', 'print as JSON')
    .addHelpText('after', examples('pinvoice serve company list --db ./dev.db'))
    .action(async (flags) => (await import('./cli/serve.js')).companyList(flags));
  return serve;
}

function openapiCommand(): Command {
  return new Command('openapi')
    .description('print the OpenAPI 3.1 document of the API (the one `serve` publishes at /openapi.json)')
    .addHelpText('after', examples('pinvoice openapi > openapi.json', 'pinvoice openapi | jq ".paths | keys"'))
    .action(async () => (await import('./cli/openapi.js')).printOpenApi());
}

/** addCommand does not copy settings to added commands, so they are applied to the whole tree here. */
export function forEachCommand(command: Command, fn: (command: Command) => void): void {
  fn(command);
  for (const child of command.commands) forEachCommand(child, fn);
}

function completionCommand(): Command {
  return new Command('completion')
    .description('print a shell completion script generated from the command tree')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText('after', examples(
      'pinvoice completion bash > ~/.local/share/bash-completion/completions/pinvoice',
      'pinvoice completion zsh > "${fpath[1]}/_pinvoice"',
      'pinvoice completion fish > ~/.config/fish/completions/pinvoice.fish',
    ))
    .action(async (shell: string) => (await import('./cli/completion.js')).printCompletion(shell));
}

export function buildProgram(version: string): Command {
  const program = new Command('pinvoice')
    .description('Issue, inspect and test pix, card and boleto charges against the payment invoicing API')
    .version(version, '-V, --version')
    .enablePositionalOptions()
    .addHelpText('after', `\n${EXIT_CODE_HELP}\n`);
  program.addCommand(serveCommand());
  program.addCommand(openapiCommand());
  program.addCommand(completionCommand());
  forEachCommand(program, (command) => command.exitOverride().showHelpAfterError('(run with --help for usage)'));
  return program;
}
