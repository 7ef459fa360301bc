// What `pinvoice drift --against` sends to serve, read from a proxy's journal: each create production
// answered, its body as the journal kept it (a redacted card replaced by a serve test card that leads
// to production's outcome), and the lookups and refunds of the charges it made, in the journal's order.
// Pure: entries in, a plan out; a body that cannot be sent as it was is skipped with its reason.
import { detectBrand, TEST_CARDS, type CardOutcome, type DeclineReason } from '../../domain/card-outcome.js';
import { operationAt } from '../../api/operation-at.js';
import { REDACTED } from '../../server/journal/redact.js';
import type { ProxyEntry } from '../journal.js';
import type { Answer } from './twin.js';
import { isJsonObject as isObject } from '../../base/json-object.js';

/** A lookup or refund of a charge the journal created, named as production was asked it (integer id or secureId, in the path or the query). */
export interface Follow {
  kind: 'lookup' | 'refund';
  charge: number;
  operation: 'getTransaction' | 'searchTransaction' | 'createRefund';
  by: 'id' | 'secureId';
  body?: unknown;
}

export type Step = { kind: 'create'; charge: number; body: unknown; cardReplaced: boolean } | Follow;

export interface Plan {
  steps: Step[];
  skipped: Map<string, number>;
  /** production's answers to the operations serve is asked too */
  production: Answer[];
}

const FOLLOWED = ['getTransaction', 'searchTransaction', 'createRefund'] as const;
const COMPARED = new Set<string>(['createInvoice', ...FOLLOWED]);
const isFollowed = (operation: string): operation is Follow['operation'] => (FOLLOWED as readonly string[]).includes(operation);
const recordOf = (body: unknown) => (isObject(body) && isObject(body.data) ? body.data : body);

/** The charge refs (integer id, secureId) a create's or a record's answer names. */
function refsOf(body: unknown): string[] {
  const record = recordOf(body);
  if (!isObject(record)) return [];
  return [record.id, record.secureId, record.invoice_id].filter((ref) => typeof ref === 'string' || typeof ref === 'number').map(String);
}

/** The charge a lookup or refund names, from its path or its `id` query. */
function refOf(entry: ProxyEntry, operation: string): string | undefined {
  if (operation === 'searchTransaction') {
    const id = entry.query.id;
    return typeof id === 'string' ? id : undefined;
  }
  const segment = entry.path.split('/').filter(Boolean)[3];
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

const APPROVED = new Set(['paid', 'authorized', 'approved', 'captured']);
const DECLINED = new Set(['refused', 'declined', 'failed', 'denied']);

/** The test card whose outcome is production's answer to a card create, or why there is none. */
function testCardFor(answer: unknown, status: number, maskedNumber: string): { number: string } | { skip: string } {
  if (status >= 300) return { skip: `card creates production refused (HTTP ${status}): which card was sent cannot be known once redacted` };
  const record = recordOf(answer);
  const said = isObject(record) && typeof record.status === 'string' ? record.status : '';
  const given = isObject(record) ? record.refusedReason : undefined;
  // a reason no test card gives (or none) is declined all the same: generic_decline
  const reason = TEST_CARDS.some((c) => c.outcome.kind === 'declined' && c.outcome.reason === given) ? (given as DeclineReason) : 'generic_decline';
  let outcome: CardOutcome;
  if (APPROVED.has(said)) outcome = { kind: 'approved' };
  else if (DECLINED.has(said)) outcome = { kind: 'declined', reason };
  else if (said === 'waiting_3ds') outcome = { kind: 'requires_3ds' };
  else return { skip: `card creates production answered with a status no serve test card makes${/^[a-z_]{1,32}$/.test(said) ? ` (${said})` : ''}` };
  const same = (card: (typeof TEST_CARDS)[number]) => JSON.stringify(card.outcome) === JSON.stringify(outcome);
  const brand = detectBrand(maskedNumber.replace(/\D/g, '').slice(0, 6));
  const card = TEST_CARDS.find((c) => same(c) && detectBrand(c.number) === brand) ?? TEST_CARDS.find(same);
  return card ? { number: card.number } : { skip: 'card creates whose outcome no serve test card makes' };
}

/** A card's number (or token) masked by the journal, as the test card; its security code (removed) made up. */
function withTestCard(body: Record<string, unknown>, number: string): Record<string, unknown> {
  const card = { ...(body.card as Record<string, unknown>) };
  if (card.token === REDACTED) card.token = `tok_${number}`;
  else {
    card.number = number;
    card.security_code = detectBrand(number) === 'amex' ? '1234' : '123';
  }
  return { ...body, card };
}

/** The first place a value holds something the journal redacted (a secret, a masked card number), as a pointer. */
function redactedAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value === REDACTED || /\d\*{3,}\d/.test(value) || value.includes('…[cut: ') ? path || '(body)' : undefined;
  if (Array.isArray(value)) return value.map((v) => redactedAt(v, `${path}/*`)).find(Boolean);
  if (isObject(value)) return Object.entries(value).map(([k, v]) => redactedAt(v, `${path}/${k}`)).find(Boolean);
  return undefined;
}

/** The create's body as serve is sent it, or why it cannot be. */
function createBody(entry: ProxyEntry): { body: unknown; cardReplaced: boolean } | { skip: string } {
  if (!isObject(entry.body)) return { skip: typeof entry.body === 'string' && entry.body.includes('…[cut: ') ? 'creates whose body the journal kept cut (above 64 KiB)' : 'creates whose body is not a JSON object' };
  let body = entry.body;
  let cardReplaced = false;
  const card = body.card;
  const masked = isObject(card) ? (card.token === REDACTED ? 'tok' : typeof card.number === 'string' && /\*/.test(card.number) ? card.number : undefined) : undefined;
  if (masked !== undefined) {
    const chosen = testCardFor(entry.response_body, entry.status ?? 0, masked);
    if ('skip' in chosen) return chosen;
    body = withTestCard(body, chosen.number);
    cardReplaced = true;
  }
  const at = redactedAt(body);
  return at === undefined ? { body, cardReplaced } : { skip: `creates holding a value the journal redacted beyond use (at ${at})` };
}

/** One more of what was not sent, for this reason. */
export const skipOne = (plan: Pick<Plan, 'skipped'>, reason: string) => void plan.skipped.set(reason, (plan.skipped.get(reason) ?? 0) + 1);

/** What the plan keeps track of as it reads: the charges made (by every ref production gave them) and the lookups already planned. */
interface Reading {
  plan: Plan;
  charges: Map<string, number>;
  asked: Set<string>;
}

function planCreate(reading: Reading, entry: ProxyEntry): void {
  const prepared = createBody(entry);
  if ('skip' in prepared) return skipOne(reading.plan, prepared.skip);
  const charge = reading.plan.steps.filter((step) => step.kind === 'create').length;
  for (const ref of refsOf(entry.response_body)) reading.charges.set(ref, charge);
  reading.plan.steps.push({ kind: 'create', charge, ...prepared });
}

/** A lookup or refund of a charge the journal made; a lookup asked again before anything changed the charge is made once. */
function planFollow(reading: Reading, entry: ProxyEntry, operation: Follow['operation']): void {
  const ref = refOf(entry, operation) ?? '';
  const refs = [ref, ...refsOf(entry.response_body)];
  const charge = refs.map((r) => reading.charges.get(r)).find((c) => c !== undefined);
  if (charge === undefined) return skipOne(reading.plan, operation === 'createRefund' ? 'refunds of charges the journal did not create' : 'lookups of charges the journal did not create');
  for (const r of refs) reading.charges.set(r, charge);
  const by = /^\d+$/.test(ref) ? 'id' : 'secureId';
  if (operation === 'createRefund') {
    if (!isObject(entry.body) && entry.body !== null) return skipOne(reading.plan, 'refunds whose body is not a JSON object');
    reading.plan.steps.push({ kind: 'refund', charge, operation, by, body: entry.body ?? {} });
    for (const key of [...reading.asked]) if (key.startsWith(`${charge} `)) reading.asked.delete(key);
    return;
  }
  const key = `${charge} ${operation} ${by}`;
  if (reading.asked.has(key)) return;
  reading.asked.add(key);
  reading.plan.steps.push({ kind: 'lookup', charge, operation, by });
}

/** The plan for these entries (oldest first): production's answers to compare, and what serve is sent. */
export function planResend(entries: readonly ProxyEntry[]): Plan {
  const reading: Reading = { plan: { steps: [], skipped: new Map(), production: [] }, charges: new Map(), asked: new Set() };
  for (const entry of entries) {
    const operation = operationAt(entry.method, entry.path)?.id;
    if (operation === undefined || !COMPARED.has(operation) || entry.direction !== 'in') continue;
    if (operation === 'searchTransaction' && entry.query.id === undefined) continue;
    // the proxy's own answers (a refused write, an unreachable gateway) are not production's
    if (entry.status === null || entry.upstream?.status !== entry.status) {
      if (operation === 'createInvoice') skipOne(reading.plan, 'creates that never reached production (refused by the proxy, or no answer)');
      continue;
    }
    if (isObject(entry.response_body) || Array.isArray(entry.response_body)) {
      reading.plan.production.push({ operation, method: entry.method.toUpperCase(), status: entry.status, body: entry.response_body, entryId: entry.id });
    }
    if (operation === 'createInvoice') planCreate(reading, entry);
    else if (isFollowed(operation)) planFollow(reading, entry, operation);
  }
  return reading.plan;
}
