// Three `serve` nodes on one database (a file, or PostgreSQL in that run of the suite): creates spread
// across them, postbacks to a local receiver counted, one node killed with SIGKILL while retries are
// due. Every event is delivered (answered 2xx) exactly once: none lost, none twice. And the nodes
// answer as one server: one Idempotency-Key sent to all three at once makes one invoice, refunds
// racing on the three never exceed the amount, a due charge expires once, each record is the same
// whichever node is asked.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, dbFor, killAll, mapLimit, pixBody, removeWorkDirs, sleep, startServe, workDir } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const TOKEN = 'ci_fixed_token_0123456789';
let receiver: Receiver | undefined;
afterEach(async () => {
  await killAll();
  await receiver?.close();
  receiver = undefined;
});
afterAll(removeWorkDirs);

describe('three nodes on one database', () => {
  it('deliver every event exactly once, also when one node is killed while retries are due', async () => {
    // every request fails (500) until the first node is dead, so retries are due when it dies (some may
    // already have been tried again, and one may be in flight from the dying node: all answered 500);
    // after the kill every request succeeds, so a second 2xx for one event would be a double delivery
    let healthy = false;
    const answered = new Map<string, number[]>();
    receiver = await startReceiver((request) => {
      const id = String(request.headers['pinvoice-event-id']);
      const status = healthy ? 200 : 500;
      answered.set(id, [...(answered.get(id) ?? []), status]);
      return status;
    });
    const { dir, env } = workDir();
    // (a 5 s answer timeout: on a loaded machine a 1 s one can fire after the receiver answered 200,
    // which is a retry by design, not the double delivery this test is about)
    const args = ['--port', '0', '--db', await dbFor(dir, 'three'), '--token', TOKEN,
      '--postback-attempts', '8', '--postback-base-delay', '2000', '--postback-timeout', '5000'];
    const nodes = [await startServe(args, env), await startServe(args, env), await startServe(args, env)];
    const url = `${receiver.url}/hook`;
    const charges = await mapLimit(Array.from({ length: 30 }, (_, i) => i), 6, async (i) => {
      const node = nodes[i % 3]!;
      const created = await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ postback_url: url }));
      expect(created.status).toBe(200);
      return created.body.data as { id: number };
    });
    await mapLimit(charges.filter((_, i) => i % 2 === 0), 6, async (charge, i) => {
      expect((await call(nodes[(i + 1) % 3]!.url, TOKEN, 'POST', `/api/v2/sandbox/invoices/${charge.id}/pay`)).status).toBe(200);
    });
    const expected = 30 + 15;
    // every charge's first event (created) has failed at least once: retries are due (a charge's later
    // events wait behind it); the first node dies now
    await eventually(() => answered.size >= charges.length, 20_000, 'a first (failed) attempt of every charge\'s first event');
    await nodes[0]!.kill('SIGKILL');
    healthy = true;
    // every event ends delivered, as any node tells
    await eventually(async () => {
      const lists = await Promise.all(charges.map(async (charge) => (await call(nodes[1]!.url, TOKEN, 'GET', `/api/v2/invoices/${charge.id}/events`)).body.data as any[]));
      return lists.flat().every((event) => event.state === 'delivered') && lists.flat().length === expected;
    }, 40_000, 'every event delivered');
    expect(answered.size).toBe(expected);
    // each event answered 2xx exactly once (after the kill); each charge's first event failed before it
    expect([...answered].filter(([, statuses]) => statuses.filter((status) => status === 200).length !== 1)).toEqual([]);
    expect([...answered].filter(([, statuses]) => statuses.length < 2).length).toBeLessThanOrEqual(15);
    const events = (await Promise.all(charges.map(async (charge) => (await call(nodes[2]!.url, TOKEN, 'GET', `/api/v2/invoices/${charge.id}/events`)).body.data as any[]))).flat();
    expect(events.filter((event) => event.attempts.filter((a: any) => a.delivered).length !== 1)).toEqual([]);
  }, 90_000);

  it('answer as one server: one key makes one invoice, refunds never exceed the amount, expiry happens once', async () => {
    const { dir, env } = workDir();
    const args = ['--port', '0', '--db', await dbFor(dir, 'one'), '--token', TOKEN, '--pix-expiry', '2'];
    const nodes = [await startServe(args, env), await startServe(args, env), await startServe(args, env)];
    const all = <T>(fn: (url: string) => Promise<T>) => Promise.all(nodes.map((node) => fn(node.url)));

    // 12 keys, each sent to the three nodes at the same moment
    const keyed = await mapLimit(Array.from({ length: 12 }, () => randomUUID()), 4, async (key) => {
      const answers = await all((url) => call(url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ total_price_cents: 5000, items: [{ name: 'Kit', quantity: 1, unit_price: 5000 }] }), { 'idempotency-key': key }));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
      return answers[0]!.body.data as { id: number; secureId: string };
    });
    expect(new Set(keyed.map((charge) => charge.id)).size).toBe(12);

    // each paid, then three refunds of R$ 30,00 of R$ 50,00, one to each node at once: one succeeds (a partial refund keeps `paid`)
    await mapLimit(keyed, 4, async (charge, i) => {
      expect((await call(nodes[i % 3]!.url, TOKEN, 'POST', `/api/v2/sandbox/invoices/${charge.id}/pay`)).status).toBe(200);
      const refunds = await all((url) => call(url, TOKEN, 'POST', `/api/v2/invoices/${charge.id}/refund`, { amount_cents: 3000 }));
      // (a refund larger than what is left is refused, 422, by the contract)
      expect(refunds.map((answer) => answer.status).sort()).toEqual([200, 422, 422]);
      expect(refunds.filter((answer) => answer.status === 422).every((answer) => answer.body.message === 'The refund is larger than what is left to refund.')).toBe(true);
    });
    // once the writes are done (a record holds the company's totals, which every charge moves)
    for (const charge of keyed) {
      const records = await all(async (url) => (await call(url, TOKEN, 'GET', `/api/v2/invoices/${charge.id}`)).body);
      expect(records[0]).toMatchObject({ status: 'paid', refundedAmount: 3000 });
      expect(records[1]).toEqual(records[0]);
      expect(records[2]).toEqual(records[0]);
    }

    // charges left to expire (2 s), then read by the three nodes at once as they fall due
    const due = await mapLimit(Array.from({ length: 9 }, (_, i) => i), 3, async (i) => (await call(nodes[i % 3]!.url, TOKEN, 'POST', '/api/v2/invoices', pixBody())).body.data as { id: number; pix: { expiresAt: string } });
    await sleep(Math.max(0, Math.max(...due.map((charge) => Date.parse(charge.pix.expiresAt))) - Date.now() + 50));
    await mapLimit(due, 9, async (charge) => {
      const reads = await all(async (url) => (await call(url, TOKEN, 'GET', `/api/v2/invoices/${charge.id}`)).body.status);
      expect(reads).toEqual(['expired', 'expired', 'expired']);
      const events = ((await call(nodes[0]!.url, TOKEN, 'GET', `/api/v2/invoices/${charge.id}/events`)).body.data as Array<{ event: string }>).map((e) => e.event);
      expect(events).toEqual(['invoice.created', 'invoice.expired']);
    });
  }, 60_000);
});
