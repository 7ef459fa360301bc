// `pinvoice drift --journal FILE --against URL`: the journal's creates sent again to a running
// `pinvoice serve` (a fresh Idempotency-Key each), what they made looked up and refunded as production
// was asked, and serve's answers compared with production's by shape (src/proxy/drift/twin.ts). Only
// URL is written to, and only once it has said it is serve (its Pinvoice-Serve header).
import { randomUUID } from 'node:crypto';
import type { TwinDriftReport } from '../../api/twin-drift.js';
import { SERVE_HEADER } from '../../api/serve-header.js';
import { NetworkError } from '../../client/errors.js';
import { createHttp, type HttpRequest, type HttpResponse } from '../../client/http.js';
import { checkBaseUrl, originOf, resolveConnection, timeoutMsOf, type Connection } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { judge } from '../../proxy/drift/accept.js';
import { summarise } from '../../proxy/drift/report.js';
import { planResend, skipOne, type Plan, type Step } from '../../proxy/drift/resend.js';
import { compareAnswers, type Answer } from '../../proxy/drift/twin.js';
import type { Acceptance } from '../../api/drift.js';
import type { ProxyEntry } from '../../proxy/journal.js';
import { packageVersion } from '../../version.js';
import { isJsonObject as isObject } from '../../base/json-object.js';

export interface AgainstOptions {
  against: string;
  profile?: string | undefined;
  tokenFile?: string | undefined;
  since?: Date | undefined;
  operation?: string | undefined;
  accept: readonly Acceptance[];
  now: Date;
}

type Send = (request: HttpRequest) => Promise<HttpResponse>;

const tokenWords = (connection: Connection) =>
  connection.tokenFrom === 'profile' ? `the token of profile "${connection.profile}"` : `the token in ${connection.tokenFrom}`;

/** A request to serve; a network failure names --against and the URL (exit 5). */
async function ask(send: Send, request: HttpRequest, url: string): Promise<HttpResponse> {
  try {
    return await send(request);
  } catch (error) {
    if (error instanceof NetworkError) throw new CliError(`--against ${url}: ${error.message}`, EXIT.network);
    throw error;
  }
}

/** Before anything is written: URL answers as `pinvoice serve` (never production) and takes the token. */
async function checkServe(send: Send, url: string, connection: Connection): Promise<void> {
  const answer = await ask(send, { method: 'GET', path: '/api/v2/sandbox/clock', retrySafe: true }, url);
  if (answer.serve === undefined) {
    throw new CliError(`--against ${url} is not a pinvoice serve (it answered HTTP ${answer.status} without the ${SERVE_HEADER} header): drift --against sends the journal's creates to a running pinvoice serve only, never to a gateway`, EXIT.notFound);
  }
  if (answer.status === 401 || answer.status === 403) throw new CliError(`--against ${url}: pinvoice serve refused ${tokenWords(connection)} (HTTP ${answer.status})`, EXIT.auth);
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The request serve is sent for a step, its charge named by serve's own id or secureId; undefined when serve made no such charge. */
function requestFor(step: Step, made: Map<number, { id: string; secureId: string }>): HttpRequest | undefined {
  if (step.kind === 'create') return { method: 'POST', path: '/api/v2/invoices', body: step.body, headers: { 'Idempotency-Key': randomUUID() }, retrySafe: true };
  const charge = made.get(step.charge);
  if (charge === undefined) return undefined;
  const ref = charge[step.by];
  if (step.kind === 'refund') return { method: 'POST', path: `/api/v2/invoices/${encodeURIComponent(ref)}/refund`, body: step.body, headers: { 'Idempotency-Key': randomUUID() }, retrySafe: true };
  if (step.operation === 'searchTransaction') return { method: 'GET', path: '/api/v2/invoices', query: { id: ref }, retrySafe: true };
  return { method: 'GET', path: `/api/v2/invoices/${encodeURIComponent(ref)}`, retrySafe: true };
}

const OPERATION = { create: 'createInvoice', refund: 'createRefund' } as const;

/** Each step sent to serve in order: its answers, and what it sent again. */
async function resend(plan: Plan, send: Send, url: string): Promise<{ answers: Answer[]; resent: TwinDriftReport['resent'] }> {
  const made = new Map<number, { id: string; secureId: string }>();
  const answers: Answer[] = [];
  const resent = { creates: 0, refunds: 0, lookups: 0, cards_replaced: 0 };
  for (const step of plan.steps) {
    const request = requestFor(step, made);
    if (request === undefined) {
      skipOne(plan, 'lookups and refunds of charges serve did not make (it refused the create)');
      continue;
    }
    const answer = await ask(send, request, url);
    const body = parsed(answer.text);
    const operation = step.kind === 'lookup' ? step.operation : OPERATION[step.kind];
    if (body !== undefined) answers.push({ operation, method: request.method, status: answer.status, body });
    if (step.kind === 'create') {
      resent.creates++;
      if (step.cardReplaced) resent.cards_replaced++;
      const record = isObject(body) && isObject(body.data) ? body.data : undefined;
      if (answer.status < 300 && record && record.id !== undefined && typeof record.secureId === 'string') made.set(step.charge, { id: String(record.id), secureId: record.secureId });
    } else if (step.kind === 'refund') resent.refunds++;
    else resent.lookups++;
  }
  return { answers, resent };
}

/**
 * The environment serve's token is resolved in: PINVOICE_TOKEN is production's in a merchant's shell
 * or CI job far more often than serve's, so it is taken only when PINVOICE_BASE_URL names URL's origin
 * (a token is never sent to an origin it was not given for); else a profile of URL, or --token-file.
 */
function envFor(url: string, env = process.env): NodeJS.ProcessEnv {
  if (!env.PINVOICE_TOKEN || (env.PINVOICE_BASE_URL !== undefined && originOf(env.PINVOICE_BASE_URL) === originOf(url))) return env;
  const { PINVOICE_TOKEN: _production, ...rest } = env;
  return rest;
}

/** The twin-drift report of a journal's entries against the serve at `options.against`. */
export async function twinDrift(entries: AsyncIterable<ProxyEntry>, options: AgainstOptions): Promise<TwinDriftReport> {
  const url = checkBaseUrl(options.against, '--against');
  const kept: ProxyEntry[] = [];
  for await (const entry of entries) if (options.since === undefined || Date.parse(entry.at) >= options.since.getTime()) kept.push(entry);
  const plan = planResend(kept);
  let serve: Answer[] = [];
  let resent: TwinDriftReport['resent'] = { creates: 0, refunds: 0, lookups: 0, cards_replaced: 0 };
  if (plan.steps.some((step) => step.kind === 'create')) {
    const connection = await resolveConnection({ profile: options.profile, tokenFile: options.tokenFile, baseUrl: url, baseUrlFlag: '--against' }, envFor(url));
    const send = createHttp({ baseUrl: url, token: connection.token, timeoutMs: timeoutMsOf({}) ?? 20_000, retries: 2, userAgent: `pinvoice/${packageVersion()}` });
    await checkServe(send, url, connection);
    ({ answers: serve, resent } = await resend(plan, send, url));
  }
  const compared = compareAnswers(plan.production, serve, options.operation);
  const groups = compared.groups.map((group) => ({ ...group, ...judge(group, options.accept, options.now) }));
  return {
    against: new URL(url).origin,
    since: options.since?.toISOString() ?? null,
    operation: options.operation ?? null,
    resent,
    skipped: [...plan.skipped].map(([reason, count]) => ({ reason, count })),
    ...compared,
    groups,
    summary: summarise(groups),
  };
}
