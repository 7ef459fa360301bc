// `pinvoice serve` and `pinvoice serve company add|list`: the local server, and its companies on the
// database file. Each action imports its handler when it runs (the server's modules are heavy).
import { Command, InvalidArgumentError, Option } from '../commander.js';
import { DEFAULT_DURABILITY, MAX_PUBLIC_HOST, POSTBACK_DEFAULTS, SEEDED_START, SERVER_DEFAULTS } from '../../server/config.js';
import { byteSize, collect, days, examples, isoTime, port, positiveSeconds, rate, wholeNumber, type FlagsOf } from '../options.js';

/** `--seed`: a number or a word; the streams are keyed by its text ("42" and "042" are two seeds). */
function seed(value: string): string {
  if (!/^[\w.-]{1,100}$/.test(value)) throw new InvalidArgumentError('must be a number or a word of letters, digits, ".", "_" and "-" (at most 100)');
  return value;
}

/** `--public-host`: a host name or address, an optional port; short enough that the code's location stays within 77 characters. */
function publicHost(value: string): string {
  const host = value.trim().toLowerCase();
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:\d{1,5})?$/.test(host)) throw new InvalidArgumentError('must be a host name or address, with an optional :port, no scheme or path (e.g. pix.example.test:8443)');
  const port = /:(\d+)$/.exec(host.replace(/^\[[^\]]+\]/, ''))?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw new InvalidArgumentError('has a port outside 1 to 65535');
  if (host.length > MAX_PUBLIC_HOST) throw new InvalidArgumentError(`must be at most ${MAX_PUBLIC_HOST} characters: a pix code's location (host, /qr/v2/ and the txid) holds at most 77`);
  return host;
}

const serveCommand = () =>
  new Command('serve')
    // `serve company add --db X`: --db belongs to the subcommand, not to serve
    .enablePositionalOptions()
    .description('run a faithful, stateful local implementation of the API (embedded SQLite database)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(new Option('--port <number>', 'port to listen on (0 picks a free port)').default(4010).argParser(port))
    .option('--db <path>', 'SQLite database file, or :memory: for a throwaway run (default: $PINVOICE_DB or pinvoice.db in the data directory)')
    .option('--tls', 'serve HTTPS with a certificate from the local CA kept beside the database (see pinvoice serve ca): payers’ bank apps fetch pix locations over https only')
    .addOption(new Option('--public-host <host[:port]>', 'the host (and port) the pix codes’ locations name, e.g. a tunnel’s or a team’s host; it is added to the certificate, the pages answer at it (as --allowed-host) and the first start’s sign-in link names it (default: the listening address and port, the real port with --port 0)').argParser(publicHost))
    .option('--allowed-host <name>', 'another name this server’s pages (the dashboard, the checkout page) and sign-in links answer at, repeatable: a proxy’s, a tunnel’s or a Compose service’s (e.g. pinvoice); .example.com allows that domain and the names under it. Always allowed: loopback, the listening address, --public-host; any other Host is refused 403 (the API answers any)', collect)
    .option('--token <value>', "fix the seeded company's access token, for CI (also PINVOICE_SERVE_TOKEN)")
    .addOption(new Option('--seed <value>', 'draw every id, token and code from this seed, the clock standing still (see --clock): the same requests give the same answers on every run; needs a database without charges').argParser(seed))
    .addOption(new Option('--clock <iso>', `the server’s clock stands still at this time, moved only by pinvoice sandbox clock advance|set (default: real time; with --seed, ${SEEDED_START.replace('.000Z', 'Z')})`).argParser(isoTime))
    .option('--write-env <path>', 'once listening, write PINVOICE_BASE_URL, PINVOICE_TOKEN (when this start knows it: a first start, or --token) and PINVOICE_WEBHOOK_SECRET to this file, owner-only, for a CI job to source (not --env-file: Node 20 takes that flag as its own anywhere on the command line, nodejs/node#54232)')
    .option('--fixtures <path>', 'at start, load companies (tokens, webhook secrets, fees) and charges in given states from this JSON file, through the API’s own operations; a second start adds only what is missing (format: schemas/fixtures.schema.json in the package)')
    .addOption(new Option('--db-timeout <seconds>', 'how long to wait at start for a PostgreSQL --db to answer before giving up, naming it (exit 1)').default(10).argParser(positiveSeconds))
    .addOption(new Option('--durability <level>', 'when an answered charge is safe: "process" (survives a crash or kill -9 of the server) or "power" (also a power cut: every commit flushed to the disk before the answer)').choices(['process', 'power'] as const).default(DEFAULT_DURABILITY))
    .addOption(new Option('--pix-expiry <seconds>', 'how long a pix charge can be paid').default(SERVER_DEFAULTS.pixExpirySeconds).argParser(positiveSeconds))
    .addOption(new Option('--boleto-due-days <days>', 'days from today to a new boleto’s due date').default(SERVER_DEFAULTS.boletoDueDays).argParser(days))
    .addOption(new Option('--boleto-grace-days <days>', 'days after its due date a boleto can still be paid, late, before it expires').default(SERVER_DEFAULTS.boletoGraceDays).argParser(days))
    .addOption(new Option('--rate-limit <rate>', 'requests one token may make, as N/s (or N/min): 429 rate_limited with Retry-After beyond (default: no limit)').argParser(rate))
    .addOption(new Option('--journal <n>', 'the inspector: requests and postback attempts kept per company (pinvoice logs tail|list|show), the oldest dropped first and counted; 0 turns it off').default(SERVER_DEFAULTS.journal).argParser(wholeNumber(0, 1_000_000, 'entries')))
    .addOption(new Option('--journal-max-bytes <size>', 'the journal’s room on disk, its write-ahead log included (e.g. 64MB; K, M, G are 1024-based): beyond it, the oldest entries of the company that keeps the most are dropped first and counted').default(SERVER_DEFAULTS.journalMaxBytes, '64MB').argParser(byteSize(1024 ** 2, 1024 ** 4)))
    .addOption(new Option('--postback-attempts <n>', 'attempts per postback event, the first included (4 = one try and 3 retries)').default(POSTBACK_DEFAULTS.attempts).argParser(wholeNumber(1, 100, 'attempts')))
    .addOption(new Option('--postback-base-delay <ms>', 'wait before the first retry; each next one waits about twice as long (with jitter)').default(POSTBACK_DEFAULTS.baseDelayMs).argParser(wholeNumber(1, 3_600_000, 'milliseconds')))
    .addOption(new Option('--postback-timeout <ms>', 'cut off a receiver that has not answered by then').default(POSTBACK_DEFAULTS.timeoutMs).argParser(wholeNumber(1, 600_000, 'milliseconds')))
    .addOption(new Option('--metrics <state>', 'GET /metrics in Prometheus’ text format (requests, store, caches, journal, postbacks): "on" answers it to clients on this machine only, unless it has a token of its own (--metrics-token-file); "off" answers 404 and counts nothing').choices(['on', 'off'] as const).default('on'))
    .option('--metrics-token-file <path>', 'a file holding the token /metrics asks for as Authorization: Bearer (at least 16 printable characters; also PINVOICE_METRICS_TOKEN): any address may then scrape it with that token, and none without; never a company’s API token')
    .addOption(new Option('--memory <mode>', 'how the server\u2019s JavaScript heap grows: "fast", as Node sets it (up to 2 \u00d7 16 MB for short-lived objects, and 4\u00d7 what survives); "lean", up to 8 MB and 1.6\u00d7 (about 40 MB less at 100,000 charges, for some 15% of the rate of cached lookups)').choices(['fast', 'lean'] as const).default('fast'))
    .addOption(new Option('--log-format <format>', 'what serve writes on stderr: "text", lines for a person; "json", one JSON object a line: each request answered (id, operation, route, status, duration, company; never a token, card or body) and every message').choices(['text', 'json'] as const).default('text'))
    .addHelpText('after', examples(
      'pinvoice serve',
      'pinvoice serve --port 0 --db :memory: --token "$CI_TOKEN"',
      'pinvoice serve --port 0 --db :memory: --seed 42 --write-env ci.env &   # then: set -a; . ./ci.env; set +a',
      'pinvoice serve --port 0 --db :memory: --fixtures fixtures.json   # companies and charges in every state',
      'pinvoice serve --postback-attempts 3 --postback-base-delay 100 --postback-timeout 2000   # fast retries for tests',
      'pinvoice serve --db ./dev.db --host 0.0.0.0 --port 8080',
      'pinvoice serve --db ./dev.db --port 8081   # a second server on the same file',
      'pinvoice serve --durability power          # answered charges survive a power cut',
      'pinvoice serve --rate-limit 50/s           # answer 429 like a busy gateway',
      'pinvoice serve --journal 100000            # keep more requests for pinvoice logs (0: none)',
      'pinvoice serve --memory lean               # a smaller process, for a host of many sandboxes',
      'pinvoice serve --tls --public-host localhost:8443 --port 8443   # pix locations as a bank fetches them',
      'pinvoice serve --host 0.0.0.0 --allowed-host pinvoice   # a Compose service: its pages at http://pinvoice:4010',
      'pinvoice serve --host 0.0.0.0 --metrics-token-file /run/secrets/metrics --log-format json   # watched by Prometheus and a log collector',
    ));
export type ServeFlags = FlagsOf<typeof serveCommand>;

const companyAddCommand = () =>
  new Command('add')
    .description('create a company with its own access token (printed once)')
    .option('--db <path>', 'SQLite database file (default: as for serve)')
    .option('--name <name>', 'fantasy name', 'Pinvoice Sandbox')
    .option('--corporate-reason <name>', 'corporate name (default: the fantasy name + " Ltda")')
    .option('--cnpj <cnpj>', 'CNPJ, numeric or alphanumeric (default: a generated valid one)')
    .addOption(new Option('--sign-with <key>', "the key of its postbacks' X-Webhook-Signature: its webhook secret, or its API token (kept by the server to sign with, never shown), as handlers written for production verify it with their API key").choices(['secret', 'token'] as const).default('secret' as const))
    .option('--json', 'print {id, fantasy_name, cnpj, token, sign_with} as JSON')
    .addHelpText('after', examples(
      'pinvoice serve company add --name "Loja Dois"',
      'pinvoice serve company add --db ./dev.db --json | jq -r .token',
      'pinvoice serve company add --name "Legacy Shop" --sign-with token   # its handler verifies X-Webhook-Signature with its API key',
    ));
export type CompanyAddFlags = FlagsOf<typeof companyAddCommand>;

const companyListCommand = () =>
  new Command('list')
    .description('list the companies and how many tokens each has (tokens are never shown)')
    .option('--db <path>', 'SQLite database file (default: as for serve)')
    .option('--json', 'print as JSON')
    .addHelpText('after', examples('pinvoice serve company list --db ./dev.db'));
export type CompanyListFlags = FlagsOf<typeof companyListCommand>;

const companyId = wholeNumber(1, Number.MAX_SAFE_INTEGER, 'company id');

const tokenAddCommand = () =>
  new Command('add')
    .description('give a person a named token of a company (printed once); --read-only for support staff')
    .addOption(new Option('--company <id>', 'the company (see serve company list)').argParser(companyId).makeOptionMandatory())
    .requiredOption('--name <name>', 'who the token is for, unique within the company (shown in timelines as who made a change)')
    .option('--read-only', 'may look up charges and list their events; not create, refund, drive the sandbox or read the webhook secret (403)')
    .option('--db <path>', 'SQLite database file (default: as for serve)')
    .option('--json', 'print {id, company, name, access, hint, created_at, revoked_at, token} as JSON')
    .addHelpText('after', examples(
      'pinvoice serve token add --company 1 --name alice',
      'pinvoice serve token add --company 1 --name support --read-only --json | jq -r .token',
    ));
export type TokenAddFlags = FlagsOf<typeof tokenAddCommand>;

const tokenListCommand = () =>
  new Command('list')
    .description('list the tokens (names, access, hints; never the tokens themselves)')
    .addOption(new Option('--company <id>', 'only this company').argParser(companyId))
    .option('--db <path>', 'SQLite database file (default: as for serve)')
    .option('--json', 'print as JSON')
    .addHelpText('after', examples('pinvoice serve token list', 'pinvoice serve token list --company 1 --json'));
export type TokenListFlags = FlagsOf<typeof tokenListCommand>;

const tokenRevokeCommand = () =>
  new Command('revoke')
    .description('revoke a token (by name or id): it is refused at once on every server of the database')
    .argument('<token>', 'the name or id of the token')
    .addOption(new Option('--company <id>', 'the company the token belongs to').argParser(companyId).makeOptionMandatory())
    .option('--db <path>', 'SQLite database file (default: as for serve)')
    .option('--json', 'print the revoked token as JSON')
    .addHelpText('after', examples('pinvoice serve token revoke alice --company 1'));
export type TokenRevokeFlags = FlagsOf<typeof tokenRevokeCommand>;

const caCommand = () =>
  new Command('ca')
    .description('print the path of the local CA certificate that signs serve --tls and the pix locations (made if absent), for NODE_EXTRA_CA_CERTS or --ca')
    .option('--db <path>', 'SQLite database file (default: as for serve); its CA is kept beside it')
    .addHelpText('after', examples('NODE_EXTRA_CA_CERTS="$(pinvoice serve ca)" node client.js', 'pinvoice serve ca --db ./dev.db'));
export type CaFlags = FlagsOf<typeof caCommand>;

export function serveGroup() {
  const serve = serveCommand().action(async (flags) => (await import('./serve.js')).serve(flags));
  // Made with .command(), not addCommand: it inherits enablePositionalOptions, so flags after `company` are its own
  serve
    .command('company')
    .description("manage the local server's companies (works on the database file directly)")
    .addCommand(companyAddCommand().action(async (flags) => (await import('./company.js')).companyAdd(flags)))
    .addCommand(companyListCommand().action(async (flags) => (await import('./company.js')).companyList(flags)));
  serve.addCommand(caCommand().action(async (flags) => (await import('./ca.js')).printCa(flags)));
  serve
    .command('token')
    .description("manage the local server's access tokens: one per person, some read-only (works on the database file directly)")
    .addCommand(tokenAddCommand().action(async (flags) => (await import('./token.js')).tokenAdd(flags)))
    .addCommand(tokenListCommand().action(async (flags) => (await import('./token.js')).tokenList(flags)))
    .addCommand(tokenRevokeCommand().action(async (ref, flags) => (await import('./token.js')).tokenRevoke(ref, flags)));
  return serve;
}
