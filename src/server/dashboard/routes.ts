// The sandbox dashboard, `/dashboard` of `pinvoice serve`: the journal, the charges and the company's
// sandbox settings, live, and the sandbox actions, each confirmed on a page of its own before it is
// sent. Pages are rendered whole on the server (render.ts) and work without JavaScript; the script
// (assets/dashboard/) re-reads the page's live region when the journal's stream says something came.
// Sign-in by a one-time link or a pasted token, then a session cookie (session.ts). A session acts
// through the same functions the API's handlers call, as its token (the timeline names it); its own
// requests are not the API's, so they stay out of the journal, and nothing here is on the API's paths.
import { readFileSync } from 'node:fs';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ChaosRequest, ClockAdvanceRequest, ClockSetRequest } from '../../api/sandbox.js';
import { parseInvoiceQuery, type InvoiceQuery } from '../../api/invoice-query.js';
import type { Transaction } from '../../api/schemas.js';
import { parseWith } from '../../api/validate.js';
import { AmountError, parseAmount } from '../../domain/money.js';
import { classifyReference } from '../../domain/reference.js';
import { SCENARIOS } from '../../domain/scenarios.js';
import { SANDBOX_ACTION_NAMES, type SandboxAction } from '../../domain/status.js';
import { ApiError, frameworkError, storeFaultError } from '../errors.js';
import { PAGE_HEADERS, sameOrigin } from '../html.js';
import type { ServerContext } from '../invoices/context.js';
import { lookupInvoiceJson, refundInvoice, sandboxAction } from '../invoices/lifecycle.js';
import { listInvoices, searchInvoice } from '../invoices/list.js';
import { getJournalEntry, listJournal, type JournalContext, type Streams } from '../journal/handlers.js';
import type { Limits } from '../limits.js';
import { listEvents, resendEvent } from '../postbacks/history.js';
import { clearChaos, getChaos, putChaos } from '../sandbox/chaos.js';
import { advanceClock, resetClock, setClock, showClock } from '../sandbox/clock.js';
import { companyContext } from '../sandbox/company-time.js';
import { putSigning, showSigning } from '../sandbox/webhook-signing.js';
import { StoreFault } from '../store/faults.js';
import type { Access } from '../store/port.js';
import {
  ACTION_WORDS, chargeActions, chargePage, chargesPage, companyPage, confirmPage, entryPage, messagePage, requestsPage, signInPage,
  SERVE_SITE, type Notice, type RequestFilters, type Site, type Viewer,
} from './render.js';
import { closeReplaced, closeSession, csrfMatches, csrfOf, openSession, redeemLink, sessionCookie, sessionOf } from './session.js';

const ASSETS_DIR = new URL('../../../assets/dashboard/', import.meta.url);
const ASSETS = { 'dashboard.css': 'text/css; charset=utf-8', 'dashboard.js': 'text/javascript; charset=utf-8' } as const;

/** How many journal entries a page shows (the newest). */
const SHOWN_ENTRIES = 100;

interface Signed {
  id: string;
  access: Access;
  viewer: Viewer;
  /** the company's context, acting as the session's token */
  ctx: ServerContext;
}

const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined);

export const sendPage = (reply: FastifyReply, body: string, status = 200) => reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);
export const back = (reply: FastifyReply, location: string) => reply.code(303).headers(PAGE_HEADERS).header('location', location).send();

/**
 * What every dashboard's scope has (serve's and a proxy's, at `site.base`): forms as a browser posts
 * them, a fault as a page, a page for a path that is none, and the stylesheet and script.
 */
export function registerPageBasics(scope: FastifyInstance, site: Site, limits: Pick<Limits, 'bodyBytes'>, logError: (error: unknown) => void): void {
  const assets = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(new URL(name, ASSETS_DIR)) }]));
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  // a page's fault is a page (the API's are JSON): the store's, a refusal (a client's mistake, framework's
  // own included: a body too large, not a form, not JSON; never logged), or the unexpected (logged)
  scope.setErrorHandler((error: FastifyError, _request, reply) => {
    const refusal = error instanceof ApiError ? error : (error as unknown) instanceof StoreFault ? storeFaultError(error as unknown as StoreFault) : frameworkError(error, limits as Limits);
    if (!refusal) logError(error);
    const status = refusal?.status ?? 500;
    const message = refusal?.code === 'unsupported_media_type' ? 'This page takes a form as a browser posts it (application/x-www-form-urlencoded).'
      : refusal?.message ?? 'Unexpected server error; it has been logged by the server.';
    return sendPage(reply, messagePage(`Error ${status}`, message, undefined, site), status);
  });
  // a path under the dashboard that is none of its pages is a page too, not the API's JSON 404
  // (the router tries every route above before a wildcard)
  scope.all(`${site.base}/*`, async (_request, reply) => sendPage(reply, messagePage('Not found', 'The dashboard has no such page.', undefined, site), 404));

  scope.get(`${site.base}/assets/:name`, async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return sendPage(reply, messagePage('Not found', 'No such file.', undefined, site), 404);
    return reply.headers({ ...PAGE_HEADERS, 'cache-control': 'public, max-age=300' }).type(asset.type).send(asset.body);
  });
}

/** The newest entries that pass the query, oldest first: windows after the newest id, wider each time, until enough or all. */
export async function newestEntries(ctx: JournalContext, company: { id: number }, request: FastifyRequest, query: Record<string, string>) {
  const last = await ctx.store.journal.last(company.id);
  let span = SHOWN_ENTRIES * 2;
  for (;;) {
    const after = Math.max(0, last - span);
    const page = await listJournal(ctx, company, request, { ...query, after: String(after), limit: '500' });
    let entries = page.data;
    // (a page holds 500 at most: continue to the newest)
    let cursor = page.next_cursor;
    while (page.data.length === 500 && entries.length < 50_000) {
      const more = await listJournal(ctx, company, request, { ...query, after: String(cursor), limit: '500' });
      entries = entries.concat(more.data);
      cursor = more.next_cursor;
      if (more.data.length < 500) break;
    }
    if (entries.length >= SHOWN_ENTRIES || after === 0) return { entries: entries.slice(-SHOWN_ENTRIES), dropped: page.dropped, last: Math.max(last, cursor) };
    span *= 8;
  }
}

/** The requests page of a journal: its filters from the query, the newest entries that pass them. */
export async function requestsView(viewer: Viewer, ctx: JournalContext, company: { id: number }, request: FastifyRequest): Promise<string> {
  const filters = requestFilters(request.query as Record<string, unknown>);
  const query = journalQuery(filters);
  const { entries, dropped, last } = await newestEntries(ctx, company, request, query);
  return requestsPage(viewer, entries, filters, new URLSearchParams(query).toString(), last, dropped);
}

export function registerDashboard(app: FastifyInstance, base: ServerContext, streams: Streams, logError: (error: unknown) => void, options: { secure: boolean }): void {
  // sessions and links run on real time, whatever the sandbox clock or a frozen --clock says
  const now = () => Date.now();

  async function signed(request: FastifyRequest): Promise<Signed | undefined> {
    const session = await sessionOf(base.store, request, now());
    if (!session) return undefined;
    const { access } = session;
    return {
      ...session,
      viewer: { company: access.company.fantasy_name, token: access.token.name, readOnly: access.token.read_only, csrf: csrfOf(session.id) },
      // (the changes a session makes are its token's: the timeline names it)
      ctx: { ...companyContext(base, access.company), actor: access.token },
    };
  }

  /** A page that needs a session: the session, or the sign-in page sent. */
  async function reader(request: FastifyRequest, reply: FastifyReply): Promise<Signed | undefined> {
    const session = await signed(request);
    if (!session) void back(reply, '/dashboard');
    return session;
  }

  /** An action: a session that may write, from a page of this server, with the session's CSRF token; else refused. */
  async function writer(request: FastifyRequest, reply: FastifyReply): Promise<Signed | undefined> {
    const session = await signed(request);
    if (!session) {
      void sendPage(reply, messagePage('Signed out', 'Your session has ended: sign in again.'), 401);
      return undefined;
    }
    if (!fromOwnPage(session, request)) {
      void sendPage(reply, messagePage('Refused', 'This form did not come from this dashboard (its CSRF token is missing or wrong): nothing was done.', session.viewer), 403);
      return undefined;
    }
    if (session.viewer.readOnly) {
      void sendPage(reply, messagePage('Read-only', `The token ${session.viewer.token} is read-only: nothing was done.`, session.viewer), 403);
      return undefined;
    }
    return session;
  }

  /** A form posted from one of the session's own pages: this origin, the session's CSRF token. */
  const fromOwnPage = (session: Signed, request: FastifyRequest) => sameOrigin(request) && csrfMatches(session.id, ((request.body ?? {}) as Record<string, string>).csrf);

  app.register(async (scope) => {
    registerPageBasics(scope, SERVE_SITE, base.config.limits, logError);

    // ---- signing in and out

    scope.get('/dashboard', async (request, reply) => ((await signed(request)) ? back(reply, '/dashboard/requests') : sendPage(reply, signInPage())));

    scope.get('/dashboard/sign-in', async (request, reply) => {
      const code = one((request.query as Record<string, unknown>).code);
      const redeemed = code === undefined ? undefined : await redeemLink(base.store, code, now());
      if (!redeemed) return sendPage(reply, signInPage('This sign-in link was used already or has expired: run `pinvoice dashboard` for a new one, or paste a token.'), 401);
      await closeReplaced(base.store, request);
      // the code leaves the address bar with this redirect; it is spent either way
      return back(reply.header('set-cookie', sessionCookie(redeemed.session, options.secure)), '/dashboard/requests');
    });

    scope.post('/dashboard/sign-in', async (request, reply) => {
      if (!sameOrigin(request)) return sendPage(reply, signInPage('This form did not come from this dashboard.'), 403);
      const token = ((request.body ?? {}) as Record<string, string>).token?.trim() ?? '';
      const access = token === '' ? undefined : await base.reads.companies.authenticate(token);
      if (!access) return sendPage(reply, signInPage('No company has this token (or it was revoked).'), 401);
      await closeReplaced(base.store, request);
      const session = await openSession(base.store, access, now());
      return back(reply.header('set-cookie', sessionCookie(session, options.secure)), '/dashboard/requests');
    });

    scope.post('/dashboard/sign-out', async (request, reply) => {
      const session = await signed(request);
      if (session && !fromOwnPage(session, request)) {
        return sendPage(reply, messagePage('Refused', 'This form did not come from this dashboard: you are still signed in.', session.viewer), 403);
      }
      if (session) await closeSession(base.store, session.id);
      return back(reply.header('set-cookie', sessionCookie(undefined, options.secure)), '/dashboard');
    });

    // ---- the journal

    scope.get('/dashboard/stream', async (request, reply) => {
      const session = await signed(request);
      if (!session) return sendPage(reply, messagePage('Signed out', 'Sign in again.'), 401);
      // (the journal's own stream, as the company's: its filters are the query's)
      await streams.stream(session.ctx, session.access.company, request, reply, PAGE_HEADERS);
      return reply;
    });

    scope.get('/dashboard/requests', async (request, reply) => {
      const session = await reader(request, reply);
      if (!session) return reply;
      return sendPage(reply, await requestsView(session.viewer, session.ctx, session.access.company, request));
    });

    scope.get('/dashboard/requests/:id', async (request, reply) => {
      const session = await reader(request, reply);
      if (!session) return reply;
      const entry = await getJournalEntry(session.ctx, session.access.company, (request.params as { id: string }).id);
      return sendPage(reply, entryPage(session.viewer, entry));
    });

    // ---- charges

    scope.get('/dashboard/charges', async (request, reply) => {
      const session = await reader(request, reply);
      if (!session) return reply;
      const raw = request.query as Record<string, unknown>;
      const search = { q: one(raw.q)?.trim() || undefined, status: one(raw.status) || undefined, method: one(raw.method) || undefined, cursor: one(raw.cursor) || undefined };
      const { records, note, next } = await findCharges(session, search);
      return sendPage(reply, chargesPage(session.viewer, records, search, note, next));
    });

    async function findCharges(session: Signed, search: { q?: string; status?: string; method?: string; cursor?: string }) {
      const { ctx, access } = session;
      if (search.q !== undefined) {
        const reference = classifyReference(search.q);
        const byId = async (ref: string) => {
          try {
            return [JSON.parse((await lookupInvoiceJson(ctx, access.company, ref)).toString()) as Transaction];
          } catch (error) {
            if (error instanceof ApiError && error.status === 404) return [];
            throw error;
          }
        };
        const searchBy: Record<string, string> | undefined = reference.kind === 'pix' ? { pix_code: reference.value }
          : reference.kind === 'checkout' ? { token_checkout: reference.value }
            : reference.kind === 'boleto' ? { boleto_line: reference.value }
              : reference.kind === 'external' ? { external_id: reference.value } : undefined;
        const records = searchBy === undefined ? await byId(reference.value) : await queryCharges(session, searchBy);
        // an order number that is all digits is also an id: both are looked for
        const also = reference.kind === 'id' && records.length === 0 ? await queryCharges(session, { external_id: reference.value }) : [];
        return { records: [...records, ...also], note: `Looked up as ${reference.kind === 'external' ? 'an order number (externalRef)' : `a ${reference.kind}`}.`, next: undefined };
      }
      const query: Record<string, string> = { limit: '50' };
      if (search.status) query.status = search.status;
      if (search.method) query.method = search.method;
      if (search.cursor) query.cursor = search.cursor;
      const parsed = parseInvoiceQuery(query);
      if (!parsed.ok) throw new ApiError(400, 'validation_failed', parsed.details.map((d) => `${d.path.replace(/^\$\.query\./, '')} ${d.message}`).join('; '));
      const page = await listInvoices(ctx, access.company, parsed.value as Extract<InvoiceQuery, { kind: 'list' }>);
      const params = new URLSearchParams({ ...(search.status && { status: search.status }), ...(search.method && { method: search.method }) });
      return { records: page.data, note: undefined, next: page.next_cursor ? `/dashboard/charges?${params.toString()}${params.size ? '&' : ''}cursor=${encodeURIComponent(page.next_cursor)}` : undefined };
    }

    async function queryCharges(session: Signed, query: Record<string, string>): Promise<Transaction[]> {
      const parsed = parseInvoiceQuery(query);
      if (!parsed.ok) return [];
      const value = parsed.value;
      const page = value.kind === 'search' ? await searchInvoice(session.ctx, session.access.company, value.search)
        : value.kind === 'list' ? await listInvoices(session.ctx, session.access.company, value) : { data: [] };
      return page.data;
    }

    async function record(session: Signed, id: string): Promise<Transaction> {
      return JSON.parse((await lookupInvoiceJson(session.ctx, session.access.company, id)).toString());
    }

    scope.get('/dashboard/charges/:id', async (request, reply) => {
      const session = await reader(request, reply);
      if (!session) return reply;
      const id = (request.params as { id: string }).id;
      const charge = await record(session, id);
      const [events, entries] = await Promise.all([
        listEvents(session.ctx, session.access.company, String(charge.id)),
        base.journal && base.journal.keep > 0 ? newestEntries(session.ctx, session.access.company, request, { invoice_id: String(charge.id) }).then((found) => found.entries) : Promise.resolve([]),
      ]);
      const done = one((request.query as Record<string, unknown>).done);
      const notice: Notice | undefined = done && DONE_WORDS[done] ? { kind: 'ok', text: DONE_WORDS[done] } : undefined;
      return sendPage(reply, chargePage(session.viewer, { record: charge, entries, events: events.data }, notice));
    });

    const ACTIONS = [...SANDBOX_ACTION_NAMES, 'refund', 'resend'] as const;
    type Action = (typeof ACTIONS)[number];
    const actionOf = (request: FastifyRequest): Action | undefined => {
      const name = (request.params as { action: string }).action;
      return (ACTIONS as readonly string[]).includes(name) ? (name as Action) : undefined;
    };

    scope.get('/dashboard/charges/:id/:action', async (request, reply) => {
      const session = await reader(request, reply);
      if (!session) return reply;
      const action = actionOf(request);
      if (!action) return sendPage(reply, messagePage('Not found', 'No such action.', session.viewer), 404);
      const charge = await record(session, (request.params as { id: string }).id);
      const event = one((request.query as Record<string, unknown>).event);
      if (action !== 'resend' && !chargeActions(charge).includes(action)) {
        return sendPage(reply, messagePage('Not now', `${ACTION_WORDS[action]}: not possible while the charge is ${String(charge.status)}.`, session.viewer), 409);
      }
      return sendPage(reply, confirmPage(session.viewer, charge, action, { ...(event !== undefined && { event }) }));
    });

    scope.post('/dashboard/charges/:id/:action', async (request, reply) => {
      const session = await writer(request, reply);
      if (!session) return reply;
      const action = actionOf(request);
      const ref = (request.params as { id: string }).id;
      if (!action) return sendPage(reply, messagePage('Not found', 'No such action.', session.viewer), 404);
      const form = (request.body ?? {}) as Record<string, string>;
      const { ctx, access } = session;
      try {
        if (action === 'refund') {
          let cents: number;
          try {
            cents = parseAmount(form.amount ?? '');
          } catch (error) {
            if (!(error instanceof AmountError)) throw error;
            return sendPage(reply, confirmPage(session.viewer, await record(session, ref), 'refund', { amount: form.amount ?? '', problem: `Amount ${error.message}` }), 422);
          }
          await refundInvoice(ctx, access.company, ref, { amount_cents: cents, ...(form.reason?.trim() && { reason: form.reason.trim() }) });
        } else if (action === 'resend') {
          await resendEvent(ctx, access.company, form.event ?? '');
        } else {
          await sandboxAction(ctx, access.company, ref, action as SandboxAction);
        }
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500 || error.status === 404) throw error;
        const problem = error.details?.length ? error.details.map((d) => d.message).join('; ') : error.message;
        if (action === 'refund') return sendPage(reply, confirmPage(session.viewer, await record(session, ref), 'refund', { amount: form.amount ?? '', problem }), error.status);
        return sendPage(reply, messagePage('Not done', problem, session.viewer), error.status);
      }
      const charge = await record(session, ref);
      return back(reply, `/dashboard/charges/${encodeURIComponent(String(charge.id))}?done=${action}`);
    });

    // ---- the company

    scope.get('/dashboard/company', async (request, reply) => {
      const session = await reader(request, reply);
      if (!session) return reply;
      const done = one((request.query as Record<string, unknown>).done);
      return sendPage(reply, await companyView(session, done && DONE_WORDS[done] ? { kind: 'ok', text: DONE_WORDS[done] } : undefined));
    });

    async function companyView(session: Signed, notice?: Notice): Promise<string> {
      const { ctx, access } = session;
      const company = (await base.reads.companies.get(access.company.id)) ?? access.company;
      const [chaos, signing] = await Promise.all([getChaos(ctx, company), showSigning(ctx, company)]);
      return companyPage(session.viewer, { name: company.fantasy_name, clock: showClock(ctx, company), chaos, signing, scenarios: SCENARIOS }, notice);
    }

    /** A company setting's form: done, back to the page; refused, the page again with the reason. */
    function companyForm(path: string, done: keyof typeof DONE_WORDS, run: (session: Signed, form: Record<string, string>) => Promise<unknown>) {
      scope.post(path, async (request, reply) => {
        const session = await writer(request, reply);
        if (!session) return reply;
        try {
          await run(session, (request.body ?? {}) as Record<string, string>);
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          const problem = error.details?.length ? error.details.map((d) => `${d.path.replace(/^\$\./, '')}: ${d.message}`).join('; ') : error.message;
          return sendPage(reply, await companyView(session, { kind: 'error', text: problem }), error.status);
        }
        return back(reply, `/dashboard/company?done=${done}`);
      });
    }

    const checked = <T>(schema: Parameters<typeof parseWith>[0], value: unknown): T => {
      const result = parseWith(schema, value);
      if (!result.ok) throw new ApiError(422, 'validation_failed', 'The form has a problem.', result.details);
      return result.value as T;
    };
    const wholeNumber = (name: string, text: string | undefined): number => {
      const value = (text ?? '').trim();
      if (!/^\d{1,12}$/.test(value)) throw new ApiError(422, 'validation_failed', `${name} must be a whole number (given: "${value}").`);
      return Number(value);
    };

    companyForm('/dashboard/company/clock/advance', 'advanced', async ({ ctx, access }, form) => {
      const seconds = wholeNumber('The amount to advance by', form.amount) * wholeNumber('The unit', form.unit);
      const { seconds: checkedSeconds } = checked<{ seconds: number }>(ClockAdvanceRequest, { seconds });
      await advanceClock(ctx, access.company, checkedSeconds);
    });
    companyForm('/dashboard/company/clock/set', 'set', async ({ ctx, access }, form) => {
      const { now: at } = checked<{ now: string }>(ClockSetRequest, { now: (form.now ?? '').trim() });
      await setClock(ctx, access.company, at);
    });
    companyForm('/dashboard/company/clock/reset', 'reset', ({ ctx, access }) => resetClock(ctx, access.company));
    companyForm('/dashboard/company/chaos', 'chaos', async ({ ctx, access }, form) => {
      const rule = checked<Parameters<typeof putChaos>[2]>(ChaosRequest, {
        duplicate: form.duplicate === 'true',
        reorder: form.reorder === 'true',
        bad_signature: form.bad_signature === 'true',
        delay_ms: form.delay_ms?.trim() ? wholeNumber('Hold each delivery (ms)', form.delay_ms) : 0,
        drop_first: form.drop_first?.trim() ? wholeNumber('Fail the first N attempts', form.drop_first) : 0,
        invoice_id: form.invoice_id?.trim() ? form.invoice_id.trim() : null,
      });
      await putChaos(ctx, access.company, rule);
    });
    companyForm('/dashboard/company/chaos/clear', 'cleared', ({ ctx, access }) => clearChaos(ctx, access.company));
    companyForm('/dashboard/company/signing', 'signing', async ({ ctx, access }, form) => {
      if (form.key !== 'secret') throw new ApiError(422, 'validation_failed', 'Only the webhook secret can be chosen here: keying by a token takes the token (pinvoice webhooks signing --key token).');
      await putSigning(ctx, access.company, 'secret', access.token, '');
    });
  });
}

const DONE_WORDS: Record<string, string> = {
  pay: 'Paid.', expire: 'Expired.', cancel: 'Canceled.', chargeback: 'Charged back.', refund: 'Refunded.', resend: 'The event is queued to be sent again.',
  advanced: 'The clock moved ahead.', set: 'The clock was set.', reset: 'The clock reads real time again.', chaos: 'Chaos is set.', cleared: 'Chaos is cleared.', signing: 'Postbacks are signed with the webhook secret again.',
};

/** The requests page's filters, as the form gives them (empty: any). */
function requestFilters(query: Record<string, unknown>): RequestFilters {
  const filters: RequestFilters = {};
  for (const name of ['method', 'status', 'path', 'charge', 'direction'] as const) {
    const value = one(query[name])?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/** The filters as the journal's list and stream take them. */
function journalQuery(filters: RequestFilters): Record<string, string> {
  const query: Record<string, string> = {};
  if (filters.method) query.method = filters.method;
  if (filters.status) query.status = filters.status;
  if (filters.path) query.path = filters.path;
  if (filters.direction) query.direction = filters.direction;
  if (filters.charge) query.invoice_id = filters.charge;
  return query;
}
