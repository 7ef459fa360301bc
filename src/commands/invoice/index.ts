// `pinvoice invoice get|create|refund|3ds|open`: issue and inspect charges. Each action imports its
// handler when it runs, so --help loads none of them.
import { Command, Option } from '../commander.js';
import { METHODS, STATUSES } from '../../domain/status.js';
import { apiCommand, collect, completes, examples, positiveSeconds, wholeNumber, withConnection, withQr, withTokenFile, withYes, type FlagsOf } from '../options.js';

const getCommand = () =>
  withQr(withTokenFile(withConnection(new Command('get'))), 'for pending pix charges on a terminal')
    .description('show a transaction: status, amounts, fee, payer, items, payment data, refunds, timeline')
    .argument('<ref>', 'integer id, secureId (INV-…), external_id, pix copy-and-paste code, checkout URL or token, boleto line or barcode')
    .option('--watch', 'poll until the charge reaches a final status; exit 0 when paid, 7 otherwise, 8 on timeout')
    .addOption(new Option('--timeout <seconds>', 'with --watch: give up watching after this long (default 300); without: give up on a request with no answer after this long (default: $PINVOICE_TIMEOUT, else 20)').argParser(positiveSeconds))
    .addOption(new Option('--interval <seconds>', 'time between polls while watching').default(2).argParser(positiveSeconds))
    .addHelpText('after', examples(
      'pinvoice invoice get 42',
      'pinvoice invoice get INV-20261122-000042-8391 --json | jq .status',
      'pinvoice invoice get 42 --watch --timeout 120 && echo paid',
      'pinvoice invoice get pedido-1042                            # the merchant\'s external_id',
      "pinvoice invoice get '00020101021226…6304A1B2'             # a pasted pix code (pinvoice serve)",
    ));
export type GetFlags = FlagsOf<typeof getCommand>;

const createCommand = () =>
  withQr(apiCommand(new Command('create')), 'on a terminal')
    .description('issue a charge from a JSON file or stdin, from flags, or interactively; or many, one per line of --batch')
    .option('--file <path>', 'JSON create request; - reads stdin (flags override its fields)')
    .option('--batch <path>', 'NDJSON: one create request per line, - reads stdin; one result line per request (exit 10 if any failed)')
    .addOption(new Option('--concurrency <n>', 'with --batch: requests in flight at once (default 16)').argParser(wholeNumber(1, 256, 'requests')))
    .option('--out <path>', 'with --batch: write the result lines to this file instead of stdout')
    .addOption(new Option('--method <method>', 'pix, credit_card or boleto').choices(METHODS))
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
    .option('--allow-unknown-fields', 'send fields the API does not know (refused by default, each named with a did-you-mean); the gateway ignores them')
    .option('--no-input', 'never prompt; fail at once naming what is missing')
    .option('--full', 'on a terminal, show the whole record as invoice get does, not the short receipt (piped output and --json always are whole)')
    .addHelpText('after', examples(
      'pinvoice invoice create                                   # guided prompts on a terminal',
      'pinvoice invoice create --file charge.json',
      'cat charge.json | pinvoice invoice create --file - --json | jq -r .secureId',
      'pinvoice invoice create --method pix --payer-name "Fulano de Tal" --payer-email f@example.com \\\n      --payer-document 529.982.247-25 --item "Camiseta:1:19,90" --no-input',
      'pinvoice invoice create --file charge.json --amount 25,00 --dry-run',
      'pinvoice invoice create --file charge.json --external-id pedido-1042 --metadata channel=loja --no-input',
      'pinvoice invoice create --batch charges.ndjson --out results.ndjson   # again after a failure: nothing is created twice',
    ));
export type CreateFlags = FlagsOf<typeof createCommand>;

const refundCommand = () =>
  withYes(apiCommand(new Command('refund')), 'refund without asking; needed where nothing can ask (a script, a pipe, cron): without a terminal and without --yes, exit 2 and nothing is sent')
    .description('refund a paid charge, wholly (default) or in part; asks first on a terminal, needs --yes without one; answers a receipt (--full: the record)')
    .argument('<id>', 'integer id or secureId')
    .option('--amount <reais>', 'amount to refund, typed as 12,50 or 12.50 (default: all that is left)')
    .option('--reason <text>', 'why, kept with the refund')
    .option('--idempotency-key <key>', 'retry-safe key (default: a new UUID per run)')
    .option('--full', 'on a terminal, show the whole record as invoice get does, not the short receipt')
    .addHelpText('after', examples('pinvoice invoice refund 42', 'pinvoice invoice refund 42 --amount 5,00 --reason "item returned"', 'pinvoice invoice refund 42 --yes                         # no question; what a script must pass'));
export type RefundFlags = FlagsOf<typeof refundCommand>;

const threeDsCommand = () =>
  apiCommand(new Command('3ds'))
    .description('complete a card charge waiting for 3-D Secure with its authentication values')
    .argument('<id>', 'integer id or secureId')
    .option('--cavv <value>', 'cardholder authentication verification value')
    .option('--xid <value>', 'transaction identifier')
    .option('--eci <value>', 'electronic commerce indicator (05/02 authenticated, 06/01 attempted, 07/00 failed)')
    .option('--version <value>', '3-D Secure protocol version, e.g. 2.2.0')
    .option('--referenceid <value>', 'reference id of the authentication')
    .option('--file <path>', 'a JSON object with the five values; - reads stdin')
    .option('--sample', 'use the documented sample values that authenticate (sandbox)')
    .addHelpText('after', examples('pinvoice invoice 3ds 42 --sample', 'pinvoice invoice 3ds 42 --cavv AAABBEg0VhI0VniQEjRWAAAAAAA= --xid 1f2e… --eci 05 --version 2.2.0 --referenceid 9a8b…'));
export type ThreeDsFlags = FlagsOf<typeof threeDsCommand>;

const openCommand = () =>
  apiCommand(new Command('open'))
    .description("open the charge's checkout page (what the payer sees) in the browser ($BROWSER, else the system's); its URL is printed too (exit 1 if the browser fails)")
    .argument('<ref>', 'integer id, secureId, or any reference invoice get takes (a checkout URL, a pix code…)')
    .option('--print', 'only print the URL (also what happens when there is no browser to open)')
    .addHelpText('after', examples('pinvoice invoice open 42', 'BROWSER="firefox --private-window" pinvoice invoice open 42', 'pinvoice invoice open INV-20261123-000042-1234 --print', 'pinvoice invoice open 42 --json | jq -r .url'));
export type OpenFlags = FlagsOf<typeof openCommand>;

const listCommand = () =>
  apiCommand(new Command('list'))
    .description('list the company\'s charges, newest first, from pinvoice serve\'s listing (production has none): filters, pages, formats')
    .addOption(completes(new Option('--status <status>', 'only these statuses, comma-separated (pending,paid…)'), { words: STATUSES, commaSeparated: true }))
    .addOption(completes(new Option('--method <method>', 'only this method: pix, credit_card or boleto (or several, comma-separated)'), { words: METHODS, commaSeparated: true }))
    .option('--payer <document-or-email>', 'only this payer: CPF/CNPJ (punctuation allowed) or e-mail')
    .option('--external-id <ref>', 'only the charges with this external_id (your order number)')
    .option('--since <date>', 'created on or after: 2026-11-25 (the start of that day in your time zone) or 2026-11-25T14:00:00-03:00')
    .option('--until <date>', 'created before: a date or date-time, as --since')
    .option('--min <reais>', 'amount at least, typed as 12,50 or 12.50')
    .option('--max <reais>', 'amount at most, typed as 12,50 or 12.50')
    .addOption(new Option('--limit <n>', 'at most this many charges (default 50)').argParser(wholeNumber(1, 100_000, 'charges')))
    .option('--all', 'every matching charge, page after page, written as each page comes')
    .addOption(new Option('--page-size <n>', 'charges asked for per request (default 100; the listing allows 1 to 500)').argParser(wholeNumber(1, 500, 'charges')))
    .addOption(new Option('--format <format>', 'table (default), json, ndjson or csv').choices(['table', 'json', 'ndjson', 'csv']))
    .addHelpText('after', examples(
      'pinvoice invoice list --status pending --method pix',
      'pinvoice invoice list --payer 529.982.247-25 --since 2026-11-01',
      'pinvoice invoice list --all --format csv > charges.csv',
      'pinvoice invoice list --all --format ndjson | jq -r .secureId',
    ));
export type InvoiceListFlags = FlagsOf<typeof listCommand>;

export function invoiceGroup() {
  return new Command('invoice')
    .description('issue and inspect charges')
    .addCommand(getCommand().action(async (id, flags) => (await import('./get.js')).getInvoice(id, flags)))
    .addCommand(listCommand().action(async (flags) => (await import('./list.js')).listInvoices(flags)))
    .addCommand(createCommand().action(async (flags) =>
      flags.batch === undefined ? (await import('./create.js')).createInvoice(flags) : (await import('./batch.js')).createBatch(flags)))
    .addCommand(refundCommand().action(async (id, flags) => (await import('./refund.js')).refundInvoice(id, flags)))
    .addCommand(threeDsCommand().action(async (id, flags) => (await import('./three-ds.js')).complete3ds(id, flags)))
    .addCommand(openCommand().action(async (id, flags) => (await import('./open.js')).openInvoice(id, flags)));
}
