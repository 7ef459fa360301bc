// `pinvoice events list|resend`: the postback events of a charge and their deliveries.
import { Command } from '../commander.js';
import { apiCommand, examples, type FlagsOf } from '../options.js';

const listCommand = () =>
  apiCommand(new Command('list'))
    .description('every postback event of a charge, oldest first, with each delivery attempt')
    .argument('<id>', 'integer id or secureId (INV-…) of the charge')
    .addHelpText('after', examples('pinvoice events list 42', 'pinvoice events list 42 --json | jq -r ".[].state"'));
export type EventsListFlags = FlagsOf<typeof listCommand>;

const resendCommand = () =>
  apiCommand(new Command('resend'))
    .description('send an event again now, to the URL it was recorded with, with a fresh retry budget')
    .argument('<event-id>', 'the evt_… id of the event')
    .option('--idempotency-key <key>', 'retry-safe key (default: a new UUID per run)')
    .addHelpText('after', examples('pinvoice events resend evt_4f1c2a9b8e7d6c5b4a392817'));
export type ResendFlags = FlagsOf<typeof resendCommand>;

export function eventsGroup() {
  return new Command('events')
    .description('the postback events of a charge and their deliveries')
    .addCommand(listCommand().action(async (id, flags) => (await import('./list.js')).listEvents(id, flags)))
    .addCommand(resendCommand().action(async (id, flags) => (await import('./resend.js')).resendEvent(id, flags)));
}
