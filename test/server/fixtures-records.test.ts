// `serve --fixtures` with production records (`records`, as `pinvoice logs export` writes them), through
// startServer on the run's engine: production's id kept when free and the next free one (put in the
// record) when a charge has it, charges made later numbered after it, the record answered as it is by
// id, secureId and the list, every action refused with a 409 naming its status, a second start that
// skips it, and records refused by their JSON path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FixturesError, readFixtures } from '../../src/server/fixtures.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { engineDb } from '../support/engine.js';
import { productionRecord } from '../support/production-gateway.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_fixture_records_000001';
const dir = mkdtempSync(join(tmpdir(), 'pinvoice-fixture-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (id: number, status: string): Record<string, any> => ({
  ...productionRecord({ id, amount: 15990, status, method: 'pix', createdAt: '2026-11-25T23:38:17.443211Z', updatedAt: '2026-11-25T23:38:17.512904Z' }),
  externalRef: `prod-${id}`,
});
const FILE = {
  companies: [{ token: TOKEN }],
  charges: [{ external_id: 'own-1', state: 'paid', method: 'pix', amount: 2500 }],
  // id 1 is the charge's above: that record takes the next free id
  records: [{ record: record(1, 'in_analysis') }, { record: record(90_000, 'paid') }],
};

/** A request without the OpenAPI check of test/support/server.ts: a production record is the one answer that does not follow the document. */
async function call(server: RunningServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, ...(body !== undefined && { 'content-type': 'application/json' }) };
  const response = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const start = (db: string) => startServer({ host: '127.0.0.1', port: 0, db, version: 'test', fixtures: FILE, expiryCheckMs: 0, postbacks: false });

describe('serve --fixtures records', () => {
  it('answers each record as production sent it, refuses every action on it, and skips it on a second start', async () => {
    const db = await engineDb(join(dir, 'records.db'));
    let server: RunningServer = await start(db);
    try {
      expect(server.fixtures?.records.map((r) => [r.id, r.status, r.created])).toEqual([[2, 'in_analysis', true], [90_000, 'paid', true]]);
      const moved = (await call(server, 'GET', '/api/v2/invoices/2')).body;
      expect(moved).toEqual({ ...FILE.records[0]!.record, id: 2, invoice: { ...FILE.records[0]!.record.invoice, id: 2 } });
      expect((await call(server, 'GET', `/api/v2/invoices?id=${FILE.records[1]!.record.secureId}`)).body).toEqual(FILE.records[1]!.record);
      const listed = (await call(server, 'GET', '/api/v2/invoices?external_id=prod-90000')).body;
      expect(listed.data).toEqual([FILE.records[1]!.record]);
      const refund = await call(server, 'POST', '/api/v2/invoices/90000/refund', {});
      expect([refund.status, refund.body.error]).toEqual([409, 'fixture_record_read_only']);
      expect(refund.body.message).toContain('status "paid"');
      const pay = await call(server, 'POST', '/api/v2/sandbox/invoices/2/pay', {});
      expect([pay.status, pay.body.error, pay.body.message]).toEqual([409, 'invalid_state', expect.stringContaining('status "in_analysis", which pinvoice serve does not know')]);
      const chargeback = await call(server, 'POST', '/api/v2/sandbox/invoices/90000/chargeback', {});
      expect([chargeback.status, chargeback.body.error]).toEqual([409, 'fixture_record_read_only']);
      const cancel = await call(server, 'POST', '/api/v2/sandbox/invoices/90000/cancel', {});
      expect([cancel.status, cancel.body.error, cancel.body.message]).toEqual([409, 'invalid_state', expect.stringContaining('this action does not apply')]);
      expect((await call(server, 'GET', '/api/v2/invoices/90000')).body).toEqual(FILE.records[1]!.record);
      // a charge made later is numbered after the records
      const made = await call(server, 'POST', '/api/v2/invoices', validPix());
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body.data.id).toBe(90_001);
    } finally {
      await server.close();
    }
    server = await start(db);
    try {
      expect(server.fixtures?.records.map((r) => [r.id, r.created])).toEqual([[2, false], [90_000, false]]);
    } finally {
      await server.close();
    }
  });

  it('refuses a record without its id, secureId or status, and one given twice, by JSON path', () => {
    const { secureId: _secureId, ...noSecureId } = record(5, 'paid');
    const refused = () => readFixtures({ records: [{ record: noSecureId }, { record: { ...record(6, 'paid'), id: 'six' } }, { record: record(7, 'paid') }, { record: record(7, 'paid') }, { record: record(8, 'paid'), extra: 1 }] });
    expect(refused).toThrow(FixturesError);
    expect(() => refused()).toThrow(/records\[0\]\.record\.secureId: /);
    expect(() => refused()).toThrow(/records\[1\]\.record\.id: must be a whole number/);
    expect(() => refused()).toThrow(/records\[3\]\.record\.secureId: "INV-\d+-7" is the secureId of records\[2\] too/);
    expect(() => refused()).toThrow(/records\[4\]\.extra: is not a field of a fixtures file/);
  });
});
