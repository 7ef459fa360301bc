// The sandbox clock's bound, end to end (the built binary's serve, SQLite and PostgreSQL): the issue's
// sequence refused with 422 naming the bound; and a database an older build left with a charge
// expiring past year 9999 stalls nobody after a restart: serve does not spin, tells of the charge
// once, another company's 5-second pix expires with its postback in its normal time, and the
// company's own DELETE /api/v2/sandbox/clock answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_LATEST } from '../../src/api/clock-bound.js';
import { engineDb, ENGINE } from '../support/engine.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_clock_bound_first_01';
const FLAGS = ['--port', '0', '--pix-expiry', '5'];
const env = tempHome();
const db = join(env.HOME ?? '', 'clock.db');

const api = async (server: ServeProcess, token: string, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  return { status: answer.status, body: (await answer.json()) as any };
};

/** What an older build wrote: the clock at 9999-12-31T23:59:59Z, an hour more, then a pix charge. */
async function plantOldCharge(id: number, secureId: string): Promise<void> {
  const sql = "UPDATE invoices SET expires_at = '+010000-01-01T00:59:59.000Z', secure_id = $1 WHERE id = $2";
  if (ENGINE === 'sqlite') {
    const file = new Database(db);
    file.prepare(sql.replace(/\$\d/g, '?')).run(secureId, id);
    file.close();
    return;
  }
  const client = new pg.Client({ connectionString: await engineDb(db) });
  await client.connect();
  await client.query(sql, [secureId, id]);
  await client.end();
}

/** CPU seconds the process has used (user + system; Linux's /proc, in clock ticks of 1/100 s). */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

describe("the sandbox clock's bound, on the built binary", () => {
  let server: ServeProcess;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await serve([...FLAGS, '--db', db, '--token', TOKEN], env);
  });
  afterAll(async () => {
    await server?.stop();
    await receiver.close();
  });

  it("refuses the issue's sequence with 422 naming the bound", async () => {
    const far = await api(server, TOKEN, 'POST', '/api/v2/sandbox/clock', { now: '9999-12-31T23:59:59Z' });
    expect([far.status, far.body.message]).toEqual([422, `Field now would take the sandbox clock past ${CLOCK_LATEST}, the latest time it may read.`]);
    expect((await api(server, TOKEN, 'POST', '/api/v2/sandbox/clock/advance', { seconds: 3600 })).status).toBe(200);
    const pix = await api(server, TOKEN, 'POST', '/api/v2/invoices', validPix());
    expect(pix.body.data.pix.expiresAt).toMatch(/^\d{4}-/);
    expect(pix.body.data.secureId).toMatch(/^INV-\d{8}-/);
    expect((await api(server, TOKEN, 'POST', '/api/v2/sandbox/clock', { now: '2099-12-31T23:30:00Z' })).status).toBe(200);
    const over = await api(server, TOKEN, 'POST', '/api/v2/sandbox/clock/advance', { seconds: 3600 });
    expect([over.status, over.body.message]).toEqual([422, `Field seconds would take the sandbox clock past ${CLOCK_LATEST}, the latest time it may read.`]);
    expect((await api(server, TOKEN, 'DELETE', '/api/v2/sandbox/clock')).status).toBe(200);
  });

  it('serve refuses a --clock past the bound and a --pix-expiry beyond ten years (exit 2, naming the flag)', async () => {
    const clock = await run(['serve', '--db', ':memory:', '--clock', '2100-01-01T00:00:00Z'], { env: tempHome() });
    expect([clock.code, clock.stderr]).toEqual([2, expect.stringContaining(`--clock 2100-01-01T00:00:00Z is past ${CLOCK_LATEST}, the latest time the sandbox clock may read`)]);
    const expiry = await run(['serve', '--db', ':memory:', '--pix-expiry', '316224001'], { env: tempHome() });
    expect([expiry.code, expiry.stderr]).toEqual([2, expect.stringContaining('--pix-expiry must be at most 316224000 seconds (ten years), not 316224001')]);
  });

  it("after a restart on an older build's charge past year 9999: no spin, told once, another company's pix expires in its time", async () => {
    const old = await api(server, TOKEN, 'POST', '/api/v2/invoices', validPix());
    const secureId = `INV-+01000001-${String(old.body.data.id).padStart(6, '0')}-0042`;
    await server.stop();
    await plantOldCharge(old.body.data.id, secureId);
    const added = await run(['serve', 'company', 'add', '--db', db, '--json'], { env });
    expect(added.code, added.stderr).toBe(0);
    const second = JSON.parse(added.stdout).token as string;
    server = await serve([...FLAGS, '--db', db, '--token', TOKEN], env);

    const [cpuBefore, started] = [cpuSeconds(server.child.pid ?? 0), Date.now()];
    const theirs = await api(server, second, 'POST', '/api/v2/invoices', validPix({ postback_url: receiver.url }));
    expect(theirs.status).toBe(200);
    const expired = await eventually(() => receiver.received.find((r) => r.json?.event === 'invoice.expired'), 10_000, "the second company's invoice.expired");
    const took = (Date.now() - started) / 1000;
    expect(expired.json.invoice_id).toBe(theirs.body.data.secureId);
    expect(took).toBeLessThan(8);
    // a serve that spins on the old charge burns a core; one that does not uses a little of one
    expect((cpuSeconds(server.child.pid ?? 0) - cpuBefore) / took).toBeLessThan(0.5);

    expect((await api(server, TOKEN, 'DELETE', '/api/v2/sandbox/clock')).status).toBe(200);
    expect((await api(server, TOKEN, 'GET', `/api/v2/invoices/${old.body.data.id}`)).body.status).toBe('pending');
    expect(server.stderr().split('\n').filter((line) => line.includes(secureId))).toEqual([
      `expiry: charge ${secureId} of company 1 is left pending: its expiry +010000-01-01T00:59:59.000Z lies past year 9999 (an older pinvoice let the sandbox clock go there; it now stops at ${CLOCK_LATEST})`,
    ]);
  });
});
