// `pinvoice sandbox …`, on `pinvoice serve` only: drive a charge through its life (pay, expire, cancel,
// chargeback; the domain's sandbox actions, the same list the API and server use), move the company's
// clock, inject postback faults, choose the key of X-Webhook-Signature, list the magic values. Each action imports its handler when it runs.
import { Argument, Command, InvalidArgumentError, Option } from '../commander.js';
import { SANDBOX_ACTION_NAMES, type SandboxAction } from '../../domain/status.js';
import { apiCommand, examples, wholeNumber, withYes, type FlagsOf } from '../options.js';

const HELP: Record<SandboxAction, string> = {
  pay: 'pay a pending charge (or one waiting for 3-D Secure)',
  expire: 'expire a pending charge now',
  cancel: 'cancel a pending charge (or one waiting for 3-D Secure)',
  chargeback: 'charge back a paid charge',
};

/** Actions that cannot be undone ask first on a terminal (--yes skips). */
export const IRREVERSIBLE: ReadonlySet<SandboxAction> = new Set<SandboxAction>(['cancel', 'chargeback']);

const actionCommand = (action: SandboxAction) =>
  withYes(apiCommand(new Command(action)))
    .description(`${HELP[action]}${IRREVERSIBLE.has(action) ? '; asks first on a terminal' : ''}`)
    .argument('<id>', 'integer id or secureId')
    .option('--full', 'on a terminal, show the whole record as invoice get does, not the short receipt')
    .addHelpText('after', examples(`pinvoice sandbox ${action} 42`));
export type SandboxFlags = FlagsOf<typeof actionCommand>;

/** What `sandbox clock` and `sandbox chaos` do (commander checks the word; the completion scripts offer these). */
export const CLOCK_ACTIONS = ['show', 'advance', 'set', 'reset'] as const;
export const CHAOS_ACTIONS = ['show', 'set', 'clear'] as const;
export const SIGNING_ACTIONS = ['show', 'token', 'secret'] as const;

const clockCommand = () =>
  apiCommand(new Command('clock'))
    .description("show or move the company's sandbox clock, which pix expiry, boleto due dates, postback retries and every timestamp follow")
    .addArgument(new Argument('[action]', 'show (default), advance <duration>, set <ISO time>, reset').choices(CLOCK_ACTIONS))
    .argument('[value]', 'advance: a duration such as 90s, 2h, 3d, 1h30m; set: an ISO 8601 time such as 2026-12-24T12:00:00Z')
    .addHelpText('after', examples(
      'pinvoice sandbox clock',
      'pinvoice sandbox clock advance 2h        # pending pix charges past their hour expire now',
      'pinvoice sandbox clock advance 6d        # boletos past their due date and grace days expire',
      'pinvoice sandbox clock set 2026-12-24T12:00:00-03:00',
      'pinvoice sandbox clock reset             # back to real time',
    ));
export type ClockFlags = FlagsOf<typeof clockCommand>;

const chaosCommand = () =>
  apiCommand(new Command('chaos'))
    .description('show, set or clear the faults injected into postback deliveries (sandbox): duplicates, delays, reordering, dropped attempts, bad signatures')
    .addArgument(new Argument('[action]', 'show (default), set, clear').choices(CHAOS_ACTIONS))
    .option('--duplicate', 'send each postback twice')
    .addOption(new Option('--delay <duration>', 'hold each delivery this long first (at most 60s), e.g. 2s or 500ms').argParser(delayMs))
    .option('--reorder', "send a charge's pending events newest first")
    .addOption(new Option('--drop-first <n>', 'fail the first n attempts of each event without sending them').argParser(wholeNumber(1, 10, 'attempts')))
    .option('--bad-signature', 'sign with a wrong secret')
    .option('--invoice <id>', 'only the postbacks of this charge (integer id or secureId)')
    .addHelpText('after', examples(
      'pinvoice sandbox chaos set --duplicate --reorder     # prove the handler is idempotent and order-proof',
      'pinvoice sandbox chaos set --bad-signature --invoice 42',
      'pinvoice sandbox chaos set --drop-first 2 --delay 3s',
      'pinvoice sandbox chaos',
      'pinvoice sandbox chaos clear',
    ));
export type ChaosFlags = FlagsOf<typeof chaosCommand>;

function delayMs(value: string): number {
  const match = /^(\d{1,5})(ms|s)$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : Number.NaN;
  if (!(ms >= 1 && ms <= 60_000)) throw new InvalidArgumentError('must be a duration from 1ms to 60s, such as 500ms or 2s');
  return ms;
}

const signingCommand = () =>
  apiCommand(new Command('webhook-signing'))
    .description("show or choose the key of postbacks' X-Webhook-Signature: the webhook secret (default) or the API token this command sends")
    .addArgument(new Argument('[action]', 'show (default); token: key it with the token this command sends (kept by the server, never shown); secret: back to the webhook secret').choices(SIGNING_ACTIONS))
    .addHelpText('after', examples(
      'pinvoice sandbox webhook-signing token     # for handlers that verify X-Webhook-Signature with their API key',
      'pinvoice sandbox webhook-signing',
      'pinvoice sandbox webhook-signing secret    # back to the webhook secret; the server forgets its copy of the token',
    ));
export type SigningFlags = FlagsOf<typeof signingCommand>;

const scenariosCommand = () =>
  apiCommand(new Command('scenarios'))
    .description('list every magic value that decides an outcome: test cards, card tokens, 3-D Secure values, what pix and boleto charges do')
    .addHelpText('after', examples('pinvoice sandbox scenarios', 'pinvoice sandbox scenarios --json | jq -r \'.[] | select(.kind == "card") | .value\''));
export type ScenariosFlags = FlagsOf<typeof scenariosCommand>;

export function sandboxGroup() {
  const sandbox = new Command('sandbox').description('drive charges, time and postback faults on `pinvoice serve` (sandbox only)');
  for (const action of SANDBOX_ACTION_NAMES) {
    sandbox.addCommand(actionCommand(action).action(async (id, flags) => (await import('./drive.js')).drive(action, id, flags)));
  }
  return sandbox
    .addCommand(clockCommand().action(async (action, value, flags) => (await import('./clock.js')).clock(action, value, flags)))
    .addCommand(chaosCommand().action(async (action, flags) => (await import('./chaos.js')).chaos(action, flags)))
    .addCommand(signingCommand().action(async (action, flags) => (await import('./webhook-signing.js')).webhookSigning(action, flags)))
    .addCommand(scenariosCommand().action(async (flags) => (await import('./scenarios.js')).scenarios(flags)));
}
