// The dashboard's pages as HTML, rendered whole on the server (every page works without JavaScript;
// the script only keeps them live), in the checkout page's palette and type. Every string from data
// goes through `html`; money as the CLI shows it (R$ 1.234,56); times in Brasília's zone on the
// server, put in the browser's own zone by the script (the <time> element keeps the instant).
import type { Finding } from '../../api/findings.js';
import type { JournalEntry } from '../../api/journal.js';
import type { WebhookEvent } from '../../api/postbacks.js';
import type { Transaction } from '../../api/schemas.js';
import type { ChaosRule, SandboxClock, WebhookSigning } from '../../api/sandbox.js';
import type { Scenario } from '../../domain/scenarios.js';
import { documentType, formatCnpj, formatCpf } from '../../domain/document.js';
import { formatBRL } from '../../domain/money.js';
import { canTransition, SANDBOX_ACTION_NAMES, SANDBOX_ACTIONS, type SandboxAction } from '../../domain/status.js';
import { brasiliaTime } from '../brasilia-time.js';
import { html, type SafeHtml } from '../html.js';

type Html = SafeHtml;
// (the server's own records, as its API answers them: the strict shapes of src/api)
type ChargeRecord = Transaction;

const formatTime = brasiliaTime({ day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** An instant as a <time> the script shows in the browser's zone. */
export function when(iso: unknown): Html | string {
  if (typeof iso !== 'string' || Number.isNaN(Date.parse(iso))) return '—';
  return html`<time datetime="${iso}">${formatTime(new Date(iso))}</time>`;
}

/** A CPF or CNPJ as people write it (529.982.247-25), else as stored. */
const documentText = (digits: string) => (documentType(digits) === 'cpf' ? formatCpf(digits) : documentType(digits) === 'cnpj' ? formatCnpj(digits) : text(digits));

export const money = (cents: unknown) => (typeof cents === 'number' && Number.isSafeInteger(cents) ? formatBRL(cents) : '—');
const text = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

export const STATUS_WORDS: Record<string, string> = {
  pending: 'pending', waiting_3ds: 'waiting for 3-D Secure', paid: 'paid', refused: 'refused', expired: 'expired', canceled: 'canceled', refunded: 'refunded', chargedback: 'charged back',
};
const statusBadge = (status: unknown) => html`<span class="badge status-${/^[a-z_0-9]+$/.test(String(status)) ? String(status) : 'other'}">${STATUS_WORDS[String(status)] ?? text(status)}</span>`;
const httpBadge = (status: number | null) => html`<span class="badge http-${status === null ? 'none' : `${Math.floor(status / 100)}xx`}">${status ?? 'no answer'}</span>`;
const METHOD_WORDS: Record<string, string> = { pix: 'Pix', boleto: 'Boleto', credit_card: 'Credit card' };

export type Tab = 'requests' | 'charges' | 'company';

/**
 * Whose dashboard a page is: serve's (`/dashboard`, every tab) or a proxy's (`/_pinvoice/dashboard`,
 * its journal only, each entry with its findings). Links, forms, assets and the script's stream all
 * start at `base`.
 */
export interface Site {
  base: string;
  /** the title's and the brand's words */
  name: string;
  tagline: string;
  tabs: readonly Tab[];
  /** the directions its journal holds, for the filter */
  directions: readonly { value: string; label: string }[];
  /** a proxy's journal: entries carry findings (a column in the list, a section on the entry's page), no sandbox clock, a token by its hint only */
  proxy: boolean;
  /** the sign-in page's words on where a link or a token comes from */
  signInHelp: Html;
  /** the sign-in field's label */
  secretLabel: string;
}

export const SERVE_SITE: Site = {
  base: '/dashboard', name: 'pinvoice sandbox', tagline: 'sandbox dashboard', tabs: ['requests', 'charges', 'company'],
  directions: [{ value: 'in', label: 'in: requests' }, { value: 'out', label: 'out: postbacks' }], proxy: false,
  signInHelp: html`Open the one-time link <code>pinvoice serve</code> printed when it created the company, or run <code>pinvoice dashboard</code>; or paste an access token of the company here.`,
  secretLabel: 'Access token',
};

export interface Viewer {
  company: string;
  token: string;
  readOnly: boolean;
  csrf: string;
  /** whose dashboard (serve's when absent) */
  site?: Site;
}

const TAB_WORDS: Record<Tab, string> = { requests: 'Requests', charges: 'Charges', company: 'Company' };

/** Where the page's live updates come from: the journal's stream narrowed by these query parameters. */
export interface Live {
  kind: 'requests' | 'region';
  query: string;
  /** requests: the newest entry shown */
  cursor?: number;
}

/** A whole page: header with the company and the tabs, the sign-out, the page's own main. */
export function page(title: string, viewer: Viewer | undefined, tab: Tab | undefined, body: Html, live?: Live, notice?: Notice, site: Site = viewer?.site ?? SERVE_SITE): string {
  const { base } = site;
  const nav = viewer && html`<nav aria-label="Dashboard">
    ${site.tabs.map((t) => html`<a href="${base}/${t}"${tab === t ? html` aria-current="page"` : ''}>${TAB_WORDS[t]}</a>`)}
  </nav>
  <form method="post" action="${base}/sign-out" class="sign-out">
    <input type="hidden" name="csrf" value="${viewer.csrf}">
    <span class="who">${viewer.company} · ${viewer.token}${viewer.readOnly ? ' (read-only)' : ''}</span>
    <button type="submit">Sign out</button>
  </form>`;
  const liveAttrs = live ? html` data-live="${live.kind}" data-base="${base}" data-query="${live.query}"${live.cursor !== undefined ? html` data-cursor="${live.cursor}"` : ''}` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${site.name}</title>
<link rel="stylesheet" href="${base}/assets/dashboard.css">
<script src="${base}/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <p class="brand">pinvoice <span>${site.tagline}</span></p>
  ${nav}
</header>
<main id="main"${liveAttrs}>
${notice ? noticeBox(notice) : ''}
${body}
</main>
</body>
</html>
`.text;
}

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
}
const noticeBox = (notice: Notice) => html`<p class="notice ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">${notice.text}</p>`;

export function signInPage(problem?: string, site: Site = SERVE_SITE): string {
  return page('Sign in', undefined, undefined, html`<h1>Sign in</h1>
<p>${site.signInHelp}</p>
<form method="post" action="${site.base}/sign-in" class="stack">
  <label for="token">${site.secretLabel}</label>
  <input id="token" name="token" type="password" autocomplete="off" required spellcheck="false"${problem ? html` aria-describedby="sign-in-problem" aria-invalid="true"` : ''}>
  ${problem ? html`<p id="sign-in-problem" class="field-problem">${problem}</p>` : ''}
  <button type="submit">Sign in</button>
</form>
<p class="muted">The token is sent once and never kept by the page: a session cookie holds the sign-in for 12 hours.</p>`, undefined, undefined, site);
}

export function messagePage(title: string, message: string, viewer?: Viewer, site: Site = viewer?.site ?? SERVE_SITE): string {
  return page(title, viewer, undefined, html`<h1>${title}</h1><p>${message}</p><p><a href="${site.base}">Back to the dashboard</a></p>`, undefined, undefined, site);
}

// ---- requests

export interface RequestFilters {
  method?: string;
  status?: string;
  path?: string;
  charge?: string;
  direction?: string;
}

function filterForm(site: Site, filters: RequestFilters): Html {
  const option = (value: string, label: string, current: string | undefined) => html`<option value="${value}"${current === value ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="${site.base}/requests" class="filters" role="search" aria-label="Filter requests">
  <label>Direction <select name="direction">${option('', 'any', filters.direction ?? '')}${site.directions.map((d) => option(d.value, d.label, filters.direction))}</select></label>
  <label>Method <select name="method">${option('', 'any', filters.method ?? '')}${['GET', 'POST', 'PUT', 'DELETE'].map((m) => option(m, m, filters.method))}</select></label>
  <label>Status <select name="status">${option('', 'any', filters.status ?? '')}${['2xx', '3xx', '4xx', '5xx'].map((s) => option(s, s, filters.status))}</select></label>
  <label>Path <input name="path" value="${filters.path ?? ''}" placeholder="/api/v2/invoices/*" size="18"></label>
  <label>Charge <input name="charge" value="${filters.charge ?? ''}" placeholder="id or INV-…" size="10"></label>
  <button type="submit">Filter</button>
</form>`;
}

/** A journal entry as a proxy's carries it: with its tunnel's host and its findings. */
type AnyEntry = JournalEntry & { findings?: readonly Finding[]; host?: string; port?: number };

/** The charges an entry touched: links where the site has charges' pages, else their ids. */
const chargeLinks = (site: Site, ids: readonly number[]) => ids.map((id) => (site.tabs.includes('charges') ? html` <a href="${site.base}/charges/${id}">#${id}</a>` : html` #${id}`));

/** Worst first, as a badge: the count and the worst severity. */
function findingsBadge(findings: readonly Finding[] | undefined): Html {
  if (!findings?.length) return html`<span class="badge findings-none">0</span>`;
  const worst = findings.some((f) => f.severity === 'error') ? 'error' : findings.some((f) => f.severity === 'warning') ? 'warning' : 'info';
  return html`<span class="badge findings-${worst}" title="worst: ${worst}">${findings.length}</span>`;
}

const tunnelTarget = (entry: AnyEntry) => (entry.host !== undefined ? `${entry.host}:${entry.port ?? ''}` : entry.path);

export function requestRow(entry: AnyEntry, site: Site = SERVE_SITE): Html {
  const charges = chargeLinks(site, entry.invoice_ids);
  const what = entry.direction === 'out' ? html`${entry.event ?? 'postback'} #${entry.attempt ?? '?'} → ${entry.url ?? entry.path}` : entry.direction === 'tunnel' ? html`tunnel to ${tunnelTarget(entry)}` : html`${entry.path}`;
  return html`<tr data-id="${entry.id}">
  <td><a href="${site.base}/requests/${entry.id}" aria-label="Entry ${entry.id}">${entry.id}</a></td>
  <td>${when(entry.at)}</td>
  <td><span class="dir dir-${entry.direction}">${entry.direction}</span></td>
  <td>${entry.method}</td>
  <td class="path">${what}</td>
  <td>${httpBadge(entry.status)}</td>
  <td class="num">${entry.duration_ms.toFixed(1)} ms</td>
  <td>${charges.length ? charges : '—'}</td>${site.proxy ? html`
  <td>${findingsBadge(entry.findings)}</td>` : ''}
</tr>
`;
}

export function requestsPage(viewer: Viewer, entries: readonly JournalEntry[], filters: RequestFilters, query: string, cursor: number, dropped: number, notice?: Notice): string {
  const site = viewer.site ?? SERVE_SITE;
  const rows = [...entries].reverse().map((entry) => requestRow(entry, site));
  return page('Requests', viewer, 'requests', html`<h1>Requests</h1>
<p class="muted">${site.proxy ? 'Every exchange through the proxy, with the findings of its checks' : "Every request made with the company's tokens and every postback attempt"}, newest first; new ones appear as they come.${dropped > 0 ? ` ${dropped.toLocaleString('en')} older entries were dropped from the window.` : ''}</p>
${filterForm(site, filters)}
<div id="live-region">
<div class="table-wrap" tabindex="0"><table class="requests">
<caption class="visually-hidden">Journal entries, newest first</caption>
<thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">Dir</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Took</th><th scope="col">Charges</th>${site.proxy ? html`<th scope="col">Findings</th>` : ''}</tr></thead>
<tbody id="entries">${rows}</tbody>
</table></div>
${entries.length === 0 ? html`<p class="empty" id="no-entries">No request yet${query ? ' matches these filters' : ''}.</p>` : ''}
</div>`, { kind: 'requests', query, cursor }, notice);
}

const pretty = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** A body as a block; each member a problem points at is named beside it. */
function bodyBlock(label: string, value: unknown, id: string): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${label}</h2><pre class="body" tabindex="0">${pretty(value)}</pre></section>`;
}

const DIRECTION_WORDS: Record<JournalEntry['direction'], string> = {
  in: 'in: a request to the API', out: 'out: a postback attempt', tunnel: 'tunnel: a CONNECT to another host, passed through untouched (its bytes are never read)',
};

/** An entry's findings: what its checks saw that differs from the contract. */
function findingsSection(findings: readonly Finding[]): Html {
  return html`<section aria-labelledby="findings-h"><h2 id="findings-h">Findings (${findings.length})</h2>${findings.length
    ? table(['Severity', 'Kind', 'In', 'Path', 'Expected', 'Seen'], findings.map((f) => [html`<span class="badge findings-${f.severity}">${f.severity}</span>`, f.kind, f.direction, html`<code>${f.path || '(the body)'}</code>`, f.expected, f.seen]))
    : html`<p class="muted">None: the exchange matches the contract.</p>`}</section>`;
}

export function entryPage(viewer: Viewer, entry: AnyEntry): string {
  const site = viewer.site ?? SERVE_SITE;
  const target = entry.direction === 'tunnel' ? tunnelTarget(entry) : entry.path;
  const rows: [string, Html | string][] = [
    ['Direction', DIRECTION_WORDS[entry.direction]],
    ['Method and path', `${entry.method} ${target}`],
    ['Status', httpBadge(entry.status)],
    ['At', when(entry.at)],
    ...(site.proxy ? [] : [['Sandbox time', when(entry.sandbox_at)] as [string, Html | string]]),
    ['Took', `${entry.duration_ms.toFixed(1)} ms`],
  ];
  if (entry.direction === 'in') {
    rows.push(['Token', entry.token_name ? `${entry.token_name} (${entry.token_hint ?? ''})` : site.proxy ? text(entry.token_hint) : '—'], ['Idempotency-Key', text(entry.idempotency_key)], ['Replayed', entry.replayed ? 'yes' : 'no']);
  } else if (entry.direction === 'out') {
    rows.push(['Event', `${text(entry.event)} (${text(entry.event_id)})`], ['Attempt', text(entry.attempt)], ['URL', text(entry.url)], ['Signature headers', entry.signature_headers.join(', ') || '—']);
  }
  if (entry.error) rows.push(['Error', entry.error]);
  rows.push(['Charges', entry.invoice_ids.length ? html`${chargeLinks(site, entry.invoice_ids)}` : '—']);
  const query = Object.entries(entry.query);
  const problems = entry.problems.length
    ? html`<section aria-labelledby="problems-h"><h2 id="problems-h">Validation problems</h2><ul class="problems">${entry.problems.map((p) => html`<li><code>${p.path}</code>: ${p.message}</li>`)}</ul></section>`
    : '';
  return page(`Entry ${entry.id}`, viewer, 'requests', html`<p><a href="${site.base}/requests">← Requests</a></p>
<h1>Entry ${entry.id}: ${entry.method} ${target}</h1>
${keyValues(rows)}
${site.proxy ? findingsSection(entry.findings ?? []) : ''}
${problems}
${query.length ? html`<section aria-labelledby="query-h"><h2 id="query-h">Query</h2>${keyValues(query.map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]))}</section>` : ''}
<section aria-labelledby="headers-h"><h2 id="headers-h">Headers</h2>${keyValues(Object.entries(entry.headers))}</section>
${bodyBlock(entry.direction === 'in' ? 'Request body' : 'Postback body', entry.body, 'body-h')}
${bodyBlock(entry.direction === 'in' ? 'Answer' : "Receiver's answer", entry.response_body, 'answer-h')}`);
}

function keyValues(rows: readonly (readonly [string, Html | string])[]): Html {
  if (rows.length === 0) return html`<p class="muted">None.</p>`;
  return html`<dl class="kv">${rows.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

// ---- charges

export function chargesPage(viewer: Viewer, records: readonly ChargeRecord[], search: { q?: string; status?: string; method?: string }, note?: string, next?: string): string {
  const option = (value: string, label: string, current: string | undefined) => html`<option value="${value}"${current === value ? html` selected` : ''}>${label}</option>`;
  const rows = records.map((r) => html`<tr>
  <td><a href="/dashboard/charges/${r.id}">${r.id}</a></td>
  <td>${text(r.secureId)}</td>
  <td>${when(r.createdAt)}</td>
  <td>${METHOD_WORDS[r.paymentMethod] ?? text(r.paymentMethod)}</td>
  <td class="num">${money(r.amount)}</td>
  <td>${statusBadge(r.status)}</td>
  <td>${text(r.client.name)}</td>
</tr>`);
  return page('Charges', viewer, 'charges', html`<h1>Charges</h1>
<form method="get" action="/dashboard/charges" class="filters" role="search" aria-label="Find charges">
  <label>Find <input name="q" value="${search.q ?? ''}" placeholder="id, INV-…, order, pix code, checkout link, boleto line" size="36"></label>
  <label>Status <select name="status">${option('', 'any', search.status ?? '')}${Object.keys(STATUS_WORDS).map((s) => option(s, STATUS_WORDS[s] ?? s, search.status))}</select></label>
  <label>Method <select name="method">${option('', 'any', search.method ?? '')}${Object.entries(METHOD_WORDS).map(([m, label]) => option(m, label, search.method))}</select></label>
  <button type="submit">Find</button>
</form>
<div id="live-region">
${note ? html`<p class="muted">${note}</p>` : ''}
${records.length === 0 ? html`<p class="empty">No charge found.</p>` : html`<div class="table-wrap" tabindex="0"><table>
<caption class="visually-hidden">Charges, newest first</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Secure id</th><th scope="col">Created</th><th scope="col">Method</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Payer</th></tr></thead>
<tbody>${rows}</tbody></table></div>`}
${next ? html`<p><a href="${next}">Older charges →</a></p>` : ''}
</div>`, { kind: 'region', query: '' });
}

export interface ChargeView {
  record: ChargeRecord;
  entries: readonly JournalEntry[];
  events: readonly WebhookEvent[];
}

/** The actions the charge's status allows now, in the CLI's order. */
export function chargeActions(record: ChargeRecord): (SandboxAction | 'refund')[] {
  const actions: (SandboxAction | 'refund')[] = SANDBOX_ACTION_NAMES.filter((action) => canTransition(record.status, SANDBOX_ACTIONS[action].status));
  if (record.status === 'paid' && record.refundedAmount < record.amount) actions.push('refund');
  return actions;
}
export const ACTION_WORDS: Record<SandboxAction | 'refund', string> = { pay: 'Pay', expire: 'Expire', cancel: 'Cancel', chargeback: 'Charge back', refund: 'Refund' };

export function chargePage(viewer: Viewer, view: ChargeView, notice?: Notice): string {
  const r = view.record;
  const payer = r.client;
  const fee = r.fee;
  const summary: [string, Html | string][] = [
    ['Status', statusBadge(r.status)],
    ['Amount', money(r.amount)],
    ['Method', METHOD_WORDS[r.paymentMethod] ?? text(r.paymentMethod)],
    ['Secure id', text(r.secureId)],
    ['Order (externalRef)', text(r.externalRef)],
    ['Created', when(r.createdAt)],
    ['Paid', r.paidAt ? when(r.paidAt) : '—'],
    ['Refunded', money(r.refundedAmount)],
  ];
  if (r.refusedReason) summary.push(['Refused because', text(r.refusedReason)]);
  if (r.pix?.expiresAt) summary.push(['Pix expires', when(r.pix.expiresAt)]);
  if (r.boleto?.digitableLine) summary.push(['Boleto line', text(r.boleto.digitableLine)]);
  if (r.card) summary.push(['Card', `${r.card.brand} ${r.card.firstDigits}…${r.card.lastDigits}`]);
  if (r.invoice.token_checkout) summary.push(['Checkout page', html`<a href="/checkout/${String(r.invoice.token_checkout)}">open the payer's page</a>`]);
  const actions = viewer.readOnly ? [] : chargeActions(r);
  const { items, refunds, timeline } = r;
  return page(`Charge ${text(r.id)}`, viewer, 'charges', html`<p><a href="/dashboard/charges">← Charges</a></p>
<h1>Charge ${text(r.id)} <span class="muted">${text(r.secureId)}</span></h1>
<div id="live-region">
${notice ? noticeBox(notice) : ''}
<section aria-labelledby="actions-h"><h2 id="actions-h">Sandbox actions</h2>
${actions.length ? html`<ul class="actions">${actions.map((a) => html`<li><a class="button" href="/dashboard/charges/${text(r.id)}/${a}">${ACTION_WORDS[a]}…</a></li>`)}</ul>` : html`<p class="muted">${viewer.readOnly ? 'This session is read-only.' : 'None: the charge is final.'}</p>`}
</section>
<section aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>${keyValues(summary)}</section>
<section aria-labelledby="payer-h"><h2 id="payer-h">Payer</h2>${keyValues([['Name', text(payer.name)], ['CPF/CNPJ', documentText(payer.cpf_cnpj)], ['E-mail', text(payer.email)], ['Phone', text(payer.phone)]])}</section>
<section aria-labelledby="fee-h"><h2 id="fee-h">Fee</h2>${keyValues([['Estimated fee', money(fee.estimatedFee)], ['Fixed', money(fee.fixedAmount)], ['Spread', `${String(fee.spreadPercentage).replace('.', ',')}%`], ['Net', money(fee.netAmount)]])}</section>
<section aria-labelledby="items-h"><h2 id="items-h">Items</h2>${items.length ? table(['Item', 'Qty', 'Unit price', 'Total'], items.map((i) => [i.title, String(i.quantity), money(i.unitPrice), money(i.unitPrice * i.quantity)])) : html`<p class="muted">None.</p>`}</section>
${refunds.length ? html`<section aria-labelledby="refunds-h"><h2 id="refunds-h">Refunds</h2>${table(['At', 'Amount', 'Reason'], refunds.map((f) => [when(f.createdAt), money(f.amount), text(f.reason)]))}</section>` : ''}
<section aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2>${table(['At', 'Status', 'Note', 'By'], timeline.map((t) => [when(t.at), statusBadge(t.status), t.note, t.by ?? 'server']))}</section>
${r.metadata ? html`<section aria-labelledby="meta-h"><h2 id="meta-h">Metadata</h2>${keyValues(Object.entries(r.metadata).map(([k, v]) => [k, text(v)]))}</section>` : ''}
<section aria-labelledby="postbacks-h"><h2 id="postbacks-h">Postbacks</h2>${postbacks(view.events, viewer, r)}</section>
<section aria-labelledby="touched-h"><h2 id="touched-h">Requests and attempts that touched it</h2>${view.entries.length ? html`<div class="table-wrap" tabindex="0"><table>
<thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">Dir</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Took</th><th scope="col">Charges</th></tr></thead>
<tbody>${[...view.entries].reverse().map((entry) => requestRow(entry))}</tbody></table></div>` : html`<p class="muted">None in the journal's window.</p>`}</section>
</div>`, { kind: 'region', query: `invoice_id=${encodeURIComponent(String(r.id))}` }, undefined);
}

function postbacks(events: readonly WebhookEvent[], viewer: Viewer, record: ChargeRecord): Html {
  if (events.length === 0) return html`<p class="muted">No event yet${record.postbackUrl ? '' : ' (the charge has no postback URL)'}.</p>`;
  return html`${events.map((e) => html`<article class="event">
  <h3>${text(e.event)} <span class="muted">${text(e.id)}</span> · ${text(e.state)}</h3>
  <p class="muted">To ${text(e.url)}</p>
  ${e.attempts.length
    ? table(['Attempt', 'At', 'Answer', 'Took', 'Error', "Receiver's answer"], e.attempts.map((a, k) => [String(k + 1), when(a.at), text(a.status_code), `${a.duration_ms} ms`, text(a.error), html`<code>${text(a.response_excerpt)}</code>`]))
    : html`<p class="muted">No attempt yet.</p>`}
  <details><summary>The body sent</summary><pre class="body" tabindex="0">${pretty(e.payload)}</pre></details>
  ${viewer.readOnly ? '' : html`<p><a class="button" href="/dashboard/charges/${text(record.id)}/resend?event=${encodeURIComponent(String(e.id))}">Resend ${text(e.id)}…</a></p>`}
</article>`)}`;
}

function table(head: readonly string[], rows: readonly (readonly (Html | string)[])[]): Html {
  return html`<div class="table-wrap" tabindex="0"><table><thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${row.map((cell) => html`<td>${cell}</td>`)}</tr>`)}</tbody></table></div>`;
}

/** The confirmation of one action: what it will do, a form that does it (an amount in reais for a refund). */
export function confirmPage(viewer: Viewer, record: ChargeRecord, action: SandboxAction | 'refund' | 'resend', extra: { event?: string; amount?: string; problem?: string }): string {
  const what = action === 'refund'
    ? `Refund charge ${text(record.id)} (${money(record.amount)}, ${money(record.refundedAmount)} refunded so far)?`
    : action === 'resend'
      ? `Send event ${extra.event ?? ''} of charge ${text(record.id)} to ${text(record.postbackUrl)} again?`
      : `${ACTION_WORDS[action]} charge ${text(record.id)} (${money(record.amount)}, now ${STATUS_WORDS[String(record.status)] ?? text(record.status)})? It becomes ${STATUS_WORDS[SANDBOX_ACTIONS[action].status]}.`;
  const left = record.amount - record.refundedAmount;
  const title = action === 'resend' ? 'Resend an event' : `${ACTION_WORDS[action]} a charge`;
  return page(title, viewer, 'charges', html`<p><a href="/dashboard/charges/${text(record.id)}">← Charge ${text(record.id)}</a></p>
<h1>${title}</h1>
<form method="post" action="/dashboard/charges/${text(record.id)}/${action}" class="stack confirm">
  <p>${what}</p>
  <input type="hidden" name="csrf" value="${viewer.csrf}">
  ${action === 'resend' ? html`<input type="hidden" name="event" value="${extra.event ?? ''}">` : ''}
  ${action === 'refund' ? html`<label for="amount">Amount in reais (up to ${money(left)})</label>
  <input id="amount" name="amount" inputmode="decimal" value="${extra.amount ?? formatBRL(left).slice(3)}" required${extra.problem ? html` aria-invalid="true" aria-describedby="amount-problem"` : ''}>
  ${extra.problem ? html`<p id="amount-problem" class="field-problem">${extra.problem}</p>` : ''}
  <label for="reason">Reason (optional)</label>
  <input id="reason" name="reason" maxlength="255">` : ''}
  <div class="row"><button type="submit">Confirm: ${action === 'resend' ? 'resend' : ACTION_WORDS[action].toLowerCase()}</button> <a href="/dashboard/charges/${text(record.id)}">Cancel</a></div>
</form>`);
}

// ---- company

export interface CompanyView {
  name: string;
  clock: SandboxClock;
  chaos: ChaosRule;
  signing: WebhookSigning;
  scenarios: readonly Scenario[];
}

export function companyPage(viewer: Viewer, view: CompanyView, notice?: Notice): string {
  const csrf = html`<input type="hidden" name="csrf" value="${viewer.csrf}">`;
  const disabled = viewer.readOnly ? html` disabled` : '';
  const c = view.chaos;
  const check = (name: string, label: string, on: boolean) => html`<label class="check"><input type="checkbox" name="${name}" value="true"${on ? html` checked` : ''}${disabled}> ${label}</label>`;
  return page('Company', viewer, 'company', html`<h1>${view.name}</h1>
<div id="live-region">
<section aria-labelledby="clock-h"><h2 id="clock-h">Sandbox clock</h2>
${keyValues([['Now (sandbox)', when(view.clock.now)], ['Ahead of real time', view.clock.offset_seconds === 0 ? 'no: real time' : `${Math.round(view.clock.offset_seconds).toLocaleString('en')} s`]])}
<form method="post" action="/dashboard/company/clock/advance" class="row">${csrf}
  <label for="advance">Advance by</label> <input id="advance" name="amount" inputmode="numeric" size="5" value="1" required${disabled}>
  <select name="unit" aria-label="Unit"${disabled}><option value="60">minutes</option><option value="3600" selected>hours</option><option value="86400">days</option><option value="1">seconds</option></select>
  <button type="submit"${disabled}>Advance</button>
</form>
<form method="post" action="/dashboard/company/clock/set" class="row">${csrf}
  <label for="set-now">Set to</label> <input id="set-now" name="now" placeholder="2026-12-01T12:00:00-03:00" size="26" required${disabled}>
  <button type="submit"${disabled}>Set</button>
</form>
<form method="post" action="/dashboard/company/clock/reset" class="row">${csrf}<button type="submit"${disabled}>Reset to real time</button></form>
</section>
<section aria-labelledby="chaos-h"><h2 id="chaos-h">Postback chaos</h2>
<p>${c.active ? html`<strong>On</strong>${c.invoice_id ? ` for ${c.invoice_id} only` : ' for every charge'}.` : 'Off: postbacks are delivered as they should be.'}</p>
<form method="post" action="/dashboard/company/chaos" class="stack">${csrf}
  ${check('duplicate', 'Send each postback twice', c.duplicate)}
  ${check('reorder', "Send a charge's pending events newest first", c.reorder)}
  ${check('bad_signature', 'Sign with a wrong secret', c.bad_signature)}
  <label for="delay">Hold each delivery (ms)</label><input id="delay" name="delay_ms" inputmode="numeric" value="${c.delay_ms}" size="6"${disabled}>
  <label for="drop">Fail the first N attempts of each event</label><input id="drop" name="drop_first" inputmode="numeric" value="${c.drop_first}" size="3"${disabled}>
  <label for="chaos-charge">Only for the charge (id or INV-…; empty: every charge)</label><input id="chaos-charge" name="invoice_id" value="${c.invoice_id ?? ''}" size="14"${disabled}>
  <div class="row"><button type="submit"${disabled}>Set chaos</button></div>
</form>
<form method="post" action="/dashboard/company/chaos/clear" class="row">${csrf}<button type="submit"${disabled}>Clear chaos</button></form>
</section>
<section aria-labelledby="signing-h"><h2 id="signing-h">Postback signing key</h2>
<p>${view.signing.key === 'token' ? html`X-Webhook-Signature is keyed by the API token <strong>${view.signing.token_name ?? ''}</strong>.` : 'X-Webhook-Signature is keyed by the webhook secret.'}</p>
${view.signing.key === 'token'
    ? html`<form method="post" action="/dashboard/company/signing" class="row">${csrf}<input type="hidden" name="key" value="secret"><button type="submit"${disabled}>Key by the webhook secret again</button></form>`
    : html`<p class="muted">To key it by a token, run <code>pinvoice webhooks signing --key token</code> with that token (the dashboard never holds one).</p>`}
</section>
</div>
<section aria-labelledby="scenarios-h"><h2 id="scenarios-h">Scenarios</h2>
<p class="muted">The magic values that decide an outcome.</p>
${table(['Kind', 'Send', 'Outcome'], view.scenarios.map((s) => [text(s.kind), html`<code>${s.value}</code>`, s.outcome]))}
</section>`, { kind: 'region', query: '' }, notice);
}
