// A customer's production record as a local fixture, through the built binary: two charges of one payer
// read from the production stand-in through `pinvoice proxy` (one of a status serve does not know, both
// with members nobody listed), `logs export` of the journal (or of a record saved with `invoice get
// --json`) to a fixtures file free of the payer's data, then `serve --fixtures` answering the records
// as production sent them and refusing an action on one with a 409 naming its status.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidCpf } from '../../src/domain/document.js';
import { run, serve } from '../support/cli.js';
import { removeWorkDirs } from '../support/processes.js';
import { own, rig, stopProxies, type Rig } from '../support/proxy.js';
import { eventually } from '../support/receiver.js';

const PAYER = { cpf: '52998224725', formatted: '529.982.247-25', name: 'Maria Silva', email: 'maria.silva@example.com', phone: '11987654321', street: 'Avenida Paulista' };
const TOKEN = 'pinv_test_production_records_0001';

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

/** What a file must not hold: each original of the payer, in any case. */
function personalDataIn(text: string): string[] {
  const lower = text.toLowerCase();
  return Object.values(PAYER).filter((original) => lower.includes(original.toLowerCase()));
}

describe('pinvoice logs export → serve --fixtures', () => {
  let r: Rig;
  let analysis: Record<string, any>;
  let paid: Record<string, any>;
  const cli = (args: string[]) => run(args, { env: { ...r.env, PINVOICE_TOKEN: r.gateway.token, PINVOICE_BASE_URL: r.proxy.url } });
  const file = (name: string) => join(r.dir, name);

  beforeAll(async () => {
    r = await rig(false);
    analysis = r.gateway.addRecord({ status: 'in_analysis', risk_review: { queue: 'manual', reviewer: null } });
    paid = r.gateway.addRecord({ status: 'paid', paymentMethod: 'credit_card', externalRef: 'order-77' });
    for (const ref of [String(analysis.id), String(analysis.id), paid.secureId]) {
      const got = await cli(['invoice', 'get', ref, '--json']);
      expect(got.code, got.stderr).toBe(0);
    }
    // the journal is written after the answers, out of band
    await eventually(async () => ((await own(r.proxy, '/requests')).body?.data?.length ?? 0) >= 3, 10_000, 'three journal entries');
  });
  afterAll(() => r?.close());

  it('writes both records owner-only, the payer one fake in both and never the original', async () => {
    const out = file('prod.json');
    const exported = await run(['logs', 'export', '--journal', r.journal, '--fixtures', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toBe(`${out}: 2 charges from 3 journal entries, 1 payer faked\n`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const text = readFileSync(out, 'utf8');
    expect(personalDataIn(text), 'the payer\'s originals in the fixtures file').toEqual([]);
    const records = JSON.parse(text).records.map((item: any) => item.record);
    expect(records.map((record: any) => [record.id, record.status])).toEqual([[analysis.id, 'in_analysis'], [paid.id, 'paid']]);
    const [first, second] = records;
    expect(second.client).toMatchObject({ name: first.client.name, cpf_cnpj: first.client.cpf_cnpj, email: first.client.email });
    expect(second.customer.document.number).toBe(first.client.cpf_cnpj);
    expect(isValidCpf(first.client.cpf_cnpj), first.client.cpf_cnpj).toBe(true);
    expect(second.card.holder_name).toBe(first.client.name.toUpperCase());
    // what is not personal is kept as production sent it
    expect(first.risk_review).toEqual({ queue: 'manual', reviewer: null });
    expect([first.amount, first.antifraud, first.customer.address.city]).toEqual([analysis.amount, analysis.antifraud, 'São Paulo']);
  });

  it('serve --fixtures answers the record as production sent it and refuses a refund of it with a 409 naming its status', async () => {
    const out = file('served.json');
    expect((await run(['logs', 'export', '--journal', r.journal, '--fixtures', out])).code).toBe(0);
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    writeFileSync(out, JSON.stringify({ companies: [{ token: TOKEN }], ...exported }));
    const server = await serve(['--port', '0', '--db', file('serve.db'), '--fixtures', out], r.env);
    const local = (args: string[]) => run(args, { env: { ...r.env, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url } });
    try {
      // (stderr's lines may come after the listening line on stdout)
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(server.stderr()).toContain(`--fixtures ${out}: 1 company, 0 charges and 2 production records created`);
      const json = await local(['invoice', 'get', String(analysis.id), '--json']);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(exported.records[0].record);
      const shown = await local(['invoice', 'get', analysis.secureId]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/in_analysis \(unknown status\)/);
      expect(shown.stdout).toMatch(/risk_review\.queue\s*│\s*manual/);
      const refund = await local(['invoice', 'refund', String(analysis.id), '--yes']);
      expect(refund.code).toBe(2);
      expect(refund.stderr).toContain('status "in_analysis"');
      expect(refund.stderr).toContain('409 invalid_state');
      const paidRefund = await local(['invoice', 'refund', paid.secureId, '--yes']);
      expect([paidRefund.code, paidRefund.stderr]).toEqual([2, expect.stringContaining('status "paid", loaded by --fixtures')]);
      expect(paidRefund.stderr).toContain('409 fixture_record_read_only');
      const after = await local(['invoice', 'get', String(paid.id), '--json']);
      expect(JSON.parse(after.stdout)).toEqual(exported.records[1].record);
    } finally {
      await server.stop();
    }
  });

  it('--charge exports the charges named (by id or external id), and one not found exits 4 writing nothing', async () => {
    const one = file('one.json');
    const exported = await run(['logs', 'export', '--journal', r.journal, '--charge', 'order-77', '--fixtures', one]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(readFileSync(one, 'utf8')).records.map((item: any) => item.record.id)).toEqual([paid.id]);
    expect(exported.stderr).toBe(`${one}: 1 charge from 1 journal entry, 1 payer faked\n`);
    const none = file('none.json');
    const missing = await run(['logs', 'export', '--journal', r.journal, '--charge', String(analysis.id), '--charge', '999999', '--fixtures', none]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('--charge 999999: no record of this charge');
    expect(() => statSync(none)).toThrow();
  });

  it('--records takes a record saved with invoice get --json, and names a file that holds none by its line', async () => {
    const saved = await cli(['invoice', 'get', String(analysis.id), '--json']);
    const record = file('saved-record.json');
    writeFileSync(record, saved.stdout);
    const exported = await run(['logs', 'export', '--records', record, '--fixtures', '-']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toBe('stdout: 1 charge from 1 saved record, 1 payer faked\n');
    expect(personalDataIn(exported.stdout)).toEqual([]);
    expect(JSON.parse(exported.stdout).records[0].record).toMatchObject({ id: analysis.id, status: 'in_analysis', risk_review: { queue: 'manual' } });
    const lines = file('lines.jsonl');
    writeFileSync(lines, `${JSON.stringify(JSON.parse(saved.stdout))}\n{"name": "${PAYER.name}"}\n`);
    const refused = await run(['logs', 'export', '--records', lines, '--fixtures', file('never.json')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--records ${lines}:2: not a transaction record`);
    expect(personalDataIn(refused.stderr)).toEqual([]);
  });
});
