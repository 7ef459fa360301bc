// `serve --fixtures` through startServer, on the run's engine: a company with the token, webhook secret
// and fees given, and a charge in each state, each one compared with the same charge driven through the
// HTTP API by hand (its record, timeline, refunds, movements and postback events), the company's
// balances, signatures keyed with the secret given, a second start that adds nothing, and files refused
// whole without a write.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodySignature, signatureHeader } from '../../src/domain/signature.js';
import { FixturesError } from '../../src/server/fixtures.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { CARDS, SAMPLE_3DS, boletoCharge, cardCharge, create } from '../support/charges.js';
import { engineDb } from '../support/engine.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { request, validPix, type TestServer } from '../support/server.js';

const TOKEN = 'pinv_test_fixture_company_0000001';
const SECRET = 'whsec_fixture_company_secret_000001';
const dir = mkdtempSync(join(tmpdir(), 'pinvoice-fixtures-'));

type ApiStep = 'pay' | 'expire' | 'cancel' | 'chargeback' | ['refund', Record<string, unknown>] | ['3ds', Record<string, unknown>];

/** One charge per state (two ways to refused), each with the API calls that take a charge there by hand. */
const CASES: { name: string; state: string; body: Record<string, unknown>; refunds?: Record<string, unknown>[]; api: ApiStep[] }[] = [
  { name: 'pix-pending', state: 'pending', body: validPix(), api: [] },
  { name: 'pix-paid', state: 'paid', body: validPix({ metadata: { order: '1001' } }), api: ['pay'] },
  { name: 'pix-partial', state: 'partially_refunded', body: validPix(), refunds: [{ amount_cents: 500, reason: 'one returned' }], api: ['pay', ['refund', { amount_cents: 500, reason: 'one returned' }]] },
  { name: 'boleto-refunded', state: 'refunded', body: boletoCharge(), api: ['pay', ['refund', {}]] },
  { name: 'pix-expired', state: 'expired', body: validPix(), api: ['expire'] },
  { name: 'boleto-canceled', state: 'canceled', body: boletoCharge(), api: ['cancel'] },
  { name: 'card-waiting', state: 'waiting_3ds', body: cardCharge(CARDS.requires3ds), api: [] },
  { name: 'card-refused', state: 'refused', body: cardCharge(CARDS.declined), api: [] },
  { name: 'card-refused-3ds', state: 'refused', body: cardCharge(CARDS.requires3ds), api: [['3ds', { ...SAMPLE_3DS, eci: '07' }]] },
  { name: 'card-paid-3ds', state: 'paid', body: cardCharge(CARDS.requires3ds), api: [['3ds', SAMPLE_3DS]] },
  { name: 'card-chargedback', state: 'chargedback', body: cardCharge(CARDS.approved), refunds: [{ amount_cents: 990 }], api: [['refund', { amount_cents: 990 }], 'chargeback'] },
];

function fixturesFile(postbackUrl: string) {
  return {
    companies: [{
      token: TOKEN, webhook_secret: SECRET, name: 'Loja Fixture', cnpj: '11.222.333/0001-81',
      fees: { pix: { spread_percentage: 1.5 }, credit_card: { fixed_amount: 50 } },
    }],
    charges: CASES.map(({ name, state, body, refunds }) => ({ state, request: { ...body, external_id: name, postback_url: postbackUrl }, ...(refunds && { refunds }) })),
  };
}

let db: string;
let receiver: Receiver;
let server: RunningServer;
const api = () => ({ url: server.url, token: TOKEN }) as TestServer;
const get = async (path: string) => (await request(api(), 'GET', path)).body;

const start = (fixtures: unknown) =>
  startServer({ host: '127.0.0.1', port: 0, db, version: 'test', fixtures, expiryCheckMs: 0, postbacks: { attempts: 1, baseDelayMs: 10, timeoutMs: 2000 } });

beforeAll(async () => {
  db = await engineDb(join(dir, 'fixtures.db'));
  receiver = await startReceiver();
  server = await start(fixturesFile(receiver.url));
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same charge driven through the HTTP API, as a merchant's test would. */
async function byHand(name: string, body: Record<string, unknown>, steps: ApiStep[]) {
  const charge = await create(api(), { ...body, external_id: `${name}-by-hand`, postback_url: receiver.url });
  for (const step of steps) {
    const [path, payload] = typeof step === 'string' ? [`/api/v2/sandbox/invoices/${charge.id}/${step}`, undefined] : [`/api/v2/invoices/${charge.id}/${step[0]}`, step[1]];
    const reply = await request(api(), 'POST', path, payload === undefined ? {} : { body: payload });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
  return charge.id as number;
}

/** What a record says of the charge's history, without what differs between any two charges (ids, times). */
async function history(id: number) {
  const tx = await get(`/api/v2/invoices/${id}`);
  const own = (text: string) => text.replace(tx.secureId, 'INV');
  const events = (await get(`/api/v2/invoices/${id}/events`)).data.map((e: any) => e.event);
  return {
    status: tx.status, amount: tx.amount, refundedAmount: tx.refundedAmount, refusedReason: tx.refusedReason, paid: tx.paidAt !== null, fee: tx.fee, card: tx.card,
    timeline: tx.timeline.map((t: any) => ({ status: t.status, note: t.note, by: t.by })),
    refunds: tx.refunds.map((r: any) => ({ amount: r.amount, reason: r.reason })),
    movements: tx.financial_movements.map((m: any) => ({ type: m.type, amount: m.amount, balance: m.balance, description: own(m.description) })),
    events,
  };
}

describe('serve --fixtures', () => {
  it('puts each charge in its state, with the record, timeline, refunds, movements and events the API gives the same charge', async () => {
    const loaded = server.fixtures?.charges ?? [];
    expect(loaded.map((c) => [c.external_id, c.created])).toEqual(CASES.map((c) => [c.name, true]));
    for (const [i, c] of CASES.entries()) {
      const fixture = await history(loaded[i]?.id ?? 0);
      expect(fixture.status).toBe(c.state === 'partially_refunded' ? 'paid' : c.state);
      expect(fixture, c.name).toEqual(await history(await byHand(c.name, c.body, c.api)));
    }
    const partial = await get(`/api/v2/invoices/${loaded[2]?.secure_id}`);
    expect([partial.refundedAmount, partial.timeline.at(-1).note]).toEqual([500, 'partial refund of R$ 5,00; R$ 14,90 left']);
  });

  it('opens the company with the token given: its name, CNPJ, fees, and balances that are the sum of its movements', async () => {
    const company = await get('/api/v2/company');
    expect([company.fantasy_name, company.cnpj]).toEqual(['Loja Fixture', '11.222.333/0001-81']);
    const pix = await get(`/api/v2/invoices/${server.fixtures?.charges[1]?.id}`);
    expect(pix.fee).toEqual({ estimatedFee: 30, fixedAmount: 0, netAmount: 1960, spreadPercentage: 1.5 });
    const all = (await get('/api/v2/invoices?limit=100')).data;
    const sum = (balance: string) => all.flatMap((tx: any) => tx.financial_movements).filter((m: any) => m.balance === balance).reduce((n: number, m: any) => n + m.amount, 0);
    expect([company.balance_pix, company.balance_card, company.balance_bank_slip]).toEqual([sum('balance_pix'), sum('balance_card'), sum('balance_bank_slip')]);
    expect(company.balance_pix).not.toBe(0);
    expect((await request({ url: server.url, token: 'pinv_test_not_a_fixture_token' } as TestServer, 'GET', '/api/v2/company')).status).toBe(401);
  });

  it('queues the postbacks the API would, signed with the webhook secret given', async () => {
    const loaded = server.fixtures?.charges ?? [];
    const events = await Promise.all(loaded.map(async (c) => (await get(`/api/v2/invoices/${c.id}/events`)).data.map((e: any) => `${c.secure_id} ${e.event}`)));
    await receiver.waitFor(events.flat().length);
    // the charges driven by hand post to the same receiver: each fixture's events are among what came
    await expect.poll(() => receiver.received.map((r) => `${r.json?.invoice_id} ${r.json?.event}`)).toEqual(expect.arrayContaining(events.flat()));
    for (const delivery of receiver.received) {
      expect(delivery.headers['x-webhook-signature']).toBe(bodySignature(SECRET, delivery.body));
      const t = Number(/t=(\d+)/.exec(String(delivery.headers['pinvoice-signature']))?.[1]);
      expect(delivery.headers['pinvoice-signature']).toBe(signatureHeader(SECRET, t, delivery.body));
    }
  });

  it('adds nothing on a second start with the same file', async () => {
    const before = (await get('/api/v2/invoices?limit=100')).data.length;
    const again = await start(fixturesFile(receiver.url));
    try {
      expect(again.fixtures?.companies).toEqual([{ id: server.fixtures?.companies[0]?.id, created: false }]);
      expect(again.fixtures?.charges.map((c) => [c.id, c.created])).toEqual(server.fixtures?.charges.map((c) => [c.id, false]));
    } finally {
      await again.close();
    }
    expect((await get('/api/v2/invoices?limit=100')).data.length).toBe(before);
  });

  it('refuses a bad file whole, naming each bad path, and writes nothing', async () => {
    const before = (await get('/api/v2/invoices?limit=100')).data.length;
    const bad = {
      companies: [{ token: 'pinv_test_new_company_00000001' }, { token: 'short' }],
      charges: [{ external_id: 'good', state: 'paid', method: 'pix', amount: 1000 }, { external_id: 'bad', state: 'payed', method: 'pix', amount: 1000 }],
    };
    const error = await start(bad).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(FixturesError);
    expect((error as FixturesError).details).toEqual([
      { path: 'companies[1].token', message: 'must be at least 16 printable characters without spaces' },
      { path: 'charges[1].state', message: '"payed" is not a state; did you mean paid?' },
    ]);
    // a company the database holds under the token, with another secret: refused in the load's transaction, which leaves nothing
    const conflict = { companies: [{ token: 'pinv_test_new_company_00000001' }, { token: TOKEN, webhook_secret: 'whsec_another_secret_0000000001' }], charges: [{ external_id: 'new', state: 'paid', method: 'pix', amount: 1000, company: undefined }] };
    const refused = await start(conflict).then(() => undefined, (e: unknown) => e);
    expect((refused as FixturesError).details.map((d) => d.path)).toEqual(['companies[1].webhook_secret']);
    expect(await server.store.companies.authenticate('pinv_test_new_company_00000001')).toBeUndefined();
    expect((await get('/api/v2/invoices?limit=100')).data.length).toBe(before);
  });

  it('loads the example file: a charge in every state, the short form filled in with a sandbox payer and test cards', async () => {
    const example = JSON.parse(readFileSync(new URL('../../examples/fixtures.json', import.meta.url), 'utf8'));
    const other = await startServer({ host: '127.0.0.1', port: 0, db: await engineDb(':memory:'), version: 'test', fixtures: example, postbacks: false });
    try {
      const charges = other.fixtures?.charges ?? [];
      expect(charges.length).toBe(example.charges.length);
      for (const charge of charges) expect([charge.external_id, charge.status]).toEqual([charge.external_id, charge.state === 'partially_refunded' ? 'paid' : charge.state]);
      const token = example.companies[0].token;
      const partial = charges.find((c) => c.external_id === 'card-partially-refunded');
      const record = (await request({ url: other.url, token } as TestServer, 'GET', `/api/v2/invoices/${partial?.secure_id}`)).body;
      expect([record.refundedAmount, record.amount, record.card.brand]).toEqual([4500, 9000, 'visa']);
    } finally {
      await other.close();
    }
  });
});
