// PostgreSQL going away under two `serve` nodes, as a maintenance restart or a failover does: the
// cluster (one of this file's own) is stopped with `pg_ctl stop -m immediate` and with `-m fast` while
// both nodes take creates with Idempotency-Keys, and started again 3 s later. Both processes live
// through it, every answer is a 2xx or a 503 with Retry-After, both nodes create again within 5 s of
// the database's return, every acknowledged create reads back, and no key made two charges.
// Also: a "database" that accepts connections and never answers is named at start, within --db-timeout.
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { call, killAll, pixBody, removeWorkDirs, sleep, startServe, workDir, type ServeNode } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';
import { scrape } from '../support/metrics.js';
import { canMountTmpfs, fill, mountTmpfs, type Tmpfs } from '../support/tmpfs.js';

const TOKEN = 'ci_fixed_token_0123456789';
afterEach(killAll);
afterAll(removeWorkDirs);

interface Outcome {
  node: number;
  status: number | 'no answer';
  retryAfter: string | null;
  ms: number;
  at: number;
}

/** Workers creating charges, each with a key of its own retried (after Retry-After) until acknowledged, alternating nodes. */
function createLoad(urls: string[], workers: number) {
  const outcomes: Outcome[] = [];
  const acknowledged = new Map<string, { id: number; node: number }>();
  let running = true;
  const worker = async (w: number) => {
    for (let n = 0; running; n++) {
      const key = randomUUID();
      for (let attempt = 0; running; attempt++) {
        const node = (w + n + attempt) % urls.length;
        const started = performance.now();
        let outcome: Outcome;
        try {
          const response = await fetch(`${urls[node]}/api/v2/invoices`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify(pixBody({ external_id: key })),
            signal: AbortSignal.timeout(15_000),
          });
          const body = (await response.json()) as { data?: { id: number } };
          outcome = { node, status: response.status, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started, at: performance.now() };
          if (response.status === 201 || response.status === 200) acknowledged.set(key, { id: body.data?.id as number, node });
        } catch {
          outcome = { node, status: 'no answer', retryAfter: null, ms: performance.now() - started, at: performance.now() };
        }
        outcomes.push(outcome);
        if (typeof outcome.status === 'number' && outcome.status < 300) break;
        if (outcome.status !== 503) break; // anything else is a failure of the test, reported below
        await sleep(Number(outcome.retryAfter ?? 1) * 1000);
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return {
    outcomes,
    acknowledged,
    /** the first 2xx a node gave after `since` (performance.now()) */
    firstCreated: (node: number, since: number) => outcomes.find((o) => o.node === node && o.at > since && typeof o.status === 'number' && o.status < 300),
    async stop() {
      running = false;
      await done;
    },
  };
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return;
    await sleep(50);
  }
}

describe.skipIf(ENGINE !== 'postgres')('PostgreSQL restarted under two nodes taking creates', () => {
  let cluster: TestPostgres;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.stop());

  async function database(name: string): Promise<string> {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return cluster.url.replace(/\/postgres$/, `/${name}`);
  }

  for (const mode of ['immediate', 'fast'] as const) {
    it(`pg_ctl stop -m ${mode}, started 3 s later: both nodes live, answer 2xx or 503 with Retry-After, create again within 5 s, and no key makes two charges`, async () => {
      const db = await database(`outage_${mode}`);
      const { env } = workDir();
      const args = ['--port', '0', '--db', db, '--token', TOKEN, '--postback-attempts', '1'];
      const nodes: (ServeNode & { url: string })[] = [await startServe(args, env), await startServe(args, env)];
      const load = createLoad(nodes.map((n) => n.url), 6);
      try {
        await sleep(1500);
        cluster.halt(mode);
        await sleep(3000);
        const health = await call(nodes[0]!.url, TOKEN, 'GET', '/health');
        // /metrics answers meanwhile (what it reads from the database left out) and says the store is at fault
        const away = await scrape(nodes[0]!.url);
        cluster.restart();
        const back = performance.now();
        await until(() => nodes.every((_, i) => load.firstCreated(i, back)), 10_000);
        await sleep(500);
        await load.stop();

        // while the database was away, /health said so
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({ status: 'degraded', code: 'store_unavailable' });
        expect(health.body.reason).toMatch(/^The database postgres:\/\/…@127\.0\.0\.1:\d+\/outage_\w+ does not answer/);
        expect(away.status).toBe(200);
        expect(away.value('pinvoice_store_healthy', { engine: 'postgres' })).toBe(0);
        expect(away.family('pinvoice_postback_backlog_events').metrics).toEqual([]);
        // and each node counted the calls the outage failed: every create it answered 503 at least
        for (const node of nodes) {
          const after = await scrape(node.url);
          const refused = after.value('pinvoice_requests_total', { operation: 'createInvoice', status: '503' }) ?? 0;
          expect(refused).toBeGreaterThan(0);
          expect(after.value('pinvoice_store_errors_total', { engine: 'postgres', code: 'store_unavailable' })).toBeGreaterThanOrEqual(refused);
        }
        // both processes alive
        for (const node of nodes) expect(node.child.exitCode).toBeNull();
        // every answer a 2xx, or a 503 with Retry-After; none took longer than the 5 s bound (and some slack for a loaded machine)
        const wrong = load.outcomes.filter((o) => !(o.status === 201 || o.status === 200 || (o.status === 503 && o.retryAfter !== null)));
        expect(wrong).toEqual([]);
        expect(load.outcomes.filter((o) => o.status === 503).length).toBeGreaterThan(0);
        expect(Math.max(...load.outcomes.map((o) => o.ms))).toBeLessThan(6000);
        // each node created again within 5 s of the database's return
        for (let i = 0; i < nodes.length; i++) expect((load.firstCreated(i, back)?.at ?? Infinity) - back).toBeLessThan(5000);
        // one line each when the store went away and came back, no stack trace
        for (const node of nodes) {
          expect(node.stderr()).toMatch(/^store: The database postgres:\/\/…@127\.0\.0\.1:\d+\/outage_\w+ does not answer \(.+\)\. Meanwhile requests are answered 503 store_unavailable/m);
          expect(node.stderr()).toMatch(/^store: the database answers again after \d+\.\d s: serving as usual$/m);
          expect(node.stderr()).not.toMatch(/^\s+at /m);
        }
      } finally {
        await load.stop();
      }
      // every acknowledged create reads back, on either node, and no key made two charges
      const acknowledged = [...load.acknowledged.entries()];
      expect(acknowledged.length).toBeGreaterThan(20);
      for (const [key, { id }] of acknowledged) {
        const read = await call(nodes[id % 2]!.url, TOKEN, 'GET', `/api/v2/invoices/${id}`);
        expect(read.status).toBe(200);
        expect(read.body.externalRef).toBe(key);
      }
      // the journal kept the requests answered 503 while the database was away, and wrote them once it was back
      let refused: any[] = [];
      await until(async () => {
        const page = await call(nodes[1]!.url, TOKEN, 'GET', '/api/v2/sandbox/requests?status=503&limit=500');
        refused = page.status === 200 ? page.body.data : [];
        return refused.length > 0;
      }, 5000);
      expect(refused[0]).toMatchObject({ method: 'POST', status: 503, error: 'store_unavailable' });
      const client = new pg.Client({ connectionString: db });
      await client.connect();
      try {
        const twice = await client.query('SELECT external_ref, count(*) FROM invoices GROUP BY external_ref HAVING count(*) > 1');
        expect(twice.rows).toEqual([]);
      } finally {
        await client.end();
      }
    }, 60_000);
  }

  it('postbacks go on after the outage at once: each node listens again, so a new event is heard in a second, not at the 30 s look', async () => {
    const db = await database('outage_postbacks');
    const receiver = await startReceiver();
    try {
      const { env } = workDir();
      const args = ['--port', '0', '--db', db, '--token', TOKEN];
      const nodes = [await startServe(args, env), await startServe(args, env)];
      cluster.halt('immediate');
      await sleep(1500);
      cluster.restart();
      for (const node of nodes) await until(async () => (await call(node.url, TOKEN, 'GET', '/health')).body.status === 'ok', 5000);
      await sleep(1200); // the LISTEN connections are taken again within a second of the return
      const created = await call(nodes[0]!.url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ postback_url: `${receiver.url}/hook` }));
      expect(created.status).toBe(200);
      const [delivered] = await receiver.waitFor(1, 3000);
      expect(delivered?.json).toMatchObject({ event: 'invoice.created', invoice_id: created.body.data.secureId });
    } finally {
      await receiver.close();
    }
  }, 30_000);

  // A tablespace on a small tmpfs, filled up: PostgreSQL's own "could not extend file" (53100), while its
  // write-ahead log, in the cluster's folder, has room (the disk of a database, not of the server, is full).
  const tmpfsAllowed = ENGINE === 'postgres' && canMountTmpfs();
  it.runIf(process.env.CI === 'true')('can fill a disk here: a tmpfs is mounted (.ci/run runs as root)', () => {
    expect(tmpfsAllowed).toBe(true);
  });

  it.skipIf(!tmpfsAllowed)('a full disk under the database is answered 507 insufficient_storage naming it, told once, and over once space is freed', async () => {
    // the cluster runs as nobody when the tests run as root (PostgreSQL refuses root)
    const mount = mountTmpfs(16 * 1024, process.getuid?.() === 0 ? 65534 : process.getuid?.()) as Tmpfs;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      await admin.query(`CREATE TABLESPACE small LOCATION '${mount.dir}'`);
      await admin.query('CREATE DATABASE on_small TABLESPACE small');
      const db = cluster.url.replace(/\/postgres$/, '/on_small');
      const { env } = workDir();
      const node = await startServe(['--port', '0', '--db', db, '--token', TOKEN], env);
      const create = (key = randomUUID()) => call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ external_id: key }), { 'idempotency-key': key });
      const first = await create();
      expect(first.status).toBe(200);

      const filler = fill(mount.dir);
      // The journal's rows are larger than a charge's and may meet the full disk first, while charges are still
      // saved in their tables' last pages: that is the journal's trouble, not the store's (no "full" and "saved
      // again" told by turns). Refused creates with large bodies fill the journal alone, until its read says 507.
      let journalFull: Awaited<ReturnType<typeof create>> | undefined;
      for (let i = 0; i < 200 && !journalFull; i++) {
        await call(node.url, TOKEN, 'POST', '/api/v2/invoices', { payment_method: 'pix', notes: randomBytes(30_000).toString('base64') });
        const answer = await call(node.url, TOKEN, 'GET', '/api/v2/sandbox/requests?limit=1');
        if (answer.status !== 200) journalFull = answer;
      }
      expect(journalFull?.status).toBe(507);
      expect(journalFull?.body.error).toBe('insufficient_storage');
      let full: Awaited<ReturnType<typeof create>> | undefined;
      for (let i = 0; i < 2000 && !full; i++) {
        const answer = await create();
        if (answer.status !== 200) full = answer;
      }
      expect(full?.status).toBe(507);
      expect(full?.body.error).toBe('insufficient_storage');
      expect(full?.body.message).toMatch(/^The disk holding the database postgres:\/\/…@127\.0\.0\.1:\d+\/on_small is full \(PostgreSQL: could not extend file .+No space left on device\): nothing was saved; changes work again once space is freed, reads work meanwhile\.$/);
      expect((await call(node.url, TOKEN, 'GET', `/api/v2/invoices/${first.body.data.id}`)).status).toBe(200);
      expect((await call(node.url, TOKEN, 'GET', '/health')).body).toMatchObject({ status: 'degraded', code: 'insufficient_storage' });

      for (let i = 0; i < 20; i++) expect((await call(node.url, TOKEN, 'GET', `/api/v2/invoices/${first.body.data.id}?read=${i}`)).status).toBe(200);

      rmSync(filler);
      expect((await create()).status).toBe(200);
      expect((await call(node.url, TOKEN, 'GET', '/health')).body).toMatchObject({ status: 'ok' });
      // what waited in memory is saved once there is room: none of the reads made meanwhile is lost
      const reads = await call(node.url, TOKEN, 'GET', '/api/v2/sandbox/requests?method=GET&path=/api/v2/invoices/*&limit=100');
      expect(reads.status).toBe(200);
      expect(reads.body.data.filter((entry: { query?: Record<string, string> }) => entry.query?.read !== undefined)).toHaveLength(20);
      expect(await node.kill('SIGTERM')).toEqual({ code: 0, signal: null });
      const lines = node.stderr().split('\n').filter((line) => line.startsWith('store: '));
      expect(lines).toEqual([expect.stringMatching(/^store: The disk holding the database .+ is full .+ Meanwhile changes are answered 507/), expect.stringMatching(/^store: changes are saved again after/)]);
      // the journal's rows are larger than a charge's and may meet the full disk first: told once, on its own lines
      const journalLines = node.stderr().split('\n').filter((line) => line.startsWith('journal: '));
      expect(journalLines).toEqual([expect.stringMatching(/^journal: entries wait in memory .+ until they can be saved: The disk holding the database .+ is full/), 'journal: entries are saved again']);
      expect(node.stderr()).not.toMatch(/^\s+at /m);
    } finally {
      await killAll();
      await admin.query('DROP DATABASE IF EXISTS on_small').catch(() => undefined);
      await admin.query('DROP TABLESPACE IF EXISTS small').catch(() => undefined);
      await admin.end();
      mount.unmount();
    }
  }, 60_000);
});

describe.skipIf(ENGINE !== 'sqlite')('a database that accepts connections and never answers', () => {
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    silent = net.createServer((socket) => {
      sockets.add(socket); // holds the connection open and says nothing, as a stuck proxy or a firewall does
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('is named after --db-timeout: exit 1, one line, the password hidden', async () => {
    const { port } = silent.address() as net.AddressInfo;
    const { env } = workDir();
    const started = performance.now();
    const result = await run(['serve', '--port', '0', '--db', `postgres://pinvoice:s3cret@127.0.0.1:${port}/team`, '--db-timeout', '2'], { env });
    const took = performance.now() - started;
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`pinvoice: cannot open database postgres://…@127.0.0.1:${port}/team: it did not answer within 2 s (--db-timeout)\n`);
    expect(took).toBeGreaterThan(1900);
    expect(took).toBeLessThan(8000);
  });
});
