// One handler per operation of the table; each returns the answer, the app sends it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { OperationId } from '../api/operations.js';
import { buildOpenApi } from '../api/openapi.js';
import { ChaosRequest, ClockAdvanceRequest, ClockSetRequest, WebhookSigningRequest } from '../api/sandbox.js';
import { RefundRequest, ThreeDSRequest } from '../api/schemas.js';
import { parseInvoiceQuery } from '../api/invoice-query.js';
import { parseWith, validateCreateRequest } from '../api/validate.js';
import { SCENARIOS } from '../domain/scenarios.js';
import { SANDBOX_ACTION_NAMES, type SandboxAction } from '../domain/status.js';
import { apiHeaders } from './api-headers.js';
import { validationFailed } from './errors.js';
import type { Answer } from './idempotency.js';
import type { ServerContext } from './invoices/context.js';
import { createdAnswer, createInvoice } from './invoices/create.js';
import { complete3ds, lookupInvoiceJson, publicView, refundInvoice, sandboxAction } from './invoices/lifecycle.js';
import { listInvoices, searchInvoice } from './invoices/list.js';
import { toEnterprise } from './invoices/record.js';
import { getEvent, listEvents, resendEvent, webhookSecret } from './postbacks/history.js';
import { clearChaos, getChaos, putChaos } from './sandbox/chaos.js';
import { advanceClock, resetClock, setClock, showClock } from './sandbox/clock.js';
import { putSigning, showSigning } from './sandbox/webhook-signing.js';
import { bearerToken } from './auth.js';
import { makeLinkCode } from './dashboard/session.js';
import { hostRefused } from './own-host.js';
import { clearJournal, findJournal, getJournalEntry, listJournal, type Streams } from './journal/handlers.js';
import { monthOf, type Company } from './store/port.js';

export interface HandlerInput {
  ctx: ServerContext;
  request: FastifyRequest;
  reply: FastifyReply;
  /** the journal's open streams */
  streams: Streams;
  company: Company | undefined;
  version: string;
}

type Handler = (input: HandlerInput) => Promise<Answer>;

function requireCompany(company: Company | undefined): Company {
  if (!company) throw new Error('an authenticated operation ran without a company');
  return company;
}

async function lookup({ ctx, company }: HandlerInput, ref: string): Promise<Answer> {
  return { status: 200, body: await lookupInvoiceJson(ctx, requireCompany(company), ref), json: true };
}

const idParam = (request: FastifyRequest) => (request.params as { id: string }).id;
const eventParam = (request: FastifyRequest) => (request.params as { event_id: string }).event_id;

/** A missing body is an empty object: `POST …/refund` alone refunds the whole remainder. */
function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = parseWith(schema, value ?? {});
  if (!parsed.ok) throw validationFailed(parsed.details);
  return parsed.value;
}

/** One handler per sandbox action, keyed by its operation id (`sandbox_pay`, …). */
const sandboxHandlers = Object.fromEntries(
  SANDBOX_ACTION_NAMES.map((action): [string, Handler] => [
    `sandbox_${action}`,
    async (input) => ({ status: 200, body: await sandboxAction(input.ctx, requireCompany(input.company), idParam(input.request), action) }),
  ]),
) as Record<`sandbox_${SandboxAction}`, Handler>;

let openApiCache: { version: string; doc: unknown } | undefined;

export const HANDLERS: Record<OperationId, Handler> = {
  async createInvoice({ ctx, request, company }) {
    const checked = validateCreateRequest(request.body, ctx.clock());
    if (!checked.ok) throw validationFailed(checked.details);
    const record = await ctx.transaction((tx) => createInvoice(ctx, tx, requireCompany(company), checked.value));
    return { status: 200, body: createdAnswer(record) };
  },
  async searchTransaction(input) {
    const parsed = parseInvoiceQuery(input.request.query as Record<string, unknown>);
    if (!parsed.ok) throw validationFailed(parsed.details);
    const query = parsed.value;
    if (query.kind === 'id') return lookup(input, query.id);
    // without id: a pinvoice serve extension, a page of the company's charges or the one a key is of
    const company = requireCompany(input.company);
    const body = query.kind === 'list' ? await listInvoices(input.ctx, company, query) : await searchInvoice(input.ctx, company, query.search);
    return { status: 200, body };
  },
  async getTransaction(input) {
    return lookup(input, idParam(input.request));
  },
  async createRefund(input) {
    const request = parseBody(RefundRequest, input.request.body);
    return { status: 200, body: await refundInvoice(input.ctx, requireCompany(input.company), idParam(input.request), request) };
  },
  async activate3ds(input) {
    const values = parseBody(ThreeDSRequest, input.request.body);
    return { status: 200, body: await complete3ds(input.ctx, requireCompany(input.company), idParam(input.request), values) };
  },
  async publicInvoice({ ctx, request }) {
    return { status: 200, body: await publicView(ctx, (request.params as { token_checkout: string }).token_checkout) };
  },
  ...sandboxHandlers,
  async sandboxClock({ ctx, company }) {
    // the stored offset, not the one the token remembered: another process may have moved the clock
    const owner = requireCompany(company);
    return { status: 200, body: showClock(ctx, (await ctx.reads.companies.get(owner.id)) ?? owner) };
  },
  async sandboxClockAdvance({ ctx, request, company }) {
    const { seconds } = parseBody(ClockAdvanceRequest, request.body);
    return { status: 200, body: await advanceClock(ctx, requireCompany(company), seconds) };
  },
  async sandboxClockSet({ ctx, request, company }) {
    const { now } = parseBody(ClockSetRequest, request.body);
    return { status: 200, body: await setClock(ctx, requireCompany(company), now) };
  },
  async sandboxClockReset({ ctx, company }) {
    return { status: 200, body: await resetClock(ctx, requireCompany(company)) };
  },
  async sandboxChaos({ ctx, company }) {
    return { status: 200, body: await getChaos(ctx, requireCompany(company)) };
  },
  async sandboxChaosSet({ ctx, request, company }) {
    return { status: 200, body: await putChaos(ctx, requireCompany(company), parseBody(ChaosRequest, request.body)) };
  },
  async sandboxChaosClear({ ctx, company }) {
    return { status: 200, body: await clearChaos(ctx, requireCompany(company)) };
  },
  async sandboxWebhookSigning({ ctx, company }) {
    return { status: 200, body: await showSigning(ctx, requireCompany(company)) };
  },
  async sandboxWebhookSigningSet({ ctx, request, company }) {
    const { key } = parseBody(WebhookSigningRequest, request.body);
    const token = bearerToken(request.headers.authorization);
    if (!request.access || token === undefined) throw new Error('an authenticated operation ran without its token');
    return { status: 200, body: await putSigning(ctx, requireCompany(company), key, request.access.token, token) };
  },
  async sandboxDashboardLink({ ctx, request }) {
    if (!request.access) throw new Error('an authenticated operation ran without its token');
    // a link names only a Host of this server's (a forged one would send the browser elsewhere)
    const { host } = request.headers;
    if (!request.server.ownHosts.allows(host)) throw hostRefused(host);
    const { code, expiresAt } = await makeLinkCode(ctx.store, request.access, Date.now());
    return { status: 200, body: { url: `${request.server.ownHosts.origin(host)}/dashboard/sign-in?code=${code}`, expires_at: new Date(expiresAt).toISOString() } };
  },
  async sandboxScenarios() {
    return { status: 200, body: { data: SCENARIOS } };
  },
  async webhookSecret({ company }) {
    return { status: 200, body: webhookSecret(requireCompany(company)) };
  },
  async listEvents(input) {
    return { status: 200, body: await listEvents(input.ctx, requireCompany(input.company), idParam(input.request)) };
  },
  async getEvent(input) {
    return { status: 200, body: await getEvent(input.ctx, requireCompany(input.company), eventParam(input.request)) };
  },
  async resendEvent(input) {
    return { status: 200, body: await resendEvent(input.ctx, requireCompany(input.company), eventParam(input.request)) };
  },
  async sandboxRequests({ ctx, company, request }) {
    return { status: 200, body: await listJournal(ctx, requireCompany(company), request) };
  },
  async sandboxRequestsStream({ ctx, company, request, reply, streams, version }) {
    await streams.stream(ctx, requireCompany(company), request, reply, apiHeaders(version));
    return { status: 200, body: undefined, hijacked: true };
  },
  async sandboxRequest({ ctx, company, request }) {
    return { status: 200, body: await getJournalEntry(ctx, requireCompany(company), idParam(request)) };
  },
  async sandboxRequestsFind({ ctx, company, request }) {
    return { status: 200, body: await findJournal(ctx, requireCompany(company), request, request.body) };
  },
  async sandboxRequestsClear({ ctx, company }) {
    return { status: 200, body: await clearJournal(ctx, requireCompany(company)) };
  },
  async companyInfos({ ctx, company }) {
    const owner = requireCompany(company);
    return { status: 200, body: toEnterprise(owner, await ctx.reads.companies.totals(owner.id, monthOf(ctx.clock()))) };
  },
  async openapi({ version }) {
    if (openApiCache?.version !== version) openApiCache = { version, doc: buildOpenApi(version) };
    return { status: 200, body: openApiCache.doc };
  },
  async health({ ctx, version }) {
    // 200 either way: the process answers, and a load balancer keeps sending requests, which get the fault's own answer
    const health = ctx.store.health();
    return { status: 200, body: health.status === 'ok' ? { status: 'ok', version } : { status: 'degraded', version, code: health.code, reason: health.reason, since: health.since } };
  },
};
