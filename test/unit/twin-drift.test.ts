// The twin-drift comparison (src/proxy/drift/twin.ts) and what drift --against sends serve
// (src/proxy/drift/resend.ts): members and their types, null as a state, the groups and the fidelity
// figure; a redacted card replaced by the test card of production's outcome, what is skipped and why.
import { describe, expect, it } from 'vitest';
import type { ProxyEntry } from '../../src/proxy/journal.js';
import { planResend } from '../../src/proxy/drift/resend.js';
import { compareAnswers, membersOf, sameTypes } from '../../src/proxy/drift/twin.js';

const types = (...names: string[]) => new Set(names) as Set<any>;
const answer = (body: unknown, status = 200, operation = 'getTransaction') => ({ operation, method: 'GET', status, body, entryId: 1 });

describe('shapes', () => {
  it('lists every member as a pointer, array elements as *, with its JSON types', () => {
    const members = membersOf({ a: 1, items: [{ unitPrice: 5 }, { unitPrice: '5', 'x/y': null }] });
    expect(Object.fromEntries([...members].map(([path, set]) => [path, [...set]]))).toEqual({
      '/a': ['number'], '/items': ['array'], '/items/*': ['object'], '/items/*/unitPrice': ['number', 'string'], '/items/*/x~1y': ['null'],
    });
  });

  it('null is a state, not a type, unless one side sends nothing else', () => {
    expect(sameTypes(types('null', 'string'), types('string'))).toBe(true);
    expect(sameTypes(types('null'), types('string', 'null'))).toBe(true);
    expect(sameTypes(types('null'), types('object'))).toBe(false);
    expect(sameTypes(types('number'), types('string'))).toBe(false);
  });

  it('groups only-production, only-serve (not what lies under them), types-differ and a status one side only; the fidelity of production members', () => {
    const production = [answer({ id: 1, amount: '10', extra: { deep: 1 } }), answer({ message: 'x' }, 422, 'createInvoice')];
    const serve = [answer({ id: 2, amount: 10, pix: { expiresAt: 't' } }), answer({ data: {} }, 200, 'createInvoice')];
    const { groups, fidelity, pairs } = compareAnswers(production, serve);
    expect(groups.map((g) => [g.kind, g.operation, g.status, g.path])).toEqual([
      ['types-differ', 'getTransaction', 200, '/amount'],
      ['status-only-production', 'createInvoice', 422, ''],
      ['only-production', 'getTransaction', 200, '/extra'],
      ['status-only-serve', 'createInvoice', 200, ''],
      ['only-serve', 'getTransaction', 200, '/pix'],
    ]);
    expect(pairs).toBe(1);
    // production's members: /id /amount /extra /extra/deep /message; serve sends /id alike
    expect(fidelity).toEqual({ matched: 1, of: 5, ratio: 0.2 });
  });
});

const entry = (over: Partial<ProxyEntry>): ProxyEntry => ({
  id: 1, at: '2026-12-01T00:00:00.000Z', direction: 'in', method: 'POST', path: '/api/v2/invoices', query: {}, status: 200,
  upstream: { status: over.status ?? 200, duration_ms: 1 }, findings: [], body: null, response_body: null, ...over,
} as ProxyEntry);
const cardCreate = (status: string, number = '555555******4444', extra: Record<string, unknown> = {}) => entry({
  body: { method: 'credit_card', card: { number, first_name: 'A', last_name: 'B', month: '12', year: '2031' }, ...extra },
  response_body: { data: { invoice_id: 'INV-1', status, refusedReason: status === 'refused' ? 'insufficient_funds' : null } },
});

describe('what serve is sent', () => {
  it("a masked card becomes the test card of production's outcome, of its brand where one is", () => {
    const cards = ['paid', 'refused', 'waiting_3ds'].map((status) => (planResend([cardCreate(status)]).steps[0] as { body: any }).body.card);
    expect(cards.map((card) => card.number)).toEqual(['5555555555554444', '4000000000009995', '4000000000003220']);
    expect(cards[0].security_code).toBe('123');
    const token = planResend([cardCreate('paid', '', { card: { token: '[redacted]' } })]).steps[0] as { body: any };
    expect(token.body.card.token).toBe('tok_4111111111111111');
  });

  it('skips, with the reason, what cannot be sent as it was', () => {
    const plan = planResend([
      cardCreate('in_analysis'),
      entry({ ...cardCreate('paid'), status: 422, upstream: { status: 422, duration_ms: 1 } }),
      entry({ body: { method: 'pix', payer: { name: '[redacted]' } } }),
      entry({ status: 403, upstream: null, body: { method: 'pix' } }),
      entry({ method: 'GET', path: '/api/v2/invoices/99', body: null }),
    ]);
    expect(plan.steps).toEqual([]);
    expect([...plan.skipped.keys()]).toEqual([
      'card creates production answered with a status no serve test card makes (in_analysis)',
      'card creates production refused (HTTP 422): which card was sent cannot be known once redacted',
      'creates holding a value the journal redacted beyond use (at /payer/name)',
      'creates that never reached production (refused by the proxy, or no answer)',
      'lookups of charges the journal did not create',
    ]);
  });

  it('a lookup is made as production asked it, once until a refund changes the charge', () => {
    const get = (id: number, path: string, query = {}) => entry({ id, method: 'GET', path, query, response_body: { id: 7, secureId: 'INV-1' } });
    const plan = planResend([
      entry({ body: { method: 'pix' }, response_body: { data: { invoice_id: 'INV-1' } } }),
      get(2, '/api/v2/invoices/INV-1'), get(3, '/api/v2/invoices/INV-1'), get(4, '/api/v2/invoices', { id: '7' }),
      entry({ id: 5, path: '/api/v2/invoices/7/refund', body: { amount_cents: 100 }, response_body: { data: { id: 7 } } }),
      get(6, '/api/v2/invoices/INV-1'),
    ]);
    expect(plan.steps.map((step) => (step.kind === 'create' ? 'create' : `${step.kind} ${step.operation} by ${step.by}`))).toEqual([
      'create', 'lookup getTransaction by secureId', 'lookup searchTransaction by id', 'refund createRefund by id', 'lookup getTransaction by secureId',
    ]);
    expect(plan.production.map((a) => a.entryId)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('a record wrapped in data on one side only', () => {
  it('is one group at /data, and the records are compared as the CLI reads them', () => {
    const production = [{ operation: 'createRefund', method: 'POST', status: 200, body: { data: { id: 1, status: 'refunded', extra: 1 } } }];
    const serve = [{ operation: 'createRefund', method: 'POST', status: 200, body: { id: 2, status: 'refunded' } }];
    const { groups, fidelity } = compareAnswers(production, serve);
    expect(groups.map((g) => [g.kind, g.path])).toEqual([['only-production', '/data'], ['only-production', '/extra']]);
    expect(fidelity).toEqual({ matched: 2, of: 3, ratio: 2 / 3 });
  });
});
