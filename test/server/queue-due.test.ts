// When the postback queue is next due (store.events.nextDueAt), read through two indexes instead of
// a MIN over the whole queue: on random queues (pending or settled, claimed or not, retries due before
// or after their claims end, several events per charge), it answers what that MIN answers, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_HEAD } from '../../src/server/store/rows.js';
import { request, sql, startTestServer, validPix, type TestServer, type TestStore } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The definition: the earliest of each queue head's next attempt, or its claim's end when later. */
async function byDefinition(): Promise<string | null> {
  const [row] = await sql<{ at: string | null }>(server, `SELECT MIN(CASE WHEN e.lease_until > e.next_attempt_at THEN e.lease_until ELSE e.next_attempt_at END) AS at FROM events e WHERE ${QUEUE_HEAD}`);
  return row?.at ?? null;
}

/** A statement that returns no rows, whichever the engine (`?` placeholders). */
async function exec(text: string, ...params: unknown[]): Promise<void> {
  const store = server.store as TestStore;
  if (store.engine === 'sqlite') store.db.prepare(text).run(...params);
  else await sql(server, text, ...params);
}

/** A small deterministic generator (the failing seed is in the test's name). */
function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

describe('the postback queue’s next due time', () => {
  it('is null for an empty queue, and what the MIN over the queue says on 40 random queues', async () => {
    expect(await server.store.events.nextDueAt(new Date().toISOString())).toBe(await byDefinition());
    // 12 charges with a postback URL, half of them paid: 18 events, up to two per charge
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const created = (await request(server, 'POST', '/api/v2/invoices', { body: validPix({ postback_url: 'http://127.0.0.1:9/hook' }) })).body.data;
      if (i % 2 === 0) expect((await request(server, 'POST', `/api/v2/sandbox/invoices/${created.id}/pay`)).status).toBe(200);
      ids.push(created.id);
    }
    const events = await sql<{ id: number }>(server, 'SELECT id FROM events ORDER BY id');
    expect(events.length).toBe(18);
    const at = (minute: number) => `2026-05-01T12:${String(minute).padStart(2, '0')}:00.000Z`;
    for (let seed = 1; seed <= 40; seed++) {
      const pick = generator(seed);
      for (const { id } of events) {
        const state = ['pending', 'pending', 'pending', 'delivered', 'failed'][pick(5)];
        const next = state === 'pending' ? at(pick(60)) : null;
        const lease = state === 'pending' && pick(3) === 0 ? at(pick(60)) : null;
        await exec('UPDATE events SET state = ?, next_attempt_at = ?, lease_until = ?, claimed_by = ? WHERE id = ?', state, next, lease, lease && 'node', id);
      }
      expect({ seed, at: await server.store.events.nextDueAt(at(0)) }).toEqual({ seed, at: await byDefinition() });
    }
  });
});
