// `pinvoice proxy --to ORIGIN`: a reverse proxy in front of the production gateway (or its hosted
// sandbox) that passes traffic through untouched, journals it redacted, and checks every exchange
// against the contract. The handler and the proxy's modules load when it runs.
import { Command, InvalidArgumentError, Option } from '../commander.js';
import { byteSize, examples, port, positiveSeconds, wholeNumber, type FlagsOf } from '../options.js';

/** `--to`: an http(s) origin, nothing after it (the merchant's code gives the paths). */
function origin(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidArgumentError('must be the gateway\'s origin, such as https://api.gateway.example (scheme, host and an optional port)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`must be an http:// or https:// origin, not ${url.protocol}`);
  if (url.username || url.password) throw new InvalidArgumentError('must not hold a user name or password');
  if (url.search || url.hash || !['', '/', '/api/v2', '/api/v2/'].includes(url.pathname)) {
    throw new InvalidArgumentError(`must be an origin only (${url.origin}): the proxy passes on every path the client asks for`);
  }
  return new URL(url.origin);
}

const TO = '--to <origin>';
const TO_HELP = 'the gateway to pass requests to, e.g. https://api.gateway.example';

/** `--ignore`: repeatable, comma-separated; a header name (`header:` optional), `query:NAME`, or a JSON pointer into the body. */
function ignoreList(value: string, previous: string[] = []): string[] {
  const given = value.split(',').map((part) => part.trim()).filter((part) => part !== '');
  for (const part of given) {
    if (!/^(?:\/.*|query:.+|(?:header:)?[!#$%&'*+.^_`|~0-9a-z-]+)$/i.test(part)) {
      throw new InvalidArgumentError(`${JSON.stringify(part)} must be a header name (idempotency-key, header:x-request-id), query:NAME (query:page) or a JSON pointer into the body (/metadata/sent_at)`);
    }
  }
  return [...previous, ...given];
}

const proxyCommand = () =>
  new Command('proxy')
    // `proxy ca --journal X`: --journal belongs to the subcommand, not to proxy
    .enablePositionalOptions()
    .description('a reverse proxy in front of the production gateway: traffic passes untouched, is journaled redacted (pinvoice logs --journal) and checked against the contract (pinvoice drift); writes only with --allow-writes')
    // (required unless --replay, checked by the action: commander would ask it of `proxy ca` too)
    .addOption(new Option(TO, `${TO_HELP} (required unless --replay)`).argParser(origin))
    .option('--host <host>', 'address to listen on (another than loopback is warned about: the proxy passes on whoever reaches it)', '127.0.0.1')
    .addOption(new Option('--port <number>', 'port to listen on (0 picks a free port)').default(4020).argParser(port))
    .option('--journal <file>', 'the journal’s SQLite file (default: proxy/<origin>.journal in the data directory, one per origin)')
    .addOption(new Option('--journal-max <n>', 'exchanges the journal keeps, the oldest dropped first and counted').default(10_000).argParser(wholeNumber(1, 1_000_000, 'entries')))
    .addOption(new Option('--journal-max-bytes <size>', 'the journal’s room on disk, its write-ahead log included (e.g. 64MB; K, M, G are 1024-based): the oldest exchanges dropped first and counted beyond it').default(64 * 1024 ** 2, '64MB').argParser(byteSize(1024 ** 2, 1024 ** 4)))
    .option('--allow-writes', 'let requests other than GET, HEAD and OPTIONS (charges, refunds) reach the gateway; without it they are refused 403 proxy_write_refused and never sent')
    .option('--max-amount <reais>', 'with --allow-writes: refuse (403 proxy_amount_refused) a charge or a refund above this many reais, e.g. 10 or 10,00')
    .addOption(new Option('--timeout <seconds>', 'answer 504 gateway_timeout when the gateway has not answered within this many seconds').default(30).argParser(positiveSeconds))
    .option('--forward', 'also be an HTTP forward proxy, for code that names the gateway\'s host itself: HTTPS_PROXY=http://127.0.0.1:4020 and the proxy\'s CA trusted (pinvoice proxy ca), a CONNECT to the gateway\'s host is handled as above, to any other host tunnelled untouched')
    // recordings (contract, "Recordings"): --record beside --to, --replay in its place
    .option('--record <file>', 'append every exchange, redacted (no Authorization, no card number or security code), as JSON lines to this file, owner-only, for --replay')
    .addOption(new Option('--replay <file>', 'answer from a recording (--record) instead of a gateway, with no network: a request unrecorded is 404 not_recorded, naming the closest').conflicts(['to', 'allowWrites', 'maxAmount', 'record', 'timeout', 'forward']))
    .addOption(new Option('--ignore <what>', 'with --replay: leave out of the match a query:NAME or a JSON pointer into the body (/metadata/sent_at), repeatable or comma-separated (a header name is taken too, but headers never take part); a volatile value (a time, an id) matches any of its kind').argParser(ignoreList))
    .option('--strict', 'with --replay: at stop, name every recorded exchange never asked for, and exit 16 if there is one')
    .option('--write-env <path>', 'once listening, write PINVOICE_BASE_URL (the proxy) and PINVOICE_PROXY_TOKEN (its inspector token) to this file, owner-only, for a CI job to source')
    .addHelpText('after', examples(
      'pinvoice proxy --to https://api.gateway.example                     # reads only; point your code at http://127.0.0.1:4020',
      'pinvoice proxy --to https://api.gateway.example --allow-writes --max-amount 5   # test charges of at most R$ 5,00',
      'pinvoice proxy --to https://api.gateway.example --forward          # then HTTPS_PROXY=http://127.0.0.1:4020 php checkout.php',
      'pinvoice logs tail --journal ~/.local/share/pinvoice/proxy/api.gateway.example.journal',
      'pinvoice drift --journal proxy.journal --format markdown >> "$GITHUB_STEP_SUMMARY"',
      'pinvoice proxy --to https://api.gateway.example --allow-writes --record checkout.jsonl   # keep the session',
      'pinvoice proxy --replay checkout.jsonl --strict --ignore /metadata/sent_at              # answer it again, offline',
    ));
export type ProxyFlags = FlagsOf<typeof proxyCommand>;

const caCommand = () =>
  new Command('ca')
    .description('print the path of the local CA certificate that signs the gateway\'s host for pinvoice proxy --forward (made if absent), for NODE_EXTRA_CA_CERTS, curl --cacert or CURLOPT_CAINFO; it is kept beside the journal, its key never leaves the machine')
    .option('--journal <file>', 'the proxy\'s journal file; its CA is kept beside it (<file>.ca/)')
    .addOption(new Option(TO, `or the gateway whose default journal it is (as for pinvoice proxy --to)`).argParser(origin))
    .addHelpText('after', examples(
      'curl --proxy http://127.0.0.1:4020 --cacert "$(pinvoice proxy ca --to https://api.gateway.example)" https://api.gateway.example/api/v2/company',
      'NODE_EXTRA_CA_CERTS="$(pinvoice proxy ca --journal ./proxy.journal)" HTTPS_PROXY=http://127.0.0.1:4020 node client.js',
    ));
export type ProxyCaFlags = FlagsOf<typeof caCommand>;

export function proxyGroup() {
  const proxy = proxyCommand().action(async (flags) => (await import('./proxy.js')).proxy(flags));
  proxy.addCommand(caCommand().action(async (flags) => (await import('./ca.js')).printProxyCa(flags)));
  return proxy;
}
