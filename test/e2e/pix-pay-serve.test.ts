// The payer's bank app against our own PSP: `pinvoice serve --tls` issues a pix charge, `pix verify`
// and `pix pay` (the built binary, trusting `serve ca`'s CA with --ca) verify its location, pay it
// through the sandbox (paid, its postback event made), and refuse it once paid (CONCLUIDA); each
// payer-side chaos fault of the charge is refused as the step it breaks.
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { engineArgs } from '../support/engine.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_pix_pay_serve_e2e_token_01';
const folder = mkdtempSync(join(tmpdir(), 'pinvoice-pix-pay-'));
const db = join(folder, 'dev.db');
const env = tempHome();
let server: ServeProcess;
let caPath: string;
let ca: string;

/** The API over https, trusting the CA for this request only. */
function api(method: string, path: string, body?: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const req = httpsRequest(`${server.url}${path}`, { method, ca, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text ? JSON.parse(text) : undefined));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const newCharge = async () => (await api('POST', '/api/v2/invoices', validPix({ total_price_cents: 15990, items: [{ name: 'Camiseta', quantity: 2, unit_price: 7995 }] }))).data;
/** A charge's status as the API reads it (a record, or one inside `data`). */
async function status(id: number): Promise<string> {
  const answer = await api('GET', `/api/v2/invoices/${id}`);
  return (answer.data ?? answer).status;
}

const cli = (args: string[]) => run(args, { env: { ...env, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url } });

beforeAll(async () => {
  await engineArgs(['--db', db]);
  caPath = (await run(['serve', 'ca', '--db', db], { env })).stdout.trim();
  ca = readFileSync(caPath, 'utf8');
  server = await serve(['--tls', '--port', '0', '--db', db, '--token', TOKEN], env);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('pix pay against serve --tls', () => {
  it('verifies, pays (the charge turns paid, its invoice.paid event made), and a second pay refuses it: CONCLUIDA: already paid (exit 14)', async () => {
    const charge = await newCharge();
    const code = charge.qr_code_pix as string;
    const verified = await cli(['pix', 'verify', code, '--ca', caPath]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('R$ 159,90');

    const paid = await cli(['pix', 'pay', code, '--yes', '--ca', caPath, '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ id: charge.id, status: 'paid' });
    expect(await status(charge.id)).toBe('paid');
    const events = await api('GET', `/api/v2/invoices/${charge.id}/events`);
    expect(JSON.stringify(events)).toContain('invoice.paid');

    const again = await cli(['pix', 'pay', code, '--yes', '--ca', caPath]);
    expect(again.code).toBe(14);
    expect(again.stderr).toContain('CONCLUIDA: already paid');
    expect(again.stdout).toBe('');
  });

  const FAULTS: [string, number, string][] = [
    ['expired_certificate', 12, 'leaf'],
    ['unknown_kid', 12, 'kid'],
    ['foreign_jku', 12, 'jku'],
    ['bad_signature', 12, 'signature'],
    ['unavailable', 13, 'fetch'],
  ];
  it.each(FAULTS)('chaos pix_location %s on the charge: verify exits %i naming the %s step, and pay refuses it unpaid', async (fault, exit, step) => {
    const charge = await newCharge();
    const rule = await api('PUT', '/api/v2/sandbox/chaos', { pix_location: fault, invoice_id: charge.secureId });
    expect(JSON.stringify(rule)).toContain(fault);
    // On PostgreSQL the location saw a new chaos rule only after about a second (seen 2026-11-26;
    // reported to the server's side): waited out here, as this file tests the payer's side.
    if (process.env.PINVOICE_TEST_ENGINE === 'postgres') await new Promise((resolve) => setTimeout(resolve, 1500));
    try {
      const verified = await cli(['pix', 'verify', charge.qr_code_pix, '--ca', caPath, '--json']);
      expect(verified.code, verified.stdout + verified.stderr).toBe(exit);
      const failed = JSON.parse(verified.stdout).steps.filter((s: { ok: boolean | null }) => s.ok === false).map((s: { step: string }) => s.step);
      expect(failed).toContain(step);
      const paid = await cli(['pix', 'pay', charge.qr_code_pix, '--yes', '--ca', caPath]);
      expect(paid.code).toBe(exit);
      expect(await status(charge.id)).toBe('pending');
    } finally {
      await api('DELETE', '/api/v2/sandbox/chaos');
    }
  });
});
