import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CARDS, boletoCharge, cardCharge } from '../support/charges.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { readsFrom } from '../support/journal.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_lifecycle_token_01';
let server: ServeProcess;
let env: Record<string, string>;
const work = mkdtempSync(join(tmpdir(), 'pinvoice-lifecycle-'));

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
});
afterAll(() => server.stop());

const cli = (args: string[], input?: string, extra: Record<string, string> = {}) => run(args, { env: { ...env, ...extra }, input });
const json = (text: string) => JSON.parse(text);
const file = (name: string, body: unknown) => {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(body));
  return path;
};

describe('the lifecycle from the command line', () => {
  it('sandbox pay, then partial and full refunds, shown by invoice get', async () => {
    const created = json((await cli(['invoice', 'create', '--file', file('pix.json', validPix()), '--json'])).stdout);
    const paid = await cli(['sandbox', 'pay', String(created.id), '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    expect(json(paid.stdout).status).toBe('paid');
    const partial = json((await cli(['invoice', 'refund', String(created.id), '--amount', '5,00', '--reason', 'item returned', '--yes', '--json'])).stdout);
    expect(partial).toMatchObject({ status: 'paid', refundedAmount: 500 });
    const shown = await cli(['invoice', 'get', created.secureId]);
    for (const text of ['Refunds', 'item returned', 'R$ 5,00', 'Financial movements', 'payment', 'fee', 'refund']) expect(shown.stdout).toContain(text);
    const rest = json((await cli(['invoice', 'refund', String(created.id), '--yes', '--json'])).stdout);
    expect(rest).toMatchObject({ status: 'refunded', refundedAmount: 1990 });
    const again = await cli(['invoice', 'refund', String(created.id), '--yes']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/invalid_state/);
  });

  it('sandbox expire, cancel and chargeback; a forbidden transition is exit 2 with invalid_state', async () => {
    const a = json((await cli(['invoice', 'create', '--file', file('a.json', validPix()), '--json'])).stdout);
    expect(json((await cli(['sandbox', 'expire', String(a.id), '--json'])).stdout).status).toBe('expired');
    const forbidden = await cli(['sandbox', 'pay', String(a.id)]);
    expect(forbidden.code).toBe(2);
    expect(forbidden.stderr).toMatch(/expired: it cannot become paid/);
    const b = json((await cli(['invoice', 'create', '--file', file('b.json', validPix()), '--json'])).stdout);
    expect(json((await cli(['sandbox', 'cancel', String(b.id), '--json'])).stdout).status).toBe('canceled');
    const c = json((await cli(['invoice', 'create', '--file', file('c.json', cardCharge(CARDS.approved)), '--json'])).stdout);
    expect(c.status).toBe('paid');
    expect(json((await cli(['sandbox', 'chargeback', String(c.id), '--json'])).stdout).status).toBe('chargedback');
  });

  it('3-D Secure: a card waiting for authentication is completed by invoice 3ds', async () => {
    const waiting = json((await cli(['invoice', 'create', '--file', file('3ds.json', cardCharge(CARDS.requires3ds)), '--json'])).stdout);
    expect(waiting.status).toBe('waiting_3ds');
    const missing = await cli(['invoice', '3ds', String(waiting.id), '--eci', '05']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--cavv/);
    const done = await cli(['invoice', '3ds', String(waiting.id), '--sample']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/paid/);
    expect(done.stdout).toMatch(/400000 •••• 3220|•••• 3220/);
    const failing = json((await cli(['invoice', 'create', '--file', file('3ds2.json', cardCharge(CARDS.requires3ds)), '--json'])).stdout);
    const values = { cavv: 'AAABBEg0VhI0VniQEjRWAAAAAAA=', xid: 'x-1', eci: '07', version: '2.2.0', referenceid: 'r-1' };
    const refused = json((await cli(['invoice', '3ds', String(failing.id), '--file', '-', '--json'], JSON.stringify(values))).stdout);
    expect(refused).toMatchObject({ status: 'refused', refusedReason: 'authentication_failed' });
  });

  it('boleto from a file shows its typeable line; invoice get shows the checkout page, invoice open opens it', async () => {
    const boleto = await cli(['invoice', 'create', '--file', file('boleto.json', boletoCharge())]);
    expect(boleto.code, boleto.stderr).toBe(0);
    expect(boleto.stdout).toMatch(/\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}/);
    const created = json((await cli(['invoice', 'create', '--file', file('boleto2.json', boletoCharge()), '--json'])).stdout);
    const url = `${server.url}/checkout/${created.invoice.token_checkout}`;
    expect((await cli(['invoice', 'get', String(created.id)])).stdout).toContain(`\nCheckout page: ${url}\n`);
    // no graphical session here: the URL is printed, and stderr says why nothing opened
    const open = await cli(['invoice', 'open', String(created.id)]);
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toBe(`${url}\n`);
    expect(open.stderr).toMatch(/no browser to open here/);
    const page = await (await fetch(open.stdout.trim())).text();
    expect(page).toContain(created.boleto.digitableLine.replace(/^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/, '$1.$2 $3.$4 $5.$6 $7 $8'));
    // --print: the URL alone; --json: the URL and the token
    expect(await cli(['invoice', 'open', String(created.id), '--print'])).toMatchObject({ code: 0, stdout: `${url}\n`, stderr: '' });
    expect(json((await cli(['invoice', 'open', String(created.id), '--json'])).stdout)).toEqual({ url, token_checkout: created.invoice.token_checkout });
    // with a browser ($BROWSER names it), the browser gets the URL
    const seen = join(work, 'browser-saw.txt');
    const browser = join(work, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > '${seen}'\n`);
    chmodSync(browser, 0o755);
    const opened = await cli(['invoice', 'open', String(created.id)], undefined, { BROWSER: browser });
    expect(opened.stderr).toMatch(/opened in the browser \(.*browser.sh\)/);
    await vi.waitFor(() => expect(readFileSync(seen, 'utf8')).toBe(`${url}\n`));
  });

  it('--watch exits 0 when the sandbox pays the charge, 7 when it is canceled', async () => {
    const one = json((await cli(['invoice', 'create', '--file', file('w1.json', validPix()), '--json'])).stdout);
    const two = json((await cli(['invoice', 'create', '--file', file('w2.json', validPix()), '--json'])).stdout);
    const reads = await Promise.all([one.id, two.id].map((id: number) => readsFrom(server.url, TOKEN, id)));
    const watchPaid = cli(['invoice', 'get', String(one.id), '--watch', '--interval', '1', '--timeout', '20', '--json']);
    const watchCanceled = cli(['invoice', 'get', String(two.id), '--watch', '--interval', '1', '--timeout', '20']);
    // each watch has read its charge pending and polled it once before the sandbox changes it
    await Promise.all(reads.map((read) => read.seen(2)));
    expect((await cli(['sandbox', 'pay', String(one.id)])).code).toBe(0);
    expect((await cli(['sandbox', 'cancel', String(two.id)])).code).toBe(0);
    const paid = await watchPaid;
    expect(paid.code).toBe(0);
    expect(json(paid.stdout).status).toBe('paid');
    expect((await watchCanceled).code).toBe(7);
  });
});
