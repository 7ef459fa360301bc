// `pinvoice webhooks listen|verify|secret` and `pinvoice events list|resend`.
import { Command, Option } from 'commander';
import { examples, port, positiveSeconds, wholeNumber, withConnection } from './options.js';

const SECRET_HELP = 'file holding the webhook secret; - reads stdin (default: $PINVOICE_WEBHOOK_SECRET, else asked of the profile’s server)';

export function webhooksCommand(): Command {
  const webhooks = new Command('webhooks').description('receive, check and inspect postbacks (webhooks)');
  webhooks.addCommand(
    withConnection(new Command('listen'))
      .description('a local postback receiver: checks each signature, prints each event, optionally forwards it to your app')
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .addOption(new Option('--port <number>', 'port to listen on (0 picks a free port)').default(4020).argParser(port))
      .option('--forward-to <url>', 'POST each signed event, untouched, to your own handler; the sender gets its answer')
      .option('--secret-file <path>', SECRET_HELP)
      .addOption(new Option('--count <n>', 'exit 0 after this many correctly signed events').argParser(wholeNumber(1, 1_000_000, 'events')))
      .addOption(new Option('--timeout <seconds>', 'stop listening after this long (exit 8 if --count was not reached)').argParser(positiveSeconds))
      .addOption(new Option('--tolerance <seconds>', 'reject a Pinvoice-Signature older (or newer) than this').default(300).argParser(wholeNumber(1, 31_536_000, 'seconds')))
      .addHelpText('after', examples(
        'pinvoice webhooks listen                                   # prints the postback_url to use',
        'pinvoice webhooks listen --forward-to http://localhost:3000/postbacks',
        'pinvoice webhooks listen --port 0 --json --count 2 --timeout 60 > events.jsonl',
      ))
      .action(async (flags) => (await import('../cli/webhooks-listen.js')).listen(flags)),
  );
  webhooks.addCommand(
    withConnection(new Command('verify'))
      .description('check a saved postback body against its signature header; exit 0 valid, 9 not')
      .requiredOption('--body <path>', 'the raw body exactly as received; - reads stdin')
      .requiredOption('--signature <header>', 'either header’s value: Pinvoice-Signature (t=…,v1=…) or X-Webhook-Signature (64 hex digits)')
      .option('--secret-file <path>', SECRET_HELP)
      .addOption(new Option('--tolerance <seconds>', 'also reject a Pinvoice-Signature older than this (default: any age, for saved bodies)').argParser(wholeNumber(1, 31_536_000, 'seconds')))
      .addHelpText('after', examples(
        'pinvoice webhooks verify --body body.json --signature "t=1795000000,v1=5f0c…"',
        'pinvoice webhooks verify --body body.json --signature 9b1e…   # X-Webhook-Signature',
        'PINVOICE_WEBHOOK_SECRET=whsec_… pinvoice webhooks verify --body - --signature "$SIG" < body.json',
      ))
      .action(async (flags) => (await import('../cli/events.js')).verify(flags)),
  );
  webhooks.addCommand(
    withConnection(new Command('secret'))
      .description("print the company's webhook secret, to configure your postback handler")
      .addHelpText('after', examples('pinvoice webhooks secret', 'export PINVOICE_WEBHOOK_SECRET="$(pinvoice webhooks secret)"'))
      .action(async (flags) => (await import('../cli/events.js')).printSecret(flags)),
  );
  return webhooks;
}

export function eventsCommand(): Command {
  const events = new Command('events').description('the postback events of a charge and their deliveries');
  events.addCommand(
    withConnection(new Command('list'))
      .description('every postback event of a charge, oldest first, with each delivery attempt')
      .argument('<id>', 'integer id or secureId (INV-…) of the charge')
      .addHelpText('after', examples('pinvoice events list 42', 'pinvoice events list 42 --json | jq -r ".[].state"'))
      .action(async (id, flags) => (await import('../cli/events.js')).listEvents(id, flags)),
  );
  events.addCommand(
    withConnection(new Command('resend'))
      .description('send an event again now, to the URL it was recorded with, with a fresh retry budget')
      .argument('<event-id>', 'the evt_… id of the event')
      .option('--idempotency-key <key>', 'retry-safe key (default: a new UUID per run)')
      .addHelpText('after', examples('pinvoice events resend evt_4f1c2a9b8e7d6c5b4a392817'))
      .action(async (id, flags) => (await import('../cli/events.js')).resendEvent(id, flags)),
  );
  return events;
}
