// What the merchant reads and does about postbacks: the secret, the events of a charge with every
// attempt, and a resend.
import type { PostbackBody, WebhookEvent } from '../../api/postbacks.js';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../../domain/signature.js';
import { ApiError } from '../errors.js';
import { findInvoice } from '../invoices/lifecycle.js';
import type { ServerContext } from '../invoices/context.js';
import type { CompanyRow } from '../store/companies.js';
import type { EventRow } from '../store/events.js';
import type { Store } from '../store/index.js';

export function toWebhookEvent(store: Store, row: EventRow): WebhookEvent {
  const payload = JSON.parse(row.body) as PostbackBody;
  return {
    id: row.public_id,
    event: row.type as WebhookEvent['event'],
    created_at: row.created_at,
    invoice_id: payload.invoice_id,
    status: payload.status,
    url: row.url,
    state: row.state,
    next_attempt_at: row.next_attempt_at,
    delivered_at: row.delivered_at,
    attempts: store.events.attempts(row.id).map((a) => ({
      at: a.started_at,
      url: a.url,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      response_excerpt: a.response_excerpt,
      delivered: a.status_code !== null && a.status_code >= 200 && a.status_code <= 299,
    })),
    payload,
  };
}

export const webhookSecret = (company: CompanyRow) => ({
  webhook_secret: company.webhook_secret,
  signature_header: SIGNATURE_HEADER,
  body_signature_header: BODY_SIGNATURE_HEADER,
});

export function listEvents(ctx: ServerContext, company: CompanyRow, ref: string): { data: WebhookEvent[] } {
  // a charge past its time is expired (and its event recorded) before the list
  const invoice = findInvoice(ctx, company, ref);
  return { data: ctx.store.events.forInvoice(invoice.id).map((row) => toWebhookEvent(ctx.store, row)) };
}

function findEvent(ctx: ServerContext, company: CompanyRow, id: string): EventRow {
  const row = ctx.store.events.find(company.id, id.trim());
  if (!row) throw new ApiError(404, 'not_found', `No event ${id} for this company.`);
  return row;
}

export const getEvent = (ctx: ServerContext, company: CompanyRow, id: string): WebhookEvent => toWebhookEvent(ctx.store, findEvent(ctx, company, id));

export function resendEvent(ctx: ServerContext, company: CompanyRow, id: string): WebhookEvent {
  return ctx.store.transaction(() => {
    const row = findEvent(ctx, company, id);
    if (!row.url) throw new ApiError(409, 'invalid_state', `Event ${row.public_id} has nowhere to go: its charge was created without a postback_url.`);
    ctx.store.events.requeue(row.id, ctx.clock().toISOString());
    return toWebhookEvent(ctx.store, ctx.store.events.get(row.id) ?? row);
  });
}
