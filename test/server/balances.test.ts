import fc from 'fast-check';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashBody } from '../../src/server/idempotency.js';
import { CARDS, SECURITY_CODE, cardCharge, create, refund, sandbox } from '../support/charges.js';
import { ENGINE, addTestCompany, request, startTestServer, validPix, type TestServer, sql } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Step =
  | { kind: 'pix'; amount: number }
  | { kind: 'card'; amount: number }
  | { kind: 'pay'; pick: number }
  | { kind: 'refund'; pick: number; part: number }
  | { kind: 'chargeback'; pick: number };

const amount = fc.integer({ min: 1, max: 5_000_000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pix' as const), amount }),
  fc.record({ kind: fc.constant('card' as const), amount }),
  fc.record({ kind: fc.constant('pay' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat(), part: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('chargeback' as const), pick: fc.nat() }),
);

const charge = (body: any, total: number) => ({ ...body, total_price_cents: total, items: [{ name: 'Item', quantity: 1, unit_price: total }] });

describe('the balance invariant', () => {
  it('after any sequence of payments, refunds and chargebacks, balances equal the sum of the movements and the expected money', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const token = `pinv_test_balance_run_${run++}_${Date.now()}`;
        const companyId = await addTestCompany(server, token, `Balance ${run}`);
        const expected: Record<string, number> = { balance_pix: 0, balance_card: 0, balance_bank_slip: 0 } as Record<string, number> & { balance_pix: number; balance_card: number };
        const charges: any[] = [];
        for (const s of steps) {
          const target = charges.length ? charges[('pick' in s ? s.pick : 0) % charges.length] : undefined;
          if (s.kind === 'pix' || s.kind === 'card') {
            const body = s.kind === 'pix' ? charge(validPix(), s.amount) : charge(cardCharge(CARDS.approved), s.amount);
            const tx = await create(server, body, token);
            if (tx.status === 'paid') expected.balance_card = (expected.balance_card ?? 0) + tx.fee.netAmount;
            charges.push(tx);
          } else if (target && s.kind === 'pay' && target.status === 'pending') {
            const tx = (await request(server, 'POST', `/api/v2/sandbox/invoices/${target.id}/pay`, { token })).body;
            expected.balance_pix = (expected.balance_pix ?? 0) + tx.fee.netAmount;
            Object.assign(target, tx);
          } else if (target && s.kind === 'refund' && target.status === 'paid') {
            const left = target.amount - target.refundedAmount;
            const value = Math.max(1, Math.floor((left * s.part) / 100));
            const tx = (await request(server, 'POST', `/api/v2/invoices/${target.id}/refund`, { token, body: { amount_cents: value } })).body;
            expected[target.paymentMethod === 'pix' ? 'balance_pix' : 'balance_card']! -= value;
            Object.assign(target, tx);
          } else if (target && s.kind === 'chargeback' && target.status === 'paid') {
            const tx = (await request(server, 'POST', `/api/v2/sandbox/invoices/${target.id}/chargeback`, { token })).body;
            expected[target.paymentMethod === 'pix' ? 'balance_pix' : 'balance_card']! -= target.amount - target.refundedAmount;
            Object.assign(target, tx);
          }
        }
        const company = (await request(server, 'GET', '/api/v2/company', { token })).body;
        const sums = await sql<{ balance: string; total: number }>(server, 'SELECT balance, CAST(SUM(amount) AS BIGINT) AS total FROM financial_movements WHERE company_id = ? GROUP BY balance', companyId);
        for (const key of Object.keys(expected)) {
          expect(company[key]).toBe(expected[key]);
          expect(company[key]).toBe(sums.find((row) => row.balance === key)?.total ?? 0);
        }
        const paid = charges.filter((c) => c.paidAt !== null).reduce((total, c) => total + c.amount, 0);
        expect(company.amount_invoice_total).toBe(paid);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

describe('the totals a create\'s events tell', () => {
  it('a pix charge moves none: its event tells those before it; a card paid at once tells them after its payment', async () => {
    const token = `pinv_test_create_totals_${Date.now()}`;
    await addTestCompany(server, token, 'Totals Company');
    const events = async (secureId: string) => (await request(server, 'GET', `/api/v2/invoices/${secureId}/events`, { token })).body.data as any[];
    const paidCard = await create(server, charge(cardCharge(CARDS.approved), 5000), token);
    expect(paidCard.status).toBe('paid');
    const afterCard = paidCard.enterprise;
    expect(afterCard.amount_invoice_total).toBe(5000);
    expect(afterCard.balance_card).toBe(5000 - paidCard.fee.estimatedFee);
    // every event of the paid card tells the totals with its payment counted (read after the movements)
    const cardEvents = await events(paidCard.secureId);
    expect(cardEvents.map((event) => event.event)).toEqual(['invoice.created', 'invoice.paid']);
    for (const event of cardEvents) expect(event.payload.transaction.enterprise).toMatchObject(afterCard);
    // a pix charge moves nothing: its answer and its event tell what the card left
    const pix = await create(server, charge(validPix(), 1234), token);
    expect(pix.enterprise).toMatchObject(afterCard);
    expect((await events(pix.secureId))[0].payload.transaction.enterprise).toMatchObject(afterCard);
  });
});

describe('card data at rest', () => {
  // the bytes of the SQLite file; PostgreSQL's files are not the test's to read
  it.skipIf(ENGINE !== 'sqlite')('the database file holds no card number and no security code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinvoice-pan-'));
    const db = join(dir, 'cards.db');
    const onFile = await startTestServer({ db });
    const numbers = [CARDS.approved, CARDS.declined, CARDS.requires3ds, '5555555555554444', '378282246310005'];
    try {
      for (const number of numbers) await create(onFile, cardCharge(number));
      await create(onFile, cardCharge('4111 1111 1111 1111'));
      const retry = cardCharge(CARDS.approved);
      await request(onFile, 'POST', '/api/v2/invoices', { body: retry, headers: { 'idempotency-key': 'pan-key' } });
      await refund(onFile, 1);
      await sandbox(onFile, 3, 'cancel');
    } finally {
      await onFile.close();
    }
    const bytes = [db, `${db}-wal`].filter(existsSync).map((file) => readFileSync(file).toString('latin1')).join('');
    for (const number of numbers) expect(bytes).not.toContain(number);
    expect(bytes).not.toContain('4111 1111 1111 1111');
    expect(bytes).not.toContain(`"${SECURITY_CODE}"`);
    expect(bytes).not.toContain('security_code');
    expect(bytes).toContain('"lastDigits":"1111"');
  });

  it('an Idempotency-Key record keeps no derivative of the card number or the security code', async () => {
    const server = await startTestServer();
    try {
      const key = { 'idempotency-key': 'card-key' };
      const first = await request(server, 'POST', '/api/v2/invoices', { body: cardCharge(CARDS.approved), headers: key });
      expect(first.status).toBe(200);
      const [{ request_hash: stored } = { request_hash: '' }] = await sql<{ request_hash: string }>(server, "SELECT request_hash FROM idempotency_keys WHERE key = 'card-key'");
      // the hash is of the request with the number masked (first 6, last 4: shown in the answer anyway) and the code blanked
      const masked: any = cardCharge('411111******1111', {});
      masked.card.security_code = '***';
      expect(stored).toBe(createHash('sha256').update(JSON.stringify(masked)).digest('hex'));
      // so a brute force over the hidden digits and the code finds nothing: other middles and codes hash the same
      const other: any = cardCharge('4111119999991111');
      other.card.security_code = '000';
      expect(hashBody(other)).toBe(stored);
      expect((await request(server, 'POST', '/api/v2/invoices', { body: cardCharge(CARDS.approved), headers: key })).headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await server.close();
    }
  });
});
