// Postbacks as data: the event body POSTed to a charge's postback_url, and the delivery history
// the merchant reads back. Shared by the server, the client and the OpenAPI document.
import { z } from 'zod';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../domain/signature.js';
import { Method, Status, Transaction } from './schemas.js';

// Production's names where production has one (invoice.failed for a refused card), ours otherwise.
export const EVENT_TYPES = [
  'invoice.created',
  'invoice.paid',
  'invoice.failed',
  'invoice.expired',
  'invoice.canceled',
  'invoice.partially_refunded',
  'invoice.refunded',
  'invoice.chargedback',
] as const;
export const EventType = z.enum(EVENT_TYPES);

/** The event a charge's entering a status tells (pending and waiting_3ds are only entered at creation). */
export const EVENT_OF_STATUS: Partial<Record<Status, EventType>> = {
  paid: 'invoice.paid',
  refused: 'invoice.failed',
  expired: 'invoice.expired',
  canceled: 'invoice.canceled',
  refunded: 'invoice.refunded',
  chargedback: 'invoice.chargedback',
};

export const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'no_url'] as const;

const timestamp = () => z.iso.datetime({ precision: 3 });

/**
 * What a postback_url receives: the production gateway's payload (`id`, `status`, `total`, `method`,
 * `event`), extended. `id` is the charge's id, as merchants' handlers look their sale up by it; no
 * member is named `data`, which handlers unwrap first when it exists.
 */
export const PostbackBody = z.object({
  id: z.string().describe('the secureId (INV-…) of the charge, as in production'),
  invoice_id: z.string().describe('the secureId (INV-…) of the charge, again'),
  event: EventType,
  status: Status,
  total: z.int().describe('integer amount in cents'),
  method: Method,
  event_id: z.string().describe('evt_…, the same on every delivery of this event: deduplicate on it'),
  created_at: timestamp().describe('when the change happened'),
  paid_at: timestamp().nullable(),
  transaction: Transaction.describe('the transaction record as this change left it'),
});

export const DeliveryAttempt = z.object({
  at: timestamp(),
  url: z.string(),
  duration_ms: z.int(),
  status_code: z.int().nullable().describe('null when no answer came (connection error, timeout)'),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe("the first 500 characters of the receiver's answer"),
  delivered: z.boolean(),
  injected: z.array(z.string()).describe('what sandbox chaos injected into this attempt (`duplicate`, `delay_ms=2000`, `reorder`, `drop_first=2`, `bad_signature`); empty: nothing'),
});

export const WebhookEvent = z.object({
  id: z.string(),
  event: EventType,
  created_at: timestamp(),
  invoice_id: z.string(),
  status: Status,
  url: z.string().describe('where it is delivered: the charge’s postback_url when the event was recorded'),
  state: z.enum(DELIVERY_STATES).describe('pending: to be sent; delivered: a 2xx came back; failed: retries used up; no_url: the charge has no postback_url'),
  next_attempt_at: timestamp().nullable(),
  delivered_at: timestamp().nullable(),
  attempts: z.array(DeliveryAttempt),
  payload: PostbackBody,
});

export const EventList = z.object({ data: z.array(WebhookEvent) });

export const WebhookSecret = z.object({
  webhook_secret: z.string().describe('signs every postback of this company; keep it on your server only'),
  signature_header: z.literal(SIGNATURE_HEADER).describe('t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">: replay-safe'),
  body_signature_header: z.literal(BODY_SIGNATURE_HEADER).describe("<hex HMAC-SHA256 of the body>: production's form"),
});

export type EventType = z.infer<typeof EventType>;
export type PostbackBody = z.infer<typeof PostbackBody>;
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;
export type WebhookEvent = z.infer<typeof WebhookEvent>;
