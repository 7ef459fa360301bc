// `invoice create --batch`: the built binary against a real `pinvoice serve`, on each engine. What the
// server holds afterwards is read back through the API: ids are sequential, so every id up to the
// highest is looked up, and each line's external_id must be there exactly once.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, boletoCharge, cardCharge } from '../support/charges.js';
import { run, serve, start, tempHome, type ServeProcess } from '../support/cli.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_batch_token_000001';
const work = mkdtempSync(join(tmpdir(), 'pinvoice-batch-'));

interface Served {
  server: ServeProcess;
  env: Record<string, string>;
}

/** A serve of its own for the describe block it is called in, and the environment of a CLI logged in to it. */
function servedFor(args: string[] = []): () => Served {
  let served: Served | undefined;
  beforeAll(async () => {
    const server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN, ...args], tempHome());
    served = { server, env: { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url } };
  });
  afterAll(() => served?.server.stop());
  return () => served as Served;
}

const ndjson = (name: string, lines: string[]) => {
  const path = join(work, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
const results = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));

/**
 * A charge by id, or undefined (404); a 429 (serve --rate-limit) is waited out, and so is a 503 with
 * Retry-After (on PostgreSQL, a loaded machine can make a statement outlast its 4 s: the store answers
 * 503 store_unavailable until it answers again, and a client retries, as this one does).
 */
async function charge(server: ServeProcess, id: number): Promise<{ secureId: string; externalRef: string | null } | undefined> {
  for (;;) {
    const answer = await fetch(`${server.url}/api/v2/invoices/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (answer.status === 200) return (await answer.json()) as { secureId: string; externalRef: string | null };
    if (answer.status !== 429 && !(answer.status === 503 && answer.headers.has('retry-after'))) return void expect(answer.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after') ?? 1) * 1000));
  }
}

/** Every charge the server holds, by id (ids are sequential; a gap answers 404), up to one past the highest given. */
async function charges(server: ServeProcess, highest: number): Promise<Map<number, { secureId: string; externalRef: string | null }>> {
  const found = new Map<number, { secureId: string; externalRef: string | null }>();
  const ids = Array.from({ length: highest + 1 }, (_, i) => i + 1);
  const lookUp = async () => {
    for (let id = ids.shift(); id !== undefined; id = ids.shift()) {
      const record = await charge(server, id);
      if (record) found.set(id, record);
    }
  };
  await Promise.all(Array.from({ length: 16 }, lookUp));
  return found;
}

/** Each line's charge, and nothing else, is on the server: by id, secureId and external_id. */
async function expectExactly(server: ServeProcess, created: { id: number; secureId: string; line: number }[], externalOf: (line: number) => string) {
  const held = await charges(server, Math.max(...created.map((r) => r.id)));
  expect(held.size).toBe(created.length);
  for (const { id, secureId, line } of created) expect(held.get(id)).toMatchObject({ secureId, externalRef: externalOf(line) });
}

describe('a file of mixed lines', () => {
  const s = servedFor();

  // 200 physical lines: pix, boleto and cards (approved, declined, 3-D Secure); every 50 lines a bad JSON
  // line, an invalid CPF and a line that is not an object; line 100 is blank.
  const order = (line: number) => `order-${line}`;
  type Expected = { status: string } | { error: string; paths: string[] };
  function line(n: number): { text: string; expected?: Expected } {
    const external = { external_id: order(n) };
    if (n === 100) return { text: '   ' };
    if (n % 50 === 7) return { text: '{"method": "pix", ', expected: { error: 'invalid_json', paths: [] } };
    if (n % 50 === 19) return { text: JSON.stringify(validPix({ ...external, payer: { ...validPix().payer, cpf_cnpj: '123.456.789-00' } })), expected: { error: 'validation_failed', paths: ['payer.cpf_cnpj'] } };
    if (n % 50 === 33) return { text: n % 2 ? '[1, 2, 3]' : '"pix"', expected: { error: 'validation_failed', paths: ['(body)'] } };
    if (n % 50 === 41) return { text: JSON.stringify(cardCharge(CARDS.declined, external)), expected: { status: 'refused' } };
    if (n % 50 === 42) return { text: JSON.stringify(cardCharge(CARDS.requires3ds, external)), expected: { status: 'waiting_3ds' } };
    const [text, status] = [[validPix(external), 'pending'], [boletoCharge(external), 'pending'], [cardCharge(CARDS.approved, external), 'paid']][n % 3] as [unknown, string];
    return { text: JSON.stringify(text), expected: { status } };
  }
  const lines = Array.from({ length: 200 }, (_, i) => line(i + 1));
  const expected = lines.flatMap(({ expected: e }, i) => (e === undefined ? [] : [{ line: i + 1, ...e }]));
  const okLines = expected.filter((e) => 'status' in e).length;
  let path: string;
  let first: any[];

  it('answers each line in order, exactly; exit 10 and a summary; the server holds exactly the good lines', { timeout: 60_000 }, async () => {
    path = ndjson('mixed.ndjson', lines.map((l) => l.text));
    const result = await run(['invoice', 'create', '--batch', path], { env: s().env, timeoutMs: 50_000 });
    expect(result.code, result.stderr).toBe(10);
    first = results(result.stdout);
    expect(first.map((r) => r.line)).toEqual(expected.map((e) => e.line));
    for (const [i, want] of expected.entries()) {
      const got = first[i];
      if ('status' in want) expect(got).toEqual({ line: want.line, ok: true, id: expect.any(Number), secureId: expect.stringMatching(/^INV-/), status: want.status });
      else {
        expect(got).toMatchObject({ line: want.line, ok: false, error: want.error, message: expect.any(String) });
        expect(got.details.map((d: { path: string }) => d.path)).toEqual(want.paths);
      }
    }
    const failed = expected.length - okLines;
    expect(result.stderr).toMatch(new RegExp(`^batch: ${expected.length} lines, ${okLines} created \\(0 replayed\\), ${failed} failed, [\\d.]+ s \\([\\d,]+/s\\)$`, 'm'));
    expect(result.stderr).toMatch(/pinvoice: 12 of 199 lines failed; their result lines say why/);
    await expectExactly(s().server, first.filter((r) => r.ok), order);
  });

  it('run again (with --out), from the file or from stdin, it creates nothing: the same ids, replayed', { timeout: 60_000 }, async () => {
    const out = join(work, 'again.ndjson');
    const again = await run(['invoice', 'create', '--batch', path, '--out', out], { env: s().env, timeoutMs: 50_000 });
    expect(again.code).toBe(10);
    expect(again.stdout).toBe('');
    expect(results(readFileSync(out, 'utf8'))).toEqual(first);
    expect(again.stderr).toContain(`${okLines} created (${okLines} replayed)`);
    // the key comes from the bytes, not the path: the same bytes on stdin are the same batch
    const piped = await run(['invoice', 'create', '--batch', '-', '--concurrency', '64'], { env: s().env, input: readFileSync(path, 'utf8'), timeoutMs: 50_000 });
    expect(results(piped.stdout)).toEqual(first);
    expect(piped.stderr).toContain(`(${okLines} replayed)`);
    await expectExactly(s().server, first.filter((r) => r.ok), order);
  });

  it('a file of good lines exits 0; a jq filter reads the results', async () => {
    const good = ndjson('good.ndjson', [JSON.stringify(validPix({ external_id: 'good-1' })), JSON.stringify(boletoCharge({ external_id: 'good-2' }))]);
    const result = await run(['invoice', 'create', '--batch', good, '--json'], { env: s().env });
    expect(result.code, result.stderr).toBe(0);
    expect(results(result.stdout).map((r) => [r.line, r.ok, r.status])).toEqual([[1, true, 'pending'], [2, true, 'pending']]);
    expect(result.stderr).toMatch(/^batch: 2 lines, 2 created \(0 replayed\), 0 failed, /);
  });

  it('refuses flags that would change a payload, naming them (exit 2); --concurrency is 1 to 256', async () => {
    const conflict = await run(['invoice', 'create', '--batch', path, '--postback-url', 'https://x.example', '--idempotency-key', 'k', '--dry-run'], { env: s().env });
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toMatch(/--batch does not go with --postback-url, --idempotency-key, --dry-run/);
    expect((await run(['invoice', 'create', '--batch', path, '--file', path], { env: s().env })).stderr).toMatch(/does not go with --file/);
    expect((await run(['invoice', 'create', '--batch', path, '--concurrency', '0'], { env: s().env })).code).toBe(2);
    expect((await run(['invoice', 'create', '--file', path, '--out', 'x'], { env: s().env })).stderr).toMatch(/--out goes with --batch only/);
    expect((await run(['invoice', 'create', '--batch', join(work, 'missing.ndjson')], { env: s().env })).stderr).toMatch(/--batch: \S+missing\.ndjson does not exist/);
  });

  it('a rejected token stops the batch (exit 3); an unreachable server fails every line (exit 5)', async () => {
    const rejected = await run(['invoice', 'create', '--batch', path, '--concurrency', '2'], { env: { ...s().env, PINVOICE_TOKEN: 'pinv_test_not_a_token_of_this_server' } });
    expect(rejected.code).toBe(3);
    expect(rejected.stderr).toMatch(/rejected the token in PINVOICE_TOKEN/);
    expect(results(rejected.stdout).every((r) => r.error === 'unauthorized')).toBe(true);
    const down = await run(['invoice', 'create', '--batch', path, '--concurrency', '4'], { env: { ...s().env, PINVOICE_BASE_URL: 'http://127.0.0.1:9' }, timeoutMs: 30_000 });
    expect(down.code).toBe(5);
    const answered = results(down.stdout);
    expect(answered).toHaveLength(expected.length);
    expect(answered.filter((r) => r.ok)).toEqual([]);
    expect(answered.filter((r) => r.error === 'network').length).toBe(okLines);
    expect(down.stderr).toMatch(/pinvoice: no line was created: cannot connect to http:\/\/127\.0\.0\.1:9/);
  });
});

describe('interrupted midway (SIGINT), then run again', () => {
  const s = servedFor();

  it('writes the lines finished, exits 130; the re-run creates each line exactly once', { timeout: 120_000 }, async () => {
    const external = (line: number) => `sigint-${line}`;
    const path = ndjson('large.ndjson', Array.from({ length: 3000 }, (_, i) => JSON.stringify(validPix({ external_id: external(i + 1) }))));
    const batch = start(['invoice', 'create', '--batch', path, '--concurrency', '2'], s().env);
    await batch.waitForLine((line) => JSON.parse(line).line >= 300, 60_000);
    expect(await batch.stop('SIGINT')).toBe(130);
    const partial = batch.lines().map((line) => JSON.parse(line));
    const done = partial.length;
    expect(done).toBeLessThan(3000);
    expect(partial.map((r) => r.line)).toEqual(Array.from({ length: done }, (_, i) => i + 1));
    expect(partial.every((r) => r.ok)).toBe(true);
    expect(batch.stderr()).toContain(`interrupted after ${done.toLocaleString('en-US')} of 3,000 lines`);

    const rerun = await run(['invoice', 'create', '--batch', path], { env: s().env, timeoutMs: 100_000 });
    expect(rerun.code, rerun.stderr).toBe(0);
    const all = results(rerun.stdout);
    expect(all).toHaveLength(3000);
    expect(all.slice(0, done)).toEqual(partial);
    expect(rerun.stderr).toContain(`3,000 created (${done.toLocaleString('en-US')} replayed)`);
    await expectExactly(s().server, all, external);
  });
});

/** A gateway in front of the server that lets `perSecond` requests through each second (a fixed window) and answers 429 to the rest. */
async function rateLimited(target: string, perSecond: number) {
  const counts = { passed: 0, refused: 0 };
  let windowStart = Date.now();
  let used = 0;
  const proxy = createServer(async (req, res) => {
    const now = Date.now();
    if (now - windowStart >= 1000) [windowStart, used] = [now, 0];
    if (++used > perSecond) {
      counts.refused++;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":"rate_limited","message":"Too many requests."}');
      return;
    }
    counts.passed++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = { authorization: String(req.headers.authorization), 'content-type': 'application/json', 'idempotency-key': String(req.headers['idempotency-key']) };
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, counts, close: () => new Promise((resolve) => proxy.close(resolve)) };
}

describe('answers of 429 rate_limited', () => {
  const s = servedFor();

  it('are waited out (Retry-After) and the line sent again: the batch slows down instead of failing', { timeout: 60_000 }, async () => {
    const gateway = await rateLimited(s().server.url, 20);
    try {
      const path = ndjson('gateway.ndjson', Array.from({ length: 60 }, (_, i) => JSON.stringify(validPix({ external_id: `gateway-${i + 1}` }))));
      const started = Date.now();
      const result = await run(['invoice', 'create', '--batch', path], { env: { ...s().env, PINVOICE_BASE_URL: gateway.url }, timeoutMs: 50_000 });
      expect(result.code, result.stderr).toBe(0);
      expect((Date.now() - started) / 1000).toBeGreaterThanOrEqual(2);
      expect(gateway.counts).toMatchObject({ passed: 60, refused: expect.any(Number) });
      expect(gateway.counts.refused).toBeGreaterThan(0);
      await expectExactly(s().server, results(result.stdout), (line) => `gateway-${line}`);
    } finally {
      await gateway.close();
    }
  });
});

describe('serve --rate-limit', () => {
  const s = servedFor(['--rate-limit', '20/s']);

  it('a batch slows down instead of failing: all ok, in no less time than the limit allows', { timeout: 60_000 }, async () => {
    const path = ndjson('limited.ndjson', Array.from({ length: 100 }, (_, i) => JSON.stringify(validPix({ external_id: `limited-${i + 1}` }))));
    const started = Date.now();
    const result = await run(['invoice', 'create', '--batch', path, '--debug'], { env: s().env, timeoutMs: 50_000 });
    const seconds = (Date.now() - started) / 1000;
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    const answered = results(result.stdout);
    expect(answered.filter((r) => r.ok)).toHaveLength(100);
    // 100 creates at 20 a second: the first second's 20, then at least 4 more seconds
    expect(seconds).toBeGreaterThanOrEqual(4);
    expect(result.stderr).toMatch(/< 429 /);
    expect(result.stderr).toMatch(/rate limited: retrying in (\d+ ms|\d+(\.\d)? s)/);
    await expectExactly(s().server, answered, (line) => `limited-${line}`);
  });
});
