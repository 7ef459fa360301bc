// Several `pinvoice serve` processes of the built binary on one SQLite file, over real HTTP: a first
// start raced by two processes seeds one company; postbacks are delivered once, not once per
// process; a charge is never both paid and expired when a payment meets the other process's expiry
// timer; and an event claimed by a process that dies mid-delivery is delivered by another.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { call, connectionOwners, dbFor, killAll, mapLimit, pixBody, removeWorkDirs, sleep, spawnServe, startServe, workDir, type Answer, type ServeNode } from '../support/processes.js';
import { eventually, startReceiver, type Receiver, type Received } from '../support/receiver.js';

const TOKEN = 'pinv_test_multi_process_token_01';
const POSTBACKS = ['--postback-attempts', '5', '--postback-base-delay', '100', '--postback-timeout', '1000'];
const receivers: Receiver[] = [];

afterEach(async () => {
  await killAll();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(removeWorkDirs);

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

/** Two servers on one new file with the same token, the second started once the first listens. */
async function pair(extra: string[]): Promise<Array<ServeNode & { url: string }>> {
  const { dir, env } = workDir();
  const args = ['--port', '0', '--db', await dbFor(dir, 'shared'), '--token', TOKEN, ...extra];
  const a = await startServe(args, env);
  const b = await startServe(args, env);
  return [a, b];
}

const eventId = (got: Received) => String(got.headers['pinvoice-event-id']);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function create(node: { url: string }, overrides: Record<string, unknown> = {}): Promise<any> {
  const got = await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody(overrides));
  expect(got.status, JSON.stringify(got.body)).toBe(200);
  return got.body.data;
}

const events = async (node: { url: string }, id: string): Promise<any[]> => {
  const got = await call(node.url, TOKEN, 'GET', `/api/v2/invoices/${id}/events`);
  expect(got.status, JSON.stringify(got.body)).toBe(200);
  return got.body.data;
};

/** stderr lines that look like a failure: an error message, SQLite's words, a stack frame */
const FAILURE = /already exists|error|SQLITE|constraint|unique|exception|^pinvoice: |^\s+at .+:\d+:\d+\)?$/im;

describe('two serve processes started at the same moment on a new file', () => {
  it('both listen, the file holds exactly one company, and neither reports an error (8 fresh files)', async () => {
    for (let round = 0; round < 8; round++) {
      const { dir, env } = workDir();
      const db = await dbFor(dir, `race-${round}`);
      // with --token (as in CI) and without it (the first start shows the token it created, once)
      const withToken = round % 2 === 0;
      const args = ['--port', '0', '--db', db, ...(withToken ? ['--token', TOKEN] : [])];
      // both spawned before either listens
      const nodes = [spawnServe(args, env), spawnServe(args, env)];
      const started = await Promise.allSettled(nodes.map((node) => node.listening));
      const what = `round ${round} (${withToken ? 'with' : 'without'} --token)`;
      expect(started.map((s) => (s.status === 'fulfilled' ? 'listening' : (s.reason as Error).message)), what).toEqual(['listening', 'listening']);
      const urls = started.map((s) => (s as PromiseFulfilledResult<string>).value);

      const listed = await run(['serve', 'company', 'list', '--db', db, '--json'], { env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout), what).toHaveLength(1);

      let token = TOKEN;
      if (!withToken) {
        // the seeding start prints the token after its listening line: wait for it
        const shown = () => nodes.map((node) => /shown this once:\n\n {2}(\S+)\n/.exec(node.stderr())?.[1]).filter((t): t is string => t !== undefined);
        await eventually(() => shown().length > 0, 5_000, 'the seeded token on stderr');
        await sleep(300);
        expect(shown(), `${what}: exactly one start created the company and showed its token`).toHaveLength(1);
        token = shown()[0] ?? '';
      }
      // one company, whose token both servers accept
      for (const url of urls) expect((await call(url, token, 'GET', '/api/v2/company')).status, `${what}: ${url}`).toBe(200);

      const exits = await Promise.all(nodes.map((node) => node.kill('SIGTERM')));
      expect(exits, what).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }]);
      for (const node of nodes) expect(node.stderr(), what).not.toMatch(FAILURE);
    }
  }, 60_000);
});

describe('postbacks with two serve processes on one file', () => {
  it('delivers every event exactly once, whichever process recorded it', async () => {
    const hook = await receiver();
    const nodes = await pair(POSTBACKS);
    const node = (i: number) => nodes[i % 2] as ServeNode & { url: string };
    const charges = await mapLimit(range(60), 6, (i) => create(node(i), { postback_url: hook.url }));
    // half of them paid, on alternating processes (not always the one that created the charge)
    const paid = charges.filter((_, i) => i % 4 < 2);
    const pays = await mapLimit(paid, 6, async (charge, j) => (await call(node(j).url, TOKEN, 'POST', `/api/v2/sandbox/invoices/${charge.secureId}/pay`)).status);
    expect(pays.every((status) => status === 200), `pay answers: ${pays.join(' ')}`).toBe(true);

    const lists = await mapLimit(charges, 6, (charge, i) => events(node(i), charge.secureId));
    expect(lists.map((list) => list.map((e) => e.event))).toEqual(charges.map((_, i) => (i % 4 < 2 ? ['invoice.created', 'invoice.paid'] : ['invoice.created'])));
    const expected = lists.flat().map((e) => String(e.id));
    expect(expected).toHaveLength(90);
    expect(new Set(expected).size).toBe(90);

    const seen = () => new Set(hook.received.map(eventId));
    await eventually(() => expected.every((id) => seen().has(id)), 30_000).catch(() => undefined);
    expect(expected.filter((id) => !seen().has(id)), 'events the receiver never got (in 30 s)').toEqual([]);
    // both processes look for due events at least every second: give a duplicate time to come
    await sleep(2_500);

    const counts = new Map<string, number>();
    for (const got of hook.received) counts.set(eventId(got), (counts.get(eventId(got)) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`), 'event ids received more than once').toEqual([]);
    expect([...counts.keys()].filter((id) => !expected.includes(id)), 'event ids nobody recorded').toEqual([]);
    expect(hook.received.every((got) => got.json?.event_id === eventId(got))).toBe(true);

    const after = await mapLimit(charges, 6, (charge, i) => events(node(i + 1), charge.secureId));
    for (const e of after.flat()) {
      expect(e.state, e.id).toBe('delivered');
      expect(e.attempts.filter((attempt: any) => attempt.delivered), e.id).toHaveLength(1);
    }
  }, 60_000);
});

describe('pix expiry with two serve processes on one file', () => {
  it('never leaves a charge both paid and expired when a payment meets the expiry', async () => {
    const nodes = await pair(['--pix-expiry', '1']);
    const node = (i: number) => nodes[i % 2] as ServeNode & { url: string };
    // each payment sent around its charge's expiry (scheduled as soon as the charge exists), while the
    // expiry timers of both processes run (every second each): most within 25 ms of it, one in four
    // 300 ms before or after, so that both outcomes surely occur
    const pays: Array<Promise<{ charge: any; offset: number; answer: Answer }>> = [];
    await mapLimit(range(40), 8, async (i) => {
      const charge = await create(node(i));
      const offset = i % 4 === 0 ? (i % 8 === 0 ? -300 : 300) : Math.round(-25 + 50 * Math.random());
      const pay = (async () => {
        await sleep(Math.max(0, Date.parse(charge.pix.expiresAt) + offset - Date.now()));
        return { charge, offset, answer: await call(node(i + 1).url, TOKEN, 'POST', `/api/v2/sandbox/invoices/${charge.secureId}/pay`) };
      })();
      pay.catch(() => undefined); // awaited below; a failed create must not leave it unhandled
      pays.push(pay);
    });
    const outcomes = await Promise.all(pays);
    await sleep(1_500); // past every expiry, and past a run of each timer

    const problems: string[] = [];
    let [paid, expired] = [0, 0];
    for (const { charge, offset, answer } of outcomes) {
      const what = `${charge.secureId} (pay at expiry ${offset >= 0 ? '+' : ''}${offset} ms, answered ${answer.status} ${answer.body?.error ?? answer.body?.status})`;
      const statuses = await Promise.all(nodes.map(async (n) => (await call(n.url, TOKEN, 'GET', `/api/v2/invoices/${charge.secureId}`)).body?.status));
      const [history, historyB] = await Promise.all(nodes.map((n) => events(n, charge.secureId)));
      const names = (history ?? []).map((e) => e.event);
      if (statuses[0] !== statuses[1]) problems.push(`${what}: the processes disagree: ${statuses.join(' / ')}`);
      if (JSON.stringify(history) !== JSON.stringify(historyB)) problems.push(`${what}: the processes show different events`);
      if (answer.status === 200) {
        paid++;
        if (statuses[0] !== 'paid' || !names.includes('invoice.paid') || names.includes('invoice.expired')) problems.push(`${what}: status ${statuses[0]}, events ${names.join(', ')}`);
      } else if (answer.status === 409 && answer.body?.error === 'invalid_state') {
        expired++;
        if (statuses[0] !== 'expired' || !names.includes('invoice.expired') || names.includes('invoice.paid')) problems.push(`${what}: status ${statuses[0]}, events ${names.join(', ')}`);
      } else {
        problems.push(`${what}: neither 200 nor 409 invalid_state: ${JSON.stringify(answer.body)}`);
      }
    }
    console.info(`multi-process: around the pix expiry, ${paid} paid and ${expired} expired`);
    expect(problems).toEqual([]);
    // both sides of the boundary were met, or the test proved nothing
    expect(paid, `${paid} paid, ${expired} expired`).toBeGreaterThan(0);
    expect(expired, `${paid} paid, ${expired} expired`).toBeGreaterThan(0);
  }, 40_000);
});

describe('a process killed in the middle of a delivery', () => {
  it('leaves its claim to expire, and another process delivers the event, once', async () => {
    // the first request for each event hangs (never answered); every later one is answered 200
    const hung = new Set<string>();
    const hook = await receiver((got) => {
      if (hung.has(eventId(got))) return 200;
      hung.add(eventId(got));
      return 'hang';
    });
    const [a, b] = (await pair(POSTBACKS)) as [ServeNode & { url: string }, ServeNode & { url: string }];
    // the other process looks for due events about every second: meet its poll at any phase
    await sleep(Math.random() * 1_000);
    const charge = await create(a, { postback_url: hook.url });
    const [first] = await hook.waitFor(1, 10_000);
    const id = eventId(first as Received);
    expect(first?.json).toMatchObject({ invoice_id: charge.secureId, event: 'invoice.created' });

    const owners = connectionOwners(hook.port, [a.pid, b.pid]);
    const holder = owners.length === 1 && owners[0] === b.pid ? b : a;
    const survivor = holder === a ? b : a;
    const deliveries = () => hook.received.filter((got) => eventId(got) === id);
    // while the holder lives and waits for its answer, the other process leaves the event alone
    await sleep(700);
    expect(deliveries(), 'a second request while the first was still in flight').toHaveLength(1);
    // then kill the process holding the hanging request (found through /proc, else A), before its timeout
    const killedAt = Date.now();
    expect(await holder.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    await eventually(() => deliveries().length >= 2, 15_000, 'the event delivered again after the kill');
    const tookMs = Date.now() - killedAt;
    await eventually(async () => (await events(survivor, charge.secureId))[0]?.state === 'delivered', 5_000, 'the event recorded as delivered');
    // a second 200 would come within the poll interval or a retry delay: give it the time
    await sleep(2_500);

    expect(deliveries(), 'the hung request, then exactly one answered 200').toHaveLength(2);
    expect(hook.received).toHaveLength(2);
    const [recorded] = await events(survivor, charge.secureId);
    expect(recorded).toMatchObject({ id, state: 'delivered' });
    expect(recorded.attempts.filter((attempt: any) => attempt.delivered)).toHaveLength(1);
    console.info(`multi-process: holder ${owners.length === 1 ? 'found through /proc' : 'unknown, killed A'} (${holder === a ? 'A' : 'B'}); delivered by the other ${tookMs} ms after the kill`);
  }, 40_000);
});
