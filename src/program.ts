// The command tree. Only commander is loaded here: every action imports its handler when it runs,
// so `pinvoice --help` and `--version` stay fast.
import { Command, Option } from 'commander';
import { EXIT_CODE_HELP } from './cli/errors.js';
import { collect, days, examples, forEachCommand, port, positiveSeconds, wholeNumber, withConnection } from './commands/options.js';
import { eventsCommand, webhooksCommand } from './commands/webhooks.js';

export { forEachCommand };

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
    .addOption(new Option('--boleto-due-days <days>', 'days from today to a new boleto’s due date').default(3).argParser(days))
    .addOption(new Option('--postback-attempts <n>', 'attempts per postback event, the first included (4 = one try and 3 retries)').default(4).argParser(wholeNumber(1, 100, 'attempts')))
    .addOption(new Option('--postback-base-delay <ms>', 'wait before the first retry; each next one waits about twice as long (with jitter)').default(1000).argParser(wholeNumber(1, 3_600_000, 'milliseconds')))
    .addOption(new Option('--postback-timeout <ms>', 'cut off a receiver that has not answered by then').default(10_000).argParser(wholeNumber(1, 600_000, 'milliseconds')))
    .addHelpText('after', examples(
      'pinvoice serve',
      'pinvoice serve --port 0 --db :memory: --token "$CI_TOKEN"',
      'pinvoice serve --postback-attempts 3 --postback-base-delay 100 --postback-timeout 2000   # fast retries for tests',
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

function authCommands(): Command[] {
  const login = withConnection(new Command('login'), { json: true })
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
    ))
    .action(async (flags) => (await import('./cli/auth.js')).login(flags));
  const logout = withConnection(new Command('logout'), { json: false })
    .description('remove a profile and its token')
    .addHelpText('after', examples('pinvoice logout --profile sandbox'))
    .action(async (flags) => (await import('./cli/auth.js')).logout(flags));
  const whoami = (name: string) =>
    withConnection(new Command(name))
      .description('the company behind the token, balances included')
      .addHelpText('after', examples(`pinvoice ${name}`, `pinvoice ${name} --profile production --json | jq .balance_pix`))
      .action(async (flags) => (await import('./cli/auth.js')).whoami(flags));
  return [login, logout, whoami('whoami'), whoami('company')];
}

function profileCommand(): Command {
  const profile = new Command('profile').description('list and choose the stored profiles');
  profile.addCommand(
    new Command('list')
      .description('list profiles (tokens masked)')
      .option('--json', 'print JSON')
      .option('--no-color', 'no colour')
      .addHelpText('after', examples('pinvoice profile list'))
      .action(async (flags) => (await import('./cli/profile.js')).profileList(flags)),
  );
  profile.addCommand(
    new Command('use')
      .description('make a profile the current one')
      .argument('<name>', 'profile name')
      .addHelpText('after', examples('pinvoice profile use sandbox'))
      .action(async (name, flags) => (await import('./cli/profile.js')).profileUse(name, flags)),
  );
  return profile;
}

function invoiceCommand(): Command {
  const invoice = new Command('invoice').description('issue and inspect charges');
  invoice.addCommand(
    withConnection(new Command('get'))
      .description('show a transaction: status, amounts, fee, payer, items, payment data, refunds, timeline')
      .argument('<id>', 'integer id or secureId (INV-…)')
      .option('--qr', 'draw the pix QR code (default: for pending pix charges on a terminal)')
      .option('--no-qr', 'never draw the QR code')
      .option('--watch', 'poll until the status leaves pending/waiting_3ds; exit 0 when paid, 7 otherwise, 8 on timeout')
      .addOption(new Option('--timeout <seconds>', 'give up watching after this long').default(300).argParser(positiveSeconds))
      .addOption(new Option('--interval <seconds>', 'time between polls while watching').default(2).argParser(positiveSeconds))
      .addHelpText('after', examples(
        'pinvoice invoice get 42',
        'pinvoice invoice get INV-20261122-000042-8391 --json | jq .status',
        'pinvoice invoice get 42 --watch --timeout 120 && echo paid',
      ))
      .action(async (id, flags) => (await import('./cli/invoice.js')).getInvoice(id, flags)),
  );
  invoice.addCommand(createCommand());
  invoice.addCommand(
    withConnection(new Command('refund'))
      .description('refund a paid charge, wholly (default) or in part; answers the record')
      .argument('<id>', 'integer id or secureId')
      .option('--amount <reais>', 'amount to refund, typed as 12,50 or 12.50 (default: all that is left)')
      .option('--reason <text>', 'why, kept with the refund')
      .option('--idempotency-key <key>', 'retry-safe key (default: a new UUID per run)')
      .addHelpText('after', examples('pinvoice invoice refund 42', 'pinvoice invoice refund 42 --amount 5,00 --reason "item returned"'))
      .action(async (id, flags) => (await import('./cli/lifecycle.js')).refundInvoice(id, flags)),
  );
  invoice.addCommand(
    withConnection(new Command('3ds'))
      .description('complete a card charge waiting for 3-D Secure with its authentication values')
      .argument('<id>', 'integer id or secureId')
      .option('--cavv <value>', 'cardholder authentication verification value')
      .option('--xid <value>', 'transaction identifier')
      .option('--eci <value>', 'electronic commerce indicator (05/02 authenticated, 06/01 attempted, 07/00 failed)')
      .option('--version <value>', '3-D Secure protocol version, e.g. 2.2.0')
      .option('--referenceid <value>', 'reference id of the authentication')
      .option('--file <path>', 'a JSON object with the five values; - reads stdin')
      .option('--sample', 'use the documented sample values that authenticate (sandbox)')
      .addHelpText('after', examples('pinvoice invoice 3ds 42 --sample', 'pinvoice invoice 3ds 42 --cavv AAABBEg0VhI0VniQEjRWAAAAAAA= --xid 1f2e… --eci 05 --version 2.2.0 --referenceid 9a8b…'))
      .action(async (id, flags) => (await import('./cli/lifecycle.js')).complete3ds(id, flags)),
  );
  invoice.addCommand(
    withConnection(new Command('open'))
      .description("print the URL of the charge's public page (the payer's view, no token needed)")
      .argument('<id>', 'integer id or secureId')
      .addHelpText('after', examples('pinvoice invoice open 42', 'curl -s "$(pinvoice invoice open 42)" | jq .status'))
      .action(async (id, flags) => (await import('./cli/lifecycle.js')).openInvoice(id, flags)),
  );
  return invoice;
}

function sandboxCommand(): Command {
  const sandbox = new Command('sandbox').description('drive a charge through its life on `pinvoice serve` (sandbox only)');
  const verbs = { pay: 'pay a pending charge (or one waiting for 3-D Secure)', expire: 'expire a pending charge now', cancel: 'cancel a pending charge (or one waiting for 3-D Secure)', chargeback: 'charge back a paid charge' } as const;
  for (const [action, description] of Object.entries(verbs)) {
    sandbox.addCommand(
      withConnection(new Command(action))
        .description(description)
        .argument('<id>', 'integer id or secureId')
        .addHelpText('after', examples(`pinvoice sandbox ${action} 42`))
        .action(async (id, flags) => (await import('./cli/lifecycle.js')).sandbox(action as 'pay', id, flags)),
    );
  }
  return sandbox;
}

function createCommand(): Command {
  return withConnection(new Command('create'))
    .description('issue a charge from a JSON file or stdin, from flags, or interactively')
    .option('--file <path>', 'JSON create request; - reads stdin (flags override its fields)')
    .option('--method <method>', 'pix, credit_card or boleto')
    .option('--amount <reais>', 'total, typed as 12,50 or 12.50 (default: the sum of the items)')
    .option('--item <name:quantity:unit_price>', 'an item, repeatable; unit price in reais, e.g. "Camiseta:2:19,90"', collect)
    .option('--payer-name <name>', 'payer name')
    .option('--payer-email <email>', 'payer e-mail')
    .option('--payer-document <cpf-or-cnpj>', 'payer CPF or CNPJ (punctuation allowed)')
    .option('--payer-phone <phone>', 'payer phone')
    .option('--payer-zip <cep>', 'payer CEP (boleto)')
    .option('--payer-address <street>', 'payer street (boleto)')
    .option('--payer-number <number>', 'payer street number (boleto)')
    .option('--payer-complement <text>', 'payer address complement')
    .option('--payer-neighborhood <name>', 'payer neighbourhood (bairro)')
    .option('--payer-city <city>', 'payer city (boleto)')
    .option('--payer-state <uf>', 'payer state, two letters (boleto)')
    .option('--tangible', 'the items are physical products (product_fisical)')
    .option('--postback-url <url>', 'where postbacks about this charge are sent')
    .option('--ip <address>', 'payer IP address (ip_payer)')
    .option('--external-id <ref>', 'your own reference for the charge, e.g. the order number (external_id)')
    .option('--metadata <key=value>', 'a metadata entry, repeatable (string values)', collect)
    .option('--card-token <token>', 'a tokenized card (credit_card)')
    .option('--installments <n>', 'card installments, 1 to 12')
    .option('--idempotency-key <key>', 'retry-safe key (default: a new UUID per run)')
    .option('--dry-run', 'validate and print the normalized payload; send nothing')
    .option('--no-input', 'never prompt; fail at once naming what is missing')
    .option('--qr', 'draw the pix QR code (default: on a terminal)')
    .option('--no-qr', 'never draw the QR code')
    .addHelpText('after', examples(
      'pinvoice invoice create                                   # guided prompts on a terminal',
      'pinvoice invoice create --file charge.json',
      'cat charge.json | pinvoice invoice create --file - --json | jq -r .secureId',
      'pinvoice invoice create --method pix --payer-name "Fulano de Tal" --payer-email f@example.com \\\n      --payer-document 529.982.247-25 --item "Camiseta:1:19,90" --no-input',
      'pinvoice invoice create --file charge.json --amount 25,00 --dry-run',
      'pinvoice invoice create --file charge.json --external-id pedido-1042 --metadata channel=loja --no-input',
    ))
    .action(async (flags) => (await import('./cli/invoice.js')).createInvoice(flags));
}

export function buildProgram(version: string): Command {
  const program = new Command('pinvoice')
    .description('Issue, inspect and test pix, card and boleto charges against the payment invoicing API')
    .version(version, '-V, --version')
    .enablePositionalOptions()
    .addHelpText('after', `\n${EXIT_CODE_HELP}\n`);
  for (const command of authCommands()) program.addCommand(command);
  program.addCommand(profileCommand());
  program.addCommand(invoiceCommand());
  program.addCommand(sandboxCommand());
  program.addCommand(webhooksCommand());
  program.addCommand(eventsCommand());
  program.addCommand(serveCommand());
  program.addCommand(openapiCommand());
  program.addCommand(completionCommand());
  forEachCommand(program, (command) => command.exitOverride().showHelpAfterError('(run with --help for usage)'));
  return program;
}
