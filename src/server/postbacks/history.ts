// What the merchant reads and does about postbacks: the secret, the events of a charge with every
// attempt, and a resend.
import type { WebhookEvent } from '../../api/postbacks.js';
import { BODY_SIGNATURE_HEADER, SIGNATURE_HEADER } from '../../domain/signature.js';
import { ApiError } from '../errors.js';
import type { ServerContext } from '../invoices/context.js';
import { readInvoice } from '../invoices/lifecycle.js';
import { companyTime } from '../sandbox/company-time.js';
import { monthOf, type Company, type InvoiceAggregate, type PostbackEvent, type Reads } from '../store/port.js';
import { eventPayload } from './outbox.js';

async function toWebhookEvent(reads: Reads, company: Company, aggregate: InvoiceAggregate, row: PostbackEvent): Promise<WebhookEvent> {
  const payload = eventPayload(company, aggregate, row);
  const attempts = await reads.events.attempts(row.id);
  return {
    id: row.public_id,
    event: row.type,
    created_at: row.created_at,
    invoice_id: payload.invoice_id,
    status: payload.status,
    url: row.url,
    state: row.state,
    // the queue runs on real time; the company reads its own
    next_attempt_at: companyTime(company, row.next_attempt_at),
    delivered_at: row.delivered_at,
    attempts: attempts.map((a) => ({
      at: a.started_at,
      url: a.url,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      response_excerpt: a.response_excerpt,
      delivered: a.status_code !== null && a.status_code >= 200 && a.status_code <= 299,
      injected: a.injected ?? [],
    })),
    payload,
  };
}

export const webhookSecret = (company: Company) => ({
  webhook_secret: company.webhook_secret,
  signature_header: SIGNATURE_HEADER,
  body_signature_header: BODY_SIGNATURE_HEADER,
});

export async function listEvents(ctx: ServerContext, company: Company, ref: string): Promise<{ data: WebhookEvent[] }> {
  // a charge past its time is expired (and its event recorded) before the list
  const aggregate = await readInvoice(ctx, company, ref);
  const events = await ctx.reads.events.forInvoice(aggregate.invoice.id);
  return { data: await Promise.all(events.map((row) => toWebhookEvent(ctx.reads, company, aggregate, row))) };
}

async function describe(ctx: ServerContext, company: Company, row: PostbackEvent): Promise<WebhookEvent> {
  const aggregate = await ctx.reads.invoices.aggregate(company.id, String(row.invoice_id), monthOf(ctx.clock()));
  if (!aggregate) throw new Error(`event ${row.public_id}: its charge is gone`);
  return toWebhookEvent(ctx.reads, company, aggregate, row);
}

async function findEvent(reads: Reads, company: Company, id: string): Promise<PostbackEvent> {
  const row = await reads.events.find(company.id, id.trim());
  if (!row) throw new ApiError(404, 'not_found', `No event ${id} for this company.`);
  return row;
}

export async function getEvent(ctx: ServerContext, company: Company, id: string): Promise<WebhookEvent> {
  return describe(ctx, company, await findEvent(ctx.reads, company, id));
}

export async function resendEvent(ctx: ServerContext, company: Company, id: string): Promise<WebhookEvent> {
  const row = await ctx.transaction(async (tx) => {
    const found = await findEvent(tx, company, id);
    if (!found.url) throw new ApiError(409, 'invalid_state', `Event ${found.public_id} has nowhere to go: its charge was created without a postback_url.`);
    await tx.events.requeue(found.id, ctx.clock().toISOString());
    return (await tx.events.get(found.id)) ?? found;
  });
  return describe(ctx, company, row);
}
