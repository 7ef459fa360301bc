// Recordings (contract, "Production through a proxy", "Recordings"), with the built binary in front of
// the production stand-in: `--record FILE` appends every exchange the client saw as a JSON line, in
// order, redacted (no card number, no security code, no token, no Authorization), owner-only under
// umask 000, a second run going on after the first; `--replay FILE` answers from it with the stand-in
// stopped: repeated reads get their recorded answers in order then the last again, a create with a
// new Idempotency-Key matches, a request differing in one member is 404 not_recorded naming it (and
// matches under --ignore), `--strict` names the exchange never asked for and exits 16, and every
// exchange is journaled. A damaged recording is exit 2 naming its file and line; a full disk while
// recording is said once, the proxy still answers, and the file holds whole lines only.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { pixBody, removeWorkDirs, workDir } from '../support/processes.js';
import { setStatus, startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';
import { entryOf, own, raw, startProxy, stopProxies, type ProxyProcess } from '../support/proxy.js';
import { canMountTmpfs, fill, mountTmpfs, type Tmpfs } from '../support/tmpfs.js';

const CARD = '5555555555554444';
const CODE = '7319';
/** The umask a shell's `umask 000` hands down, set before pinvoice's first line runs (as private-files.test.ts does; a worker thread, the journal's writer, may not set it). */
const UMASK_000 = { NODE_OPTIONS: '--import=data:text/javascript,try{process.umask(0)}catch{}' };

const cardBody = () => pixBody({
  method: 'credit_card',
  card: { number: CARD, first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', security_code: CODE, installment: 1 },
});
const json = (headers: Record<string, string>, key = randomUUID()) => ({ ...headers, 'content-type': 'application/json', 'idempotency-key': key });
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

describe.runIf(ENGINE === 'sqlite')('proxy --record, then --replay with no network', () => {
  let gateway: ProductionGateway;
  let dir: string;
  let env: Record<string, string>;
  let recording: string;
  let chargeId: number;
  let firstRunMode = '';
  let secondRunStderr = '';
  const auth = () => ({ authorization: `Bearer ${gateway.token}` });
  /** a key some integrations send in a header of their own (as well as, or instead of, Authorization) */
  const API_KEY = 'sk_live_header_key_never_recorded_01';

  beforeAll(async () => {
    gateway = await startProductionGateway();
    gateway.createAnswer = 'full';
    ({ dir, env } = workDir('pinvoice-record-'));
    recording = join(dir, 'recordings', 'checkout.jsonl');
    const journal = join(dir, 'live.journal');
    const live = await startProxy(['--to', gateway.url, '--port', '0', '--journal', journal, '--allow-writes', '--record', recording], { ...env, ...UMASK_000 });
    expect(live.stderr()).toContain(`recording: every exchange appended to ${recording}`);
    const card = await raw(`${live.url}/api/v2/invoices`, { method: 'POST', headers: json(auth()), body: JSON.stringify(cardBody()) });
    expect(card.status).toBe(200);
    expect(JSON.parse(gateway.requests.at(-1)!.body).card, 'production gets the card as sent').toMatchObject({ number: CARD, security_code: CODE });
    const pix = await raw(`${live.url}/api/v2/invoices`, { method: 'POST', headers: json({ ...auth(), 'x-api-key': API_KEY, 'x-request-id': 'req-kept-1' }), body: JSON.stringify(pixBody()) });
    expect(pix.status).toBe(200);
    const record = gateway.addRecord();
    chargeId = record.id;
    expect((await raw(`${live.url}/api/v2/invoices/${chargeId}`, { headers: auth() })).json.status).toBe('pending');
    setStatus(record, 'paid');
    const paid = await raw(`${live.url}/api/v2/invoices/${chargeId}`, { headers: auth() });
    expect(paid.json.status).toBe('paid');
    await entryOf(live, paid.entry);
    expect(await live.stop('SIGTERM')).toBe(0);
    firstRunMode = (statSync(recording).mode & 0o777).toString(8);
    // a second run, writes refused, goes on in the same file
    const guarded = await startProxy(['--to', gateway.url, '--port', '0', '--journal', journal, '--record', recording], { ...env, ...UMASK_000 });
    const refused = await raw(`${guarded.url}/api/v2/invoices/${chargeId}/refund`, { method: 'POST', headers: json(auth()), body: JSON.stringify({ amount_cents: 100 }) });
    expect(refused.status).toBe(403);
    await entryOf(guarded, refused.entry);
    expect(await guarded.stop('SIGTERM')).toBe(0);
    secondRunStderr = guarded.stderr();
  });
  afterAll(() => gateway?.close());

  it('writes one line per exchange the client saw, in order, the refused write of the second run last', () => {
    const recorded = lines(recording);
    expect(recorded.map((line) => `${line.request.method} ${line.request.path} ${line.answer.status}`)).toEqual([
      'POST /api/v2/invoices 200', 'POST /api/v2/invoices 200', `GET /api/v2/invoices/${chargeId} 200`, `GET /api/v2/invoices/${chargeId} 200`, `POST /api/v2/invoices/${chargeId}/refund 403`,
    ]);
    expect(recorded.map((line) => line.entry)).toEqual([1, 2, 3, 4, 5]);
    expect(recorded.map((line) => JSON.parse(line.answer.body).status ?? JSON.parse(line.answer.body).error)).toEqual([undefined, undefined, 'pending', 'paid', 'proxy_write_refused']);
    for (const line of recorded) {
      expect(line.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Object.keys(line.request.headers).sort()).not.toContain('authorization');
      expect(line.request.headers).not.toHaveProperty('connection');
    }
    expect(recorded[0].request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(recorded[1].request.headers, 'a credential header of its own is left out, others kept').not.toHaveProperty('x-api-key');
    expect(recorded[1].request.headers['x-request-id']).toBe('req-kept-1');
    expect(JSON.parse(recorded[0].request.body).card).toEqual({ number: '555555******4444', first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', installment: 1 });
  });

  it('holds no card number, security code or token in any byte of the file, which is owner-only under umask 000', () => {
    const bytes = readFileSync(recording).toString('latin1');
    expect(bytes).toContain('555555******4444');
    for (const secret of [CARD, gateway.token, API_KEY, 'security_code', 'Bearer ']) expect(bytes, secret).not.toContain(secret);
    expect(bytes).not.toMatch(new RegExp(`(?<![\\w.])${CODE}(?![\\w.])`));
    expect(firstRunMode, 'as the first run made it').toBe('600');
    expect(secondRunStderr, 'the second run found nothing to tighten').not.toContain('made owner-only');
    expect((statSync(recording).mode & 0o777).toString(8)).toBe('600');
    expect((statSync(dirname(recording)).mode & 0o777).toString(8)).toBe('700');
  });

  describe('replayed, the stand-in stopped', () => {
    let replay: ProxyProcess;
    let received: number;
    let lastEntry = 0;
    const journal = () => join(dir, 'replay.journal');
    beforeAll(async () => {
      received = gateway.requests.length;
      await gateway.close();
      replay = await startProxy(['--replay', recording, '--strict', '--port', '0', '--journal', journal()], env);
    });

    it('names the recording at start, and its own API answers with the inspector token', async () => {
      expect(replay.stderr()).toContain(`replaying ${recording} (5 recorded exchanges; nothing is sent to any gateway)`);
      const health = await own(replay, '/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'ok', origin: null, replay: recording });
    });

    it('answers repeated reads with their recorded answers in order, then the last again', async () => {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const got = await raw(`${replay.url}/api/v2/invoices/${chargeId}`, { headers: auth() });
        expect(got.status).toBe(200);
        expect(Number(got.headers['content-length'])).toBe(got.body.length);
        statuses.push(got.json.status);
      }
      expect(statuses).toEqual(['pending', 'paid', 'paid']);
    });

    it('matches the card create sent again with a new Idempotency-Key, and answers what production answered', async () => {
      const got = await raw(`${replay.url}/api/v2/invoices`, { method: 'POST', headers: json(auth()), body: JSON.stringify(cardBody()) });
      expect(got.status, got.body.toString()).toBe(200);
      expect(got.body.toString()).toBe(lines(recording)[0].answer.body);
      expect(got.entry).toBeGreaterThan(0);
    });

    it('answers 404 not_recorded to a create differing in one member, its first near miss naming it', async () => {
      const got = await raw(`${replay.url}/api/v2/invoices`, { method: 'POST', headers: json(auth()), body: JSON.stringify(pixBody({ total_price_cents: 2990 })) });
      expect(got.status).toBe(404);
      lastEntry = got.entry;
      expect(got.json.error).toBe('not_recorded');
      expect(got.json.near_misses.length).toBeLessThanOrEqual(3);
      expect(got.json.near_misses[0]).toMatchObject({ entry: 2, line: 2, request: { method: 'POST', path: '/api/v2/invoices' } });
      expect(got.json.near_misses[0].differences).toEqual([{ path: '/total_price_cents', expected: 1990, received: 2990 }]);
    });

    it('sends nothing to the network', () => {
      expect(gateway.requests.length).toBe(received);
    });

    it('journals the replayed exchanges and the not_recorded one', async () => {
      await entryOf(replay, lastEntry); // (written once the proxy's API has flushed it)
      const list = await run(['logs', 'list', '--journal', journal(), '--json'], { env });
      expect(list.code, list.stderr).toBe(0);
      const entries = JSON.parse(list.stdout).data ?? JSON.parse(list.stdout);
      expect(entries.map((entry: any) => `${entry.method} ${entry.status} ${entry.error}`)).toEqual([
        'GET 200 null', 'GET 200 null', 'GET 200 null', 'POST 200 null', 'POST 404 not_recorded',
      ]);
      expect(entries.every((entry: any) => entry.upstream === null && entry.findings.length === 0)).toBe(true);
    });

    it('--strict: at SIGINT names each recorded exchange never asked for, and exits 16', async () => {
      expect(await replay.stop('SIGINT')).toBe(16);
      expect(replay.stderr()).toContain(`unused: POST /api/v2/invoices (${recording}:2, entry 2)`);
      expect(replay.stderr()).toContain(`unused: POST /api/v2/invoices/${chargeId}/refund (${recording}:5, entry 5)`);
      expect(replay.stderr()).toContain('--strict: 2 of the 5 recorded exchanges were never asked for');
    });

    it('--ignore /total_price_cents lets the differing create match; without --strict the count is said and it exits 0', async () => {
      const loose = await startProxy(['--replay', recording, '--ignore', '/total_price_cents', '--port', '0', '--journal', join(dir, 'loose.journal')], env);
      const got = await raw(`${loose.url}/api/v2/invoices`, { method: 'POST', headers: json(auth()), body: JSON.stringify(pixBody({ total_price_cents: 2990 })) });
      expect(got.status, got.body.toString()).toBe(200);
      expect(got.body.toString()).toBe(lines(recording)[1].answer.body);
      expect(await loose.stop('SIGTERM')).toBe(0);
      expect(loose.stderr()).toContain('4 of the 5 recorded exchanges were never asked for');
      expect(loose.stderr()).not.toContain('unused:');
    });
  });
});

describe.runIf(ENGINE === 'sqlite')('a recording that cannot be replayed, and flags that do not go together', () => {
  const { dir, env } = workDir('pinvoice-replay-bad-');
  const good = '{"at":"2026-12-02T10:00:00.000Z","request":{"method":"GET","path":"/api/v2/company","query":{},"headers":{},"body":null},"answer":{"status":200,"headers":{},"body":"{}"}}';

  it('is exit 2 naming the file and the line that is not JSON, nothing served', async () => {
    const file = join(dir, 'damaged.jsonl');
    writeFileSync(file, `${good}\n{"at": "2026-12-02T10:00:01.000Z", "request": {\n`);
    const got = await run(['proxy', '--replay', file, '--port', '0'], { env });
    expect(got.code).toBe(2);
    expect(got.stderr).toContain(`${file}:2: not JSON`);
    expect(got.stdout).not.toContain('listening');
  });

  it('names the member that is not what an exchange has', async () => {
    const file = join(dir, 'wrong.jsonl');
    writeFileSync(file, `${good}\n\n${good.replace('"method":"GET"', '"method":5')}\n`);
    const got = await run(['proxy', '--replay', file, '--port', '0'], { env });
    expect(got.code).toBe(2);
    expect(got.stderr).toContain(`${file}:3: /request/method must be a string`);
  });

  it('refuses --replay with --to, and a proxy with neither', async () => {
    const both = await run(['proxy', '--replay', join(dir, 'any.jsonl'), '--to', 'http://127.0.0.1:9'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--replay.*--to|--to.*--replay/);
    const neither = await run(['proxy', '--port', '0'], { env });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--to is required');
  });

  it('refuses a folder given as --record, naming it', async () => {
    const got = await run(['proxy', '--to', 'http://127.0.0.1:9', '--port', '0', '--journal', join(dir, 'j.journal'), '--record', dir], { env });
    expect(got.code).toBe(2);
    expect(got.stderr).toContain(`--record ${dir}: a folder, not a file`);
  });
});

describe.runIf(ENGINE === 'sqlite')('a gzip answer, recorded and replayed', () => {
  it('is recorded decoded, without its Content-Encoding, and replayed as that text', async () => {
    const gateway = await startProductionGateway();
    try {
      const { dir, env } = workDir('pinvoice-record-gzip-');
      const file = join(dir, 'gzip.jsonl');
      const live = await startProxy(['--to', gateway.url, '--port', '0', '--journal', join(dir, 'live.journal'), '--record', file], env);
      gateway.once('GET', /\/api\/v2\/company/, { status: 200, body: { data: { name: 'Loja Exemplo' } }, gzip: true });
      const got = await raw(`${live.url}/api/v2/company`, { headers: { authorization: `Bearer ${gateway.token}`, 'accept-encoding': 'gzip' } });
      expect(got.headers['content-encoding'], 'the client got it gzipped').toBe('gzip');
      await entryOf(live, got.entry);
      expect(await live.stop('SIGTERM')).toBe(0);
      const [line] = lines(file);
      expect(line.answer.body).toBe('{"data":{"name":"Loja Exemplo"}}');
      expect(line.answer.headers).not.toHaveProperty('content-encoding');
      expect(line.answer.headers).not.toHaveProperty('content-length');
      const replay = await startProxy(['--replay', file, '--port', '0', '--journal', join(dir, 'replay.journal')], env);
      const again = await raw(`${replay.url}/api/v2/company`, { headers: { 'accept-encoding': 'gzip' } });
      expect(again.headers['content-encoding']).toBeUndefined();
      expect(again.json).toEqual({ data: { name: 'Loja Exemplo' } });
      expect(await replay.stop('SIGTERM')).toBe(0);
    } finally {
      await gateway.close();
    }
  });
});

const tmpfsAllowed = ENGINE === 'sqlite' && canMountTmpfs();

describe.runIf(ENGINE === 'sqlite')('a full disk under a recording', () => {
  it.runIf(process.env.CI === 'true')('can be made here: a tmpfs is mounted (.ci/run runs as root)', () => {
    expect(tmpfsAllowed).toBe(true);
  });

  it.skipIf(!tmpfsAllowed)('is said once, the proxy still answers and journals, and the file holds whole lines only', async () => {
    const mount = mountTmpfs(256) as Tmpfs;
    const gateway = await startProductionGateway();
    try {
      const { dir, env } = workDir('pinvoice-record-full-');
      const file = join(mount.dir, 'full.jsonl');
      const proxy = await startProxy(['--to', gateway.url, '--port', '0', '--journal', join(dir, 'full.journal'), '--record', file], env);
      const record = gateway.addRecord();
      const read = () => raw(`${proxy.url}/api/v2/invoices/${record.id}`, { headers: { authorization: `Bearer ${gateway.token}` } });
      for (let i = 0; i < 3; i++) expect((await read()).status).toBe(200);
      await entryOf(proxy, 3);
      const filler = fill(mount.dir);
      let last = 0;
      for (let i = 0; i < 40; i++) {
        const got = await read();
        expect(got.status).toBe(200);
        last = got.entry;
      }
      await entryOf(proxy, last);
      expect(await proxy.stop('SIGTERM')).toBe(0);
      expect(proxy.stderr().match(/recording: cannot write to/g), proxy.stderr()).toHaveLength(1);
      expect(proxy.stderr()).toContain(`cannot write to ${file} (ENOSPC)`);
      const text = readFileSync(file, 'utf8');
      expect(text.endsWith('\n'), 'the last line is whole').toBe(true);
      const recorded = lines(file);
      expect(recorded.length).toBeGreaterThanOrEqual(3);
      expect(recorded.length).toBeLessThan(43);
      expect(recorded.map((line) => line.entry)).toEqual(recorded.map((_, i) => i + 1));
      rmSync(filler);
      const journaled = await run(['logs', 'list', '--journal', join(dir, 'full.journal'), '--json'], { env });
      expect(JSON.parse(journaled.stdout).data.length).toBe(43);
    } finally {
      await gateway.close();
      mount.unmount();
    }
  });
});
