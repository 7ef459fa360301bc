// Three `serve` nodes on one database (a file, or PostgreSQL in that run of the suite): creates spread
// across them, postbacks to a local receiver counted, one node killed with SIGKILL while retries are
// due. Every event is delivered (answered 2xx) exactly once: none lost, none twice.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { call, dbFor, killAll, mapLimit, pixBody, removeWorkDirs, startServe, workDir } from '../support/processes.js';
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
    // each event's first attempt fails (500), so retries are due when the node dies; later ones succeed
    const seen = new Set<string>();
    receiver = await startReceiver((request) => {
      const id = String(request.headers['pinvoice-event-id']);
      if (seen.has(id)) return 200;
      seen.add(id);
      return 500;
    });
    const { dir, env } = workDir();
    const args = ['--port', '0', '--db', await dbFor(dir, 'three'), '--token', TOKEN,
      '--postback-attempts', '8', '--postback-base-delay', '4000', '--postback-timeout', '1000'];
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
    // every event has failed once: retries are due; the first node dies now
    await eventually(() => seen.size >= expected, 20_000, 'a first (failed) attempt of every event');
    await nodes[0]!.kill('SIGKILL');
    // (no retry has started yet: the first retry waits 2 to 4 s) every event ends delivered, as any node tells
    await eventually(async () => {
      const lists = await Promise.all(charges.map(async (charge) => (await call(nodes[1]!.url, TOKEN, 'GET', `/api/v2/invoices/${charge.id}/events`)).body.data as any[]));
      return lists.flat().every((event) => event.state === 'delivered') && lists.flat().length === expected;
    }, 30_000, 'every event delivered');
    const byEvent = new Map<string, number>();
    for (const request of receiver.received) {
      const id = String(request.headers['pinvoice-event-id']);
      byEvent.set(id, (byEvent.get(id) ?? 0) + 1);
    }
    expect(byEvent.size).toBe(expected);
    // the first request of each event was answered 500, the second 200: exactly two requests each
    expect([...byEvent.values()].filter((n) => n !== 2)).toEqual([]);
    const events = (await Promise.all(charges.map(async (charge) => (await call(nodes[2]!.url, TOKEN, 'GET', `/api/v2/invoices/${charge.id}/events`)).body.data as any[]))).flat();
    expect(events.every((event) => event.attempts.filter((a: any) => a.delivered).length === 1)).toBe(true);
  });
});
