// The answers of `pinvoice serve`'s own operations (postback events, the sandbox clock and chaos,
// scenarios, the webhook secret), read as tolerantly as a charge: a server of another version may
// add, rename or leave out fields, and the CLI shows what it can rather than refusing the answer.
import { at, bool, first, int, isRecord, list, text, unwrapData } from './values.js';

export interface AttemptView {
  at?: string | undefined;
  url?: string | undefined;
  durationMs?: number | undefined;
  statusCode?: number | undefined;
  error?: string | undefined;
  delivered: boolean;
  injected: string[];
}

export interface EventView {
  raw: unknown;
  id?: string | undefined;
  event?: string | undefined;
  createdAt?: string | undefined;
  invoiceId?: string | undefined;
  status?: string | undefined;
  url?: string | undefined;
  state?: string | undefined;
  nextAttemptAt?: string | undefined;
  deliveredAt?: string | undefined;
  attempts: AttemptView[];
}

function readAttempt(value: unknown): AttemptView {
  return {
    at: text(at(value, 'at')),
    url: text(at(value, 'url')),
    durationMs: int(at(value, 'duration_ms')),
    statusCode: int(at(value, 'status_code')),
    error: text(at(value, 'error')),
    delivered: bool(at(value, 'delivered')) === true,
    injected: list(at(value, 'injected')).filter((item): item is string => typeof item === 'string'),
  };
}

export function readEvent(value: unknown): EventView {
  return {
    raw: value,
    id: text(first(value, ['id', 'event_id'])),
    event: text(first(value, ['event', 'type'])),
    createdAt: text(at(value, 'created_at')),
    invoiceId: text(at(value, 'invoice_id')),
    status: text(at(value, 'status')),
    url: text(at(value, 'url')),
    state: text(at(value, 'state')),
    nextAttemptAt: text(at(value, 'next_attempt_at')),
    deliveredAt: text(at(value, 'delivered_at')),
    attempts: list(at(value, 'attempts')).map(readAttempt),
  };
}

/** `{data: [events]}` or a bare list. */
export const readEvents = (answer: unknown): EventView[] =>
  list(isRecord(answer) ? answer.data : answer).map(readEvent);

export interface ClockView { raw: unknown; now?: string | undefined; offsetSeconds?: number | undefined }
export const readClock = (answer: unknown): ClockView => {
  const value = unwrapData(answer);
  return { raw: answer, now: text(at(value, 'now')), offsetSeconds: int(at(value, 'offset_seconds')) };
};

export interface ChaosView {
  raw: unknown;
  active?: boolean | undefined;
  invoiceId?: string | undefined;
  duplicate?: boolean | undefined;
  delayMs?: number | undefined;
  reorder?: boolean | undefined;
  dropFirst?: number | undefined;
  badSignature?: boolean | undefined;
}
export const readChaos = (answer: unknown): ChaosView => {
  const value = unwrapData(answer);
  return {
    raw: answer,
    active: bool(at(value, 'active')),
    invoiceId: text(at(value, 'invoice_id')),
    duplicate: bool(at(value, 'duplicate')),
    delayMs: int(at(value, 'delay_ms')),
    reorder: bool(at(value, 'reorder')),
    dropFirst: int(at(value, 'drop_first')),
    badSignature: bool(at(value, 'bad_signature')),
  };
};

export interface SigningView { raw: unknown; key?: string | undefined; tokenName?: string | undefined; tokenHint?: string | undefined }
export const readSigning = (answer: unknown): SigningView => {
  const value = unwrapData(answer);
  return { raw: answer, key: text(at(value, 'key')), tokenName: text(at(value, 'token_name')), tokenHint: text(at(value, 'token_hint')) };
};

export interface ScenarioView { kind?: string | undefined; value?: string | undefined; outcome?: string | undefined }
export const readScenarios = (answer: unknown): ScenarioView[] =>
  list(isRecord(answer) ? answer.data : answer).map((entry) => ({ kind: text(at(entry, 'kind')), value: text(at(entry, 'value')), outcome: text(at(entry, 'outcome')) }));

/** The webhook secret, or undefined when the answer holds none. */
export const readWebhookSecret = (answer: unknown): string | undefined => text(first(unwrapData(answer), ['webhook_secret', 'secret']));
