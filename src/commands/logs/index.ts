// `pinvoice logs tail|list|show|clear`, on `pinvoice serve` only: the inspector's journal of every request
// the sandbox received with the company's tokens and every postback attempt it sent, redacted by the
// server before it kept them; `logs export`: a proxy's journal's production records as fixtures. Filters
// are checked here, before any request. Each action imports its handler when it runs.
import { Argument, Command, InvalidArgumentError, Option, type OptionValues } from '../commander.js';
import type { Direction } from '../../api/journal.js';
import { apiCommand, collect, completes, examples, wholeNumber, withYes, type FlagsOf } from '../options.js';

export const DIRECTIONS = ['in', 'out', 'tunnel'] as const satisfies readonly Direction[];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
/** The most entries one list answers (the server's limit). */
const MAX_LIMIT = 500;

function method(value: string): string {
  if (!/^[A-Za-z]{3,7}$/.test(value.trim())) throw new InvalidArgumentError('must be an HTTP method such as GET or POST');
  return value.trim().toUpperCase();
}

function status(value: string): string {
  const said = value.trim().toLowerCase();
  if (!/^[1-5](\d\d|xx)$/.test(said)) throw new InvalidArgumentError('must be a status such as 422, or a class such as 4xx');
  return said;
}

function pathPattern(value: string): string {
  if (!/^[/*]\S{0,2047}$/.test(value)) throw new InvalidArgumentError('must be a path starting with / (or *), such as /api/v2/invoices or /api/v2/invoices/*/refund');
  return value;
}

function charge(value: string): string {
  if (!/^[\w-]{1,64}$/.test(value.trim())) throw new InvalidArgumentError("must be a charge's integer id or secureId");
  return value.trim();
}

function entryId(value: string): string {
  if (!/^\d{1,15}$/.test(value.trim())) throw new InvalidArgumentError('must be an entry id, a whole number (the first column of `pinvoice logs list`)');
  return value.trim();
}

/** --journal: a proxy's journal file, read where it lies instead of asking a server. */
function withJournalFile<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return command.option('--journal <file>', 'read a `pinvoice proxy` journal file where it lies (no server asked), e.g. ~/.local/share/pinvoice/proxy/<host>.journal');
}

/** The filters tail and list share, as the query the server takes. */
function withFilters<Args extends unknown[], Opts extends OptionValues>(command: Command<Args, Opts>) {
  return command
    .addOption(completes(new Option('--method <method>', 'only requests of this HTTP method (postback attempts are POSTs)').argParser(method), { words: METHODS }))
    .addOption(new Option('--status <status>', 'only answers of this status (422) or class (4xx)').argParser(status))
    .addOption(new Option('--path <pattern>', 'only this path, exactly or with * for any run of characters: /api/v2/invoices/*/refund').argParser(pathPattern))
    .addOption(new Option('--charge <id>', 'only what touched this charge (integer id or secureId)').argParser(charge))
    .addOption(new Option('--direction <direction>', 'in: requests received; out: postback attempts sent; tunnel (a proxy journal of --forward): CONNECTs to other hosts').choices(DIRECTIONS));
}

const tailCommand = () =>
  withJournalFile(withFilters(apiCommand(new Command('tail'))))
    .description('print each request the sandbox receives and each postback attempt it sends as it happens, until Ctrl-C; --json: one entry a line')
    .addHelpText('after', examples(
      'pinvoice logs tail',
      'pinvoice logs tail --status 4xx                 # every refused request, and why, while your integration runs',
      'pinvoice logs tail --direction out              # postback attempts and what your handler answered',
      'pinvoice logs tail --charge 42 --json | jq .status',
      'pinvoice logs tail --journal proxy.journal       # what passes through pinvoice proxy',
    ));
export type TailFlags = FlagsOf<typeof tailCommand>;

/** A cursor: an entry id, or 0 for the start. */
function cursor(value: string): number {
  if (!/^\d{1,15}$/.test(value.trim())) throw new InvalidArgumentError('must be an entry id, a whole number (a page’s last id or next_cursor)');
  return Number(value.trim());
}

const listCommand = () =>
  withJournalFile(withFilters(apiCommand(new Command('list'))))
    .description('list the journal, oldest first: requests received and postback attempts sent, with the filters given')
    .addOption(new Option('--limit <n>', `at most this many entries (default 100, at most ${MAX_LIMIT})`).argParser(wholeNumber(1, MAX_LIMIT, 'entries')))
    .addOption(new Option('--after <cursor>', 'only entries after this id (the last id of the page before, or its next_cursor)').argParser(cursor))
    .addHelpText('after', examples(
      'pinvoice logs list',
      'pinvoice logs list --status 4xx --method POST',
      'pinvoice logs list --charge INV-20261128-000001-6625 --direction out',
      'pinvoice logs list --after 120 --limit 50 --json | jq \'.data[] | {id, path, status}\'',
      'pinvoice logs list --journal proxy.journal --status 5xx   # a proxy\'s journal file',
    ));
export type ListFlags = FlagsOf<typeof listCommand>;

const showCommand = () =>
  withJournalFile(apiCommand(new Command('show')))
    .description('one entry whole: what was sent (headers, body), what was answered, the validation problems; redacted')
    .addArgument(new Argument('<id>', 'the entry id (the first column of `pinvoice logs list` and `logs tail`)').argParser(entryId))
    .addHelpText('after', examples('pinvoice logs show 12', 'pinvoice logs show 12 --json | jq .body', 'pinvoice logs show 7 --journal proxy.journal --json | jq .findings'));
export type ShowFlags = FlagsOf<typeof showCommand>;

const clearCommand = () =>
  withYes(apiCommand(new Command('clear')))
    .description("remove every entry of the company's journal; asks first on a terminal, and needs --yes without one")
    .addHelpText('after', examples('pinvoice logs clear', 'pinvoice logs clear --yes        # a script: nothing is asked'));
export type ClearFlags = FlagsOf<typeof clearCommand>;

function ref(value: string, previous: string[] = []): string[] {
  if (!/^\S{1,255}$/.test(value.trim())) throw new InvalidArgumentError("must be a charge's integer id, secureId or external id");
  return collect(value.trim(), previous);
}

const exportCommand = () =>
  new Command('export')
    .description('production records a `pinvoice proxy` journal holds (or saved with `invoice get --json`) as a `serve --fixtures` file, each payer replaced by a consistent fake (valid CPF/CNPJ); metadata kept as sent')
    .addOption(new Option('--journal <file>', 'a `pinvoice proxy` journal file: the newest record of each charge its answers hold').conflicts('records'))
    .addOption(new Option('--records <file...>', 'files saved with `pinvoice invoice get REF --json` against production: one record a file, {"data": record}, or JSON lines'))
    .requiredOption('--fixtures <path>', 'the fixtures file to write (owner-only, replaced whole), or - for stdout')
    .addOption(new Option('--charge <ref>', 'only this charge (repeatable): its integer id, secureId or external id; one not found: exit 4, nothing written').argParser(ref))
    .addHelpText('after', examples(
      'pinvoice logs export --journal proxy.journal --fixtures prod.json',
      'pinvoice logs export --journal proxy.journal --charge 4242 --charge order-1001 --fixtures case.json',
      'pinvoice invoice get INV-123 --json > inv.json && pinvoice logs export --records inv.json --fixtures case.json',
      'pinvoice serve --fixtures case.json        # the records answered as production sent them',
    ));
export type ExportFlags = FlagsOf<typeof exportCommand>;

/** The filters given, as the list's and the stream's query (--charge is the server's invoice_id). */
export function journalQuery(flags: Pick<TailFlags, 'method' | 'status' | 'path' | 'charge' | 'direction'>): Record<string, string> {
  const query: Record<string, string | undefined> = { method: flags.method, status: flags.status, path: flags.path, invoice_id: flags.charge, direction: flags.direction };
  return Object.fromEntries(Object.entries(query).filter((pair): pair is [string, string] => pair[1] !== undefined));
}

export function logsGroup() {
  return new Command('logs')
    .description('the inspector: every request `pinvoice serve` received and every postback it sent, or (--journal FILE) what passed through `pinvoice proxy`, redacted; export: production records as fixtures')
    .addCommand(tailCommand().action(async (flags) => (await import('./tail.js')).tail(flags)))
    .addCommand(listCommand().action(async (flags) => (await import('./list.js')).list(flags)))
    .addCommand(showCommand().action(async (id, flags) => (await import('./show.js')).show(id, flags)))
    .addCommand(clearCommand().action(async (flags) => (await import('./clear.js')).clear(flags)))
    .addCommand(exportCommand().action(async (flags) => (await import('./export.js')).exportRecords(flags)));
}
