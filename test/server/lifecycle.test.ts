import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUSES } from '../../src/domain/status.js';
import { CARDS, SAMPLE_3DS, boletoCharge, cardCharge, chargeIn, create, refund, sandbox, threeDS } from '../support/charges.js';
import { eventually } from '../support/receiver.js';
import { request, startTestServer, validPix, type TestServer, sql } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// What each action does, and from which statuses the contract allows it.
const ACTIONS: Record<string, { to: string; from: string[]; run: (id: number) => Promise<any> }> = {
  pay: { to: 'paid', from: ['pending', 'waiting_3ds'], run: (id) => sandbox(server, id, 'pay') },
  expire: { to: 'expired', from: ['pending'], run: (id) => sandbox(server, id, 'expire') },
  cancel: { to: 'canceled', from: ['pending', 'waiting_3ds'], run: (id) => sandbox(server, id, 'cancel') },
  chargeback: { to: 'chargedback', from: ['paid'], run: (id) => sandbox(server, id, 'chargeback') },
  refund: { to: 'refunded', from: ['paid'], run: (id) => refund(server, id) },
  '3ds': { to: 'paid', from: ['waiting_3ds'], run: (id) => threeDS(server, id) },
};

describe('the status machine through HTTP', () => {
  for (const from of STATUSES) {
    for (const [action, rule] of Object.entries(ACTIONS)) {
      const allowed = rule.from.includes(from);
      it(`${action} on a ${from} charge ${allowed ? `→ ${rule.to}` : 'is 409 invalid_state'}`, async () => {
        const charge = await chargeIn(server, from);
        expect(charge.status).toBe(from);
        const reply = await rule.run(charge.id);
        if (allowed) {
          expect(reply.status).toBe(200);
          expect(reply.body.status).toBe(rule.to);
          expect(reply.body.invoice.status).toBe(rule.to);
          expect(reply.body.timeline.at(-1).status).toBe(rule.to);
          expect(reply.body.timeline.length).toBe(charge.timeline.length + 1);
          expect(Date.parse(reply.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(charge.updatedAt));
        } else {
          expect(reply.status).toBe(409);
          expect(reply.body.error).toBe('invalid_state');
          const after = await request(server, 'GET', `/api/v2/invoices/${charge.id}`);
          expect(after.body.status).toBe(from);
          expect(after.body.timeline).toEqual(charge.timeline);
        }
      });
    }
  }

  it('sets paidAt on paid and keeps it afterwards', async () => {
    const paid = await chargeIn(server, 'paid');
    expect(paid.paidAt).toBe(paid.timeline.at(-1).at);
    const back = (await sandbox(server, paid.id, 'chargeback')).body;
    expect(back.paidAt).toBe(paid.paidAt);
  });
});

describe('credit card', () => {
  it.each([
    ['approved', CARDS.approved, 'paid', null],
    ['generic decline', CARDS.declined, 'refused', 'generic_decline'],
    ['insufficient funds', CARDS.insufficientFunds, 'refused', 'insufficient_funds'],
    ['stolen card', CARDS.stolen, 'refused', 'stolen_card'],
    ['expired card', CARDS.expired, 'refused', 'expired_card'],
    ['3-D Secure required', CARDS.requires3ds, 'waiting_3ds', null],
  ])('test card %s', async (_, number, status, reason) => {
    const tx = await create(server, cardCharge(number));
    expect(tx.status).toBe(status);
    expect(tx.refusedReason).toBe(reason);
    expect(tx.card).toMatchObject({ brand: 'visa', holderName: 'Fulano de Tal', firstDigits: number.slice(0, 6), lastDigits: number.slice(-4), installments: 3 });
    expect(tx.installments).toBe(3);
    expect(tx.invoice.is_credit_card).toBe(true);
    expect(tx.pix).toBeNull();
    expect(JSON.stringify(tx)).not.toContain(number);
    expect(tx.paidAt === null).toBe(status !== 'paid');
  });

  it('3-D Secure: authentication completes the charge; failed values refuse it', async () => {
    const ok = await create(server, cardCharge(CARDS.requires3ds));
    const paid = await threeDS(server, ok.id);
    expect(paid.body).toMatchObject({ status: 'paid', card: { threeDSecure: 'authenticated' } });
    const failing = await create(server, cardCharge(CARDS.requires3ds));
    const refused = await threeDS(server, failing.id, { ...SAMPLE_3DS, eci: '07' });
    expect(refused.body).toMatchObject({ status: 'refused', refusedReason: 'authentication_failed', card: { threeDSecure: 'failed' } });
    const incomplete = await threeDS(server, failing.id, { cavv: 'x' });
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.details.map((d: any) => d.path)).toEqual(['xid', 'eci', 'version', 'referenceid']);
  });

  it('a create that already carries valid authentication values is processed directly', async () => {
    const card = { ...(cardCharge(CARDS.requires3ds) as any).card, ...SAMPLE_3DS };
    const tx = await create(server, cardCharge(CARDS.requires3ds, { card }));
    expect(tx.status).toBe('paid');
    expect(tx.card.threeDSecure).toBe('authenticated');
  });

  it('a tokenized card needs no raw card data', async () => {
    const tx = await create(server, validPix({ method: 'credit_card', card: { token: `tok_${CARDS.approved}` } }));
    expect(tx).toMatchObject({ status: 'paid', card: { tokenized: true, lastDigits: '1111' } });
  });

  it('card fees follow the schedule (3.99 % + R$ 0,39) and move balance_card', async () => {
    const before = (await request(server, 'GET', '/api/v2/company')).body.balance_card;
    const tx = await create(server, cardCharge(CARDS.approved));
    expect(tx.fee).toEqual({ estimatedFee: 118, fixedAmount: 39, netAmount: 1872, spreadPercentage: 3.99 });
    expect(tx.financial_movements.map((m: any) => [m.type, m.amount, m.balance])).toEqual([['payment', 1990, 'balance_card'], ['fee', -118, 'balance_card']]);
    expect((await request(server, 'GET', '/api/v2/company')).body.balance_card).toBe(before + 1872);
  });
});

describe('boleto', () => {
  it('issues a barcode, a typeable line and a due date, and requires the payer address', async () => {
    const tx = await create(server, boletoCharge());
    expect(tx.status).toBe('pending');
    expect(tx.boleto.barcode).toMatch(/^\d{44}$/);
    expect(tx.boleto.digitableLine).toMatch(/^\d{47}$/);
    expect(tx.boleto.barcode.slice(9, 19)).toBe('0000001990');
    expect(tx.boleto.dueDate).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(tx.invoice.is_bank_slip).toBe(true);
    expect(tx.fee).toMatchObject({ estimatedFee: 349, netAmount: 1641 });
    const missing = await request(server, 'POST', '/api/v2/invoices', { body: validPix({ method: 'boleto' }) });
    expect(missing.status).toBe(422);
    expect(missing.body.details.map((d: any) => d.path)).toEqual(expect.arrayContaining(['payer.address_zip', 'payer.address_city']));
  });
});

describe('refunds', () => {
  it('partial refunds keep paid and raise refundedAmount; the last one makes it refunded', async () => {
    const paid = await chargeIn(server, 'paid');
    const first = await refund(server, paid.id, { amount_cents: 500, reason: 'one item returned' });
    expect(first.body).toMatchObject({ status: 'paid', refundedAmount: 500 });
    expect(first.body.refunds).toEqual([{ id: expect.any(Number), amount: 500, reason: 'one item returned', createdAt: expect.any(String) }]);
    const tooMuch = await refund(server, paid.id, { amount_cents: 1491 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.details[0]).toMatchObject({ path: 'amount_cents', message: expect.stringContaining('1490') });
    const rest = await refund(server, paid.id);
    expect(rest.body).toMatchObject({ status: 'refunded', refundedAmount: 1990 });
    expect(rest.body.financial_movements.filter((m: any) => m.type === 'refund').map((m: any) => m.amount)).toEqual([-500, -1490]);
  });

  it('rejects a refund of zero, negative or fractional amounts', async () => {
    const paid = await chargeIn(server, 'paid');
    for (const amount_cents of [0, -5, 1.5, '10']) {
      expect((await refund(server, paid.id, { amount_cents })).status).toBe(422);
    }
  });
});

describe('expiry', () => {
  it('a boleto past its due date can still be paid through its grace days (serve --boleto-grace-days), then expires', async () => {
    const late = await startTestServer({ boletoDueDays: -1, boletoGraceDays: 2 });
    const none = await startTestServer({ boletoDueDays: -1, boletoGraceDays: 0 });
    try {
      const boleto = await create(late, boletoCharge());
      expect(boleto.boleto.dueDate < new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10)).toBe(true);
      // payable until the midnight (São Paulo) that ends the second day after its due date
      expect(boleto.boleto.expiresAt).toBe(new Date(Date.parse(`${boleto.boleto.dueDate}T03:00:00.000Z`) + 3 * 86_400_000).toISOString());
      expect((await request(late, 'GET', `/api/v2/invoices/${boleto.id}`)).body.status).toBe('pending');
      expect((await sandbox(late, boleto.id, 'pay')).body.status).toBe('paid');
      const strict = await create(none, boletoCharge());
      expect((await request(none, 'GET', `/api/v2/invoices/${strict.id}`)).body.status).toBe('expired');
    } finally {
      await late.close();
      await none.close();
    }
  });

  it('pending pix and boleto charges expire at their time without anyone reading them', async () => {
    const quick = await startTestServer({ pixExpirySeconds: 1, boletoDueDays: -4, expiryCheckMs: 100 });
    try {
      const pix = await create(quick, validPix());
      const boleto = await create(quick, boletoCharge());
      // due four days ago, past its two grace days: expired on the very next read
      expect((await request(quick, 'GET', `/api/v2/invoices/${boleto.id}`)).body.status).toBe('expired');
      // the sweep (every 100 ms) expires it once its second is up, read from the table, not through a read of it
      await eventually(async () => (await sql<{ status: string }>(quick, 'SELECT status FROM invoices WHERE id = ?', pix.id))[0]?.status === 'expired', 10_000, 'the pix charge expired in the table');
      const read = (await request(quick, 'GET', `/api/v2/invoices/${pix.id}`)).body;
      expect(read.timeline.map((t: any) => t.status)).toEqual(['pending', 'expired']);
      // at its time: not before it, and within seconds of it
      const expiredAt = Date.parse(read.timeline[1].at);
      expect(expiredAt).toBeGreaterThanOrEqual(Date.parse(read.pix.expiresAt));
      expect(expiredAt - Date.parse(read.pix.expiresAt)).toBeLessThan(5_000);
    } finally {
      await quick.close();
    }
  });
});

describe('the public area', () => {
  it('shows a payer what they need by token_checkout, without authentication, and nothing more', async () => {
    const tx = await create(server, validPix());
    const reply = await request(server, 'GET', `/api/v2/public/invoices/${tx.invoice.token_checkout}`, { token: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      secureId: tx.secureId, status: 'pending', method: 'pix', amount: 1990, paidAt: null, expiresAt: tx.pix.expiresAt,
      pix: { qrCode: tx.pix.qrCode }, boleto: null, items: [{ title: 'Camiseta', quantity: 1, unitPrice: 1990 }],
      company: { fantasy_name: tx.enterprise.fantasy_name },
    });
    const text = JSON.stringify(reply.body);
    for (const secret of ['52998224725', 'fulano@example.com', 'estimatedFee', 'balance', tx.enterprise.cnpj]) expect(text).not.toContain(secret);
    expect((await request(server, 'GET', `/api/v2/public/invoices/${tx.id}`, { token: null })).status).toBe(404);
    expect((await request(server, 'GET', '/api/v2/public/invoices/not-a-token', { token: null })).status).toBe(404);
  });
});
