// `pinvoice webhooks listen|verify|secret`: receive, check and inspect postbacks. Each action imports
// its handler when it runs, so --help loads none of them.
import { Command, Option } from '../commander.js';
import { apiCommand, examples, port, positiveSeconds, wholeNumber, withConnection, withTokenFile, type FlagsOf } from '../options.js';

const SECRET_HELP = 'file holding the webhook secret; - reads stdin (default: $PINVOICE_WEBHOOK_SECRET, else asked of the profile’s server)';
/** The company's choice of the key of X-Webhook-Signature (pinvoice sandbox webhook-signing), for checking it. */
const signedWith = () =>
  new Option('--signed-with <key>', 'what keys X-Webhook-Signature: the webhook secret, or the API token (--token-file, PINVOICE_TOKEN or the profile’s) for a company that signs with it; Pinvoice-Signature is always checked with the secret')
    .choices(['secret', 'token'] as const).default('secret' as const);

const listenCommand = () =>
  withTokenFile(withConnection(new Command('listen')))
    .description('a local postback receiver: checks each signature, prints each event, optionally forwards it to your app')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(new Option('--port <number>', 'port to listen on (0 picks a free port)').default(4020).argParser(port))
    .option('--forward-to <url>', 'POST each signed event, untouched, to your own handler; the sender gets its answer')
    .option('--secret-file <path>', SECRET_HELP)
    .addOption(signedWith())
    .addOption(new Option('--count <n>', 'exit 0 after this many correctly signed events').argParser(wholeNumber(1, 1_000_000, 'events')))
    .addOption(new Option('--timeout <seconds>', 'stop listening after this long (exit 8 if --count was not reached)').argParser(positiveSeconds))
    .addOption(new Option('--tolerance <seconds>', 'reject a Pinvoice-Signature older (or newer) than this').default(300).argParser(wholeNumber(1, 31_536_000, 'seconds')))
    .addHelpText('after', examples(
      'pinvoice webhooks listen                                   # prints the postback_url to use',
      'pinvoice webhooks listen --forward-to http://localhost:3000/postbacks',
      'pinvoice webhooks listen --port 0 --json --count 2 --timeout 60 > events.jsonl',
    ));
export type ListenFlags = FlagsOf<typeof listenCommand>;

const verifyCommand = () =>
  apiCommand(new Command('verify'))
    .description('check a saved postback body against its signature header; exit 0 valid, 9 not')
    .requiredOption('--body <path>', 'the raw body exactly as received; - reads stdin')
    .requiredOption('--signature <header>', 'either header’s value: Pinvoice-Signature (t=…,v1=…) or X-Webhook-Signature (64 hex digits)')
    .option('--secret-file <path>', SECRET_HELP)
    .addOption(signedWith())
    .addOption(new Option('--tolerance <seconds>', 'also reject a Pinvoice-Signature older than this (default: any age, for saved bodies)').argParser(wholeNumber(1, 31_536_000, 'seconds')))
    .addHelpText('after', examples(
      'pinvoice webhooks verify --body body.json --signature "t=1795000000,v1=5f0c…"',
      'pinvoice webhooks verify --body body.json --signature 9b1e…   # X-Webhook-Signature',
      'pinvoice webhooks verify --body body.json --signature 9b1e… --signed-with token   # keyed with the API token',
      'PINVOICE_WEBHOOK_SECRET=whsec_… pinvoice webhooks verify --body - --signature "$SIG" < body.json',
    ));
export type VerifyFlags = FlagsOf<typeof verifyCommand>;

const secretCommand = () =>
  apiCommand(new Command('secret'))
    .description("print the company's webhook secret, to configure your postback handler")
    .addOption(new Option('--env', 'print PINVOICE_BASE_URL, PINVOICE_TOKEN and PINVOICE_WEBHOOK_SECRET as an env file to source (the token too: it is a secret, send it to a file, not to a log)').conflicts('json'))
    .addHelpText('after', examples(
      'pinvoice webhooks secret',
      'export PINVOICE_WEBHOOK_SECRET="$(pinvoice webhooks secret)"',
      'pinvoice webhooks secret --env > test.env && set -a && . ./test.env && set +a',
    ));
export type SecretFlags = FlagsOf<typeof secretCommand>;

export function webhooksGroup() {
  return new Command('webhooks')
    .description('receive, check and inspect postbacks (webhooks)')
    .addCommand(listenCommand().action(async (flags) => (await import('./listen.js')).listen(flags)))
    .addCommand(verifyCommand().action(async (flags) => (await import('./verify.js')).verify(flags)))
    .addCommand(secretCommand().action(async (flags) => (await import('./secret.js')).printSecret(flags)));
}
