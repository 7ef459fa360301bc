// The inspector's endpoints (contract, "The inspector"): list with filters and a cursor, long-poll
// `wait`, one entry, Server-Sent Events, find with near misses, clear. Each reads what this process has
// buffered only after writing it, so an answer holds every request answered before it; other nodes'
// entries arrive within their batch (100 ms) and are seen by a wait's look every 250 ms.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DIRECTIONS, MAX_SUBSCRIBERS, MAX_WAIT_SECONDS, RequestPattern, type JournalEntry, type JournalPage } from '../../api/journal.js';
import { operation } from '../../api/operations.js';
import { parseWith } from '../../api/validate.js';
import { ApiError, validationFailed } from '../errors.js';
import type { Company as StoredCompany, JournalFilter, JournalRow, JournalStore } from '../store/port.js';
import { readDetail } from './capture.js';
import { find, type Pattern } from './match.js';
import type { JournalRecorder } from './recorder.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
/** How often a wait or a stream looks at the store for other nodes' entries. */
const LOOK_MS = 250;
const HEARTBEAT_MS = 15_000;
/** The query parameters each takes, as the operation table declares them (one list for the OpenAPI document and the checks). */
const LIST_PARAMS = Object.keys(operation('sandboxRequests').query ?? {});
const STREAM_PARAMS = Object.keys(operation('sandboxRequestsStream').query ?? {});

/**
 * What the endpoints need of their server: its recorder, its journal's store, and how to find a charge
 * named by reference (serve's ServerContext; `pinvoice proxy` gives its own, src/proxy/api.ts).
 */
export interface JournalContext {
  readonly journal?: JournalRecorder | undefined;
  readonly store: { readonly journal: Omit<JournalStore, 'append'> };
  readonly reads: { readonly invoices: { find(companyId: number, ref: string): Promise<{ id: number } | undefined> } };
  /** how its operator sets the window's size, for the message of an entry dropped from it */
  readonly keepFlag?: string;
  /** how its operator sets the journal's room in bytes, for the same message */
  readonly roomFlag?: string;
}
type Company = Pick<StoredCompany, 'id'>;

function recorder(ctx: JournalContext): JournalRecorder {
  const journal = ctx.journal;
  if (!journal || journal.keep <= 0) {
    throw new ApiError(409, 'journal_off', 'The journal is off on this server (`pinvoice serve --journal 0`): nothing was recorded. Start serve without --journal 0 (default: 10,000 entries per company).');
  }
  return journal;
}

const parsed = (text: string | Buffer | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text.toString());
  } catch {
    return text.toString(); // a receiver's answer that is not JSON, or a body cut at the cap
  }
};

/** A stored row as the API shows it; `answer` false leaves the answer's body out (matching needs none). */
export function toEntry(row: JournalRow, answer = true): JournalEntry {
  const detail = readDetail(row.detail);
  return {
    id: row.id, at: new Date(row.at).toISOString(), sandbox_at: new Date(row.sandbox_at).toISOString(), direction: row.direction, method: row.method, path: row.path,
    query: detail.query, headers: detail.headers, body: parsed(row.request_body), status: row.status,
    response_body: answer ? parsed(row.response_body) : null, duration_ms: detail.duration_ms ?? row.duration_ms,
    token_name: detail.token_name, token_hint: detail.token_hint, idempotency_key: detail.idempotency_key, replayed: detail.replayed,
    problems: detail.problems, invoice_ids: detail.invoice_ids, event_id: detail.event_id, event: detail.event, attempt: detail.attempt,
    url: detail.url, signature_headers: detail.signature_headers, error: detail.error,
    // a proxy's entry (src/proxy) only
    ...(detail.upstream !== undefined && { upstream: detail.upstream }),
    ...(detail.findings !== undefined && { findings: detail.findings }),
    ...(detail.host !== undefined && { host: detail.host, port: detail.port }),
  };
}

/** A charge named by integer id or secureId, as the company's: its id, or null when it has none such (nothing then matches). */
async function chargeId(ctx: JournalContext, company: Company, ref: string | number): Promise<number | null> {
  const found = await ctx.reads.invoices.find(company.id, String(ref).trim());
  return found ? found.id : null;
}

interface ListQuery {
  filter: JournalFilter;
  after: number;
  limit: number;
  waitMs: number;
  /** false: names a charge the company does not have (nothing matches) */
  any: boolean;
}

const problem = (name: string, message: string) => validationFailed([{ path: `query.${name}`, message }]);

function statusRange(text: string): [number, number] | undefined {
  if (/^[1-5]xx$/i.test(text)) return [Number(text[0]) * 100, Number(text[0]) * 100 + 99];
  if (/^[1-5]\d\d$/.test(text)) return [Number(text), Number(text)];
  return undefined;
}

async function listQuery(ctx: JournalContext, company: Company, raw: Record<string, unknown>, allowed: readonly string[]): Promise<ListQuery> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!allowed.includes(name)) throw problem(name, `is not a parameter of this listing; use ${allowed.join(', ')}`);
    if (typeof value !== 'string') throw problem(name, 'is given more than once');
    query[name] = value;
  }
  const filter: JournalFilter = {};
  if (query.direction !== undefined) {
    if (!(DIRECTIONS as readonly string[]).includes(query.direction)) throw problem('direction', 'must be "in", "out" or "tunnel"');
    filter.direction = query.direction as JournalFilter['direction'];
  }
  if (query.method !== undefined) {
    if (!/^[A-Za-z]{3,7}$/.test(query.method)) throw problem('method', 'must be an HTTP method such as GET or POST');
    filter.method = query.method.toUpperCase();
  }
  if (query.path !== undefined) {
    if (!query.path.startsWith('/') && !query.path.startsWith('*')) throw problem('path', 'must start with / (or *), e.g. /api/v2/invoices or /api/v2/invoices/*/refund');
    filter.path = query.path;
  }
  if (query.status !== undefined) {
    const range = statusRange(query.status);
    if (!range) throw problem('status', 'must be a status such as 422 or a class such as 4xx');
    filter.status = range;
  }
  let any = true;
  if (query.invoice_id !== undefined) {
    const id = await chargeId(ctx, company, query.invoice_id);
    if (id === null) any = false;
    else filter.invoiceId = id;
  }
  const whole = (name: string, min: number, max: number, fallback: number): number => {
    const text = query[name];
    if (text === undefined) return fallback;
    if (!/^\d{1,15}$/.test(text) || Number(text) < min || Number(text) > max) throw problem(name, `must be a whole number from ${min} to ${max}`);
    return Number(text);
  };
  let waitMs = 0;
  if (query.wait !== undefined) {
    const seconds = Number(query.wait);
    if (query.wait.trim() === '' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_SECONDS) throw problem('wait', `must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}`);
    waitMs = Math.round(seconds * 1000);
  }
  return { filter, after: whole('after', 0, Number.MAX_SAFE_INTEGER, 0), limit: whole('limit', 1, MAX_LIMIT, DEFAULT_LIMIT), waitMs, any };
}

/**
 * Resolves after this process writes an entry of the company, after LOOK_MS (another node's may be
 * there), or when the client's connection closes. (The request itself is over once its body is read:
 * its own 'close' says nothing about the client.)
 */
function nextLook(journal: JournalRecorder, companyId: number, ms: number, request: FastifyRequest): Promise<void> {
  const socket = request.raw.socket;
  return new Promise((resolve) => {
    let off = () => undefined as unknown;
    const done = () => {
      clearTimeout(timer);
      off();
      socket?.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, Math.min(ms, LOOK_MS)));
    off = journal.onWritten((companies) => companies.has(companyId) && done());
    socket?.once('close', done);
  });
}

/** The client hung up: nobody waits for the answer. */
const gone = (request: FastifyRequest) => request.raw.socket?.destroyed !== false;

/** A page of the journal; `given` is the query (the request's own, or the dashboard's filters). */
export async function listJournal(ctx: JournalContext, company: Company, request: FastifyRequest, given = request.query as Record<string, unknown>): Promise<JournalPage> {
  const journal = recorder(ctx);
  const query = await listQuery(ctx, company, given, LIST_PARAMS);
  await journal.flush();
  const deadline = Date.now() + query.waitMs;
  let rows: JournalRow[] = [];
  for (;;) {
    rows = query.any ? await ctx.store.journal.list(company.id, query.filter, query.after, query.limit) : [];
    const left = deadline - Date.now();
    if (rows.length > 0 || left <= 0 || gone(request)) break;
    await nextLook(journal, company.id, left, request);
  }
  const { dropped } = await ctx.store.journal.state(company.id);
  return { data: rows.map((row) => toEntry(row)), next_cursor: rows.at(-1)?.id ?? query.after, dropped };
}

export async function getJournalEntry(ctx: JournalContext, company: Company, idText: string): Promise<JournalEntry> {
  await recorder(ctx).flush();
  const id = /^\d{1,15}$/.test(idText) ? Number(idText) : undefined;
  const row = id === undefined ? undefined : await ctx.store.journal.get(company.id, id);
  if (row) return toEntry(row);
  const state = await ctx.store.journal.state(company.id);
  if (id !== undefined && id <= state.dropped_upto) {
    throw new ApiError(404, 'not_found', `Journal entry ${id} was dropped from the window: the newest ${ctx.journal?.keep.toLocaleString('en')} entries are kept (${ctx.keepFlag ?? 'serve --journal N, per company'}), within the journal's room on disk (${ctx.roomFlag ?? 'serve --journal-max-bytes'}), and ${state.dropped} have been dropped since the journal was last cleared.`);
  }
  throw new ApiError(404, 'not_found', `No journal entry ${idText} for this company.`);
}

/** The company's entries, oldest first, all of the window, for matching (their answers left out). */
async function windowEntries(ctx: JournalContext, companyId: number, after: number): Promise<{ entries: JournalEntry[]; last: number }> {
  const entries: JournalEntry[] = [];
  let cursor = after;
  for (;;) {
    const rows = await ctx.store.journal.list(companyId, {}, cursor, 5000);
    for (const row of rows) entries.push(toEntry(row, false));
    if (rows.length < 5000) break;
    cursor = rows.at(-1)?.id ?? cursor;
  }
  return { entries, last: entries.at(-1)?.id ?? after };
}

export async function findJournal(ctx: JournalContext, company: Company, request: FastifyRequest, body: unknown) {
  const journal = recorder(ctx);
  const { waitMs } = await listQuery(ctx, company, request.query as Record<string, unknown>, ['wait']);
  const checked = parseWith(RequestPattern, body ?? {});
  if (!checked.ok) throw validationFailed(checked.details);
  const { invoice_id: ref, ...rest } = checked.value;
  const pattern: Pattern = { ...rest, ...(ref !== undefined && { invoiceId: await chargeId(ctx, company, ref) }) };
  await journal.flush();
  const deadline = Date.now() + waitMs;
  let { entries, last } = await windowEntries(ctx, company.id, 0);
  let result = find(pattern, entries);
  while (result.data.length === 0 && deadline > Date.now() && !gone(request)) {
    await nextLook(journal, company.id, deadline - Date.now(), request);
    // a charge not there yet may be created meanwhile (the create the test waits for)
    if (ref !== undefined && pattern.invoiceId === null) {
      pattern.invoiceId = await chargeId(ctx, company, ref);
      if (pattern.invoiceId !== null) ({ entries, last } = { entries: [], last: 0 });
    }
    const fresh = await windowEntries(ctx, company.id, last);
    if (fresh.entries.length === 0) continue;
    last = fresh.last;
    entries = entries.concat(fresh.entries);
    result = find(pattern, fresh.entries);
  }
  if (result.data.length === 0) result = find(pattern, entries);
  const full = async (entry: JournalEntry) => {
    const row = await ctx.store.journal.get(company.id, entry.id);
    return row ? toEntry(row) : entry;
  };
  const data = await Promise.all(result.data.slice(0, MAX_LIMIT).map(full));
  const near_misses = await Promise.all(result.near_misses.map(async (miss) => ({ ...miss, entry: await full(miss.entry) })));
  const { dropped } = await ctx.store.journal.state(company.id);
  return { data, matched: result.data.length, near_misses, dropped };
}

export async function clearJournal(ctx: JournalContext, company: Company) {
  await recorder(ctx).flush();
  return { cleared: await ctx.store.journal.clear(company.id) };
}

/** The open streams, per company, so that a ninth is refused and close() ends them all. */
export function createStreams() {
  const open = new Map<number, Set<() => void>>();
  return {
    /** `headers`: the API's (apiHeaders) or a page's (PAGE_HEADERS), whichever asked for the stream */
    async stream(ctx: JournalContext, company: Company, request: FastifyRequest, reply: FastifyReply, headers: Readonly<Record<string, string>>): Promise<void> {
      const journal = recorder(ctx);
      // the slot is taken before anything is awaited: streams opened at once count each other
      let mine = open.get(company.id);
      if (!mine) open.set(company.id, (mine = new Set()));
      if (mine.size >= MAX_SUBSCRIBERS) {
        throw new ApiError(429, 'rate_limited', `At most ${MAX_SUBSCRIBERS} journal streams per company at once; close one first.`, undefined, { 'Retry-After': '1' });
      }
      const slots = mine;
      let ended = false;
      const beat: { timer?: NodeJS.Timeout } = {};
      const end = () => {
        if (ended) return;
        ended = true;
        slots.delete(end);
        if (slots.size === 0 && open.get(company.id) === slots) open.delete(company.id);
        clearInterval(beat.timer);
        if (reply.sent && !reply.raw.writableEnded) reply.raw.end();
      };
      slots.add(end);
      let cursor: number;
      let query: ListQuery;
      try {
        query = await listQuery(ctx, company, request.query as Record<string, unknown>, STREAM_PARAMS);
        await journal.flush();
        const lastEventId = request.headers['last-event-id'];
        const newest = await ctx.store.journal.last(company.id);
        const asked = typeof lastEventId === 'string' && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId)
          : (request.query as Record<string, unknown>).after !== undefined ? query.after : newest;
        // a cursor beyond the newest entry is one of a journal since emptied (a server in memory, restarted): from now on
        cursor = Math.min(asked, newest);
      } catch (error) {
        end();
        throw error;
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      // the cursor it starts from, as an id: a client that loses the stream before any entry resumes from it
      res.write(`retry: 1000\nid: ${cursor}\n: journal of company ${company.id}; entries after ${cursor}\n\n`);
      beat.timer = setInterval(() => res.write(': still here\n\n'), HEARTBEAT_MS);
      beat.timer.unref();
      request.raw.socket?.once('close', end);
      res.once('close', end);
      try {
        while (!ended) {
          const last = await ctx.store.journal.last(company.id);
          const rows = query.any ? await ctx.store.journal.list(company.id, query.filter, cursor, MAX_LIMIT) : [];
          for (const row of rows) res.write(`event: entry\nid: ${row.id}\ndata: ${JSON.stringify(toEntry(row))}\n\n`);
          cursor = rows.length === MAX_LIMIT ? (rows.at(-1)?.id ?? cursor) : Math.max(cursor, last, rows.at(-1)?.id ?? 0);
          if (rows.length < MAX_LIMIT) await nextLook(journal, company.id, LOOK_MS, request);
        }
      } catch (error) {
        // the store went away: the client reconnects (retry: 1000) with Last-Event-ID and misses nothing
        if (!res.writableEnded) res.write(`event: error\ndata: ${JSON.stringify({ error: (error as { code?: string }).code ?? 'internal', message: 'the journal could not be read; reconnecting resumes from the last entry' })}\n\n`);
        end();
      }
      if (!res.writableEnded) res.end(); // ended before it began (the server closing meanwhile)
    },
    /** Ends every stream (the server is closing). */
    closeAll(): void {
      for (const mine of [...open.values()]) for (const end of [...mine]) end();
    },
  };
}

export type Streams = ReturnType<typeof createStreams>;
