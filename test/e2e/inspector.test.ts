// The inspector's journal end to end, on the engine of the run (SQLite file or PostgreSQL): the built
// binary's `serve`, driven over plain HTTP as a merchant's code would. A card create is kept redacted
// (the raw number and security code appear nowhere: database bytes, list, stream, logs), the webhook
// secret and a sign-in link's code are in no entry or journal byte, a refused create keeps its
// problems, a replay is marked, postback attempts to a receiver that answers 500 then 200 are both
// there, a wait answers a request made 200 ms later, a find that misses names the member that
// differed, companies are apart, eviction is counted, and two nodes of one database share one journal.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { call, dbFor, killAll, pixBody, removeWorkDirs, sleep, startServe, workDir, type ServeNode } from '../support/processes.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';
import { holding, storedTexts } from '../support/stored.js';

const TOKEN = 'pinv_test_inspector_token_0001';
const CARD = '4111111111111111';
const CODE = '8642';
const cardBody = () => pixBody({
  method: 'credit_card',
  card: { number: CARD, first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', security_code: CODE, installment: 1 },
});

/** The first `count` events of a Server-Sent Events stream, as parsed entries, and its raw text. */
async function readStream(url: string, token: string, count: number, timeoutMs = 5000): Promise<{ entries: any[]; text: string }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const decoder = new TextDecoder();
  let text = '';
  const entries: any[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    const events = text.split('\n\n').filter((block) => block.includes('event: entry'));
    if (events.length >= count) {
      for (const block of events.slice(0, count)) entries.push(JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))!.slice(6)));
      break;
    }
  }
  return { entries, text };
}

const list = async (url: string, token: string, query = '') => call(url, token, 'GET', `/api/v2/sandbox/requests${query}`);

afterAll(async () => {
  await killAll();
  removeWorkDirs();
});

describe(`the journal (${ENGINE})`, () => {
  let node: ServeNode & { url: string };
  let db: string;
  let env: Record<string, string>;
  let receiver: Receiver;
  beforeAll(async () => {
    const work = workDir('pinvoice-inspector-');
    env = work.env;
    db = await dbFor(work.dir, 'inspector');
    // the first attempt of each event is answered 500, the second 200
    receiver = await startReceiver((_request, index) => (index % 2 === 0 ? 500 : 200));
    node = await startServe(['--port', '0', '--db', db, '--token', TOKEN, '--postback-attempts', '3', '--postback-base-delay', '50'], env);
    return () => receiver.close();
  });

  it('keeps a card create redacted: the raw number and security code reach no answer, stream, log or database byte', async () => {
    const stream = readStream(`${node.url}/api/v2/sandbox/requests/stream`, TOKEN, 1);
    await sleep(200); // the stream starts from now
    const created = await call(node.url, TOKEN, 'POST', '/api/v2/invoices', cardBody(), { 'idempotency-key': randomUUID() });
    expect(created.status).toBe(200);
    const { entries, text } = await stream;
    // the stream names its starting cursor first: a client that loses it before any entry resumes from there
    expect(text).toMatch(/^retry: 1000\nid: \d+\n/);
    expect(entries[0]).toMatchObject({ direction: 'in', method: 'POST', path: '/api/v2/invoices', status: 200, token_name: expect.any(String), invoice_ids: [created.body.data.id] });
    expect(entries[0].body.card.number).toBe('411111******1111');
    expect(entries[0].body.card).not.toHaveProperty('security_code');
    expect(entries[0].headers.authorization).toBe(`Bearer ${TOKEN.slice(0, 8)}…${TOKEN.slice(-4)}`);
    const page = await list(node.url, TOKEN, `?invoice_id=${created.body.data.secureId}`);
    expect(page.body.data.map((entry: any) => entry.id)).toContain(entries[0].id);
    const shown = await call(node.url, TOKEN, 'GET', `/api/v2/sandbox/requests/${entries[0].id}`);
    expect(shown.body.response_body.data.id).toBe(created.body.data.id);
    // a lookup's answer is kept as the record it was
    // (read twice and refunded between: the same record read again is kept once, and each entry shows the one it got)
    const path = `/api/v2/invoices/${created.body.data.secureId}`;
    const read = await call(node.url, TOKEN, 'GET', path);
    await call(node.url, TOKEN, 'GET', path);
    expect((await call(node.url, TOKEN, 'POST', `${path}/refund`, { amount_cents: 100 })).status).toBe(200);
    const after = await call(node.url, TOKEN, 'GET', path);
    const lookups = (await list(node.url, TOKEN, `?method=GET&path=${path}`)).body.data;
    expect(lookups).toHaveLength(3);
    expect(lookups[0]).toMatchObject({ status: 200, invoice_ids: [created.body.data.id] });
    expect(lookups.map((e: any) => e.response_body)).toEqual([read.body, read.body, after.body]);
    expect(after.body.refundedAmount).toBe(100);
    // an answer that is not a charge's record names no charge (the company's own id is not one)
    expect((await call(node.url, TOKEN, 'GET', '/api/v2/company')).status).toBe(200);
    expect((await list(node.url, TOKEN, '?path=/api/v2/company')).body.data[0].invoice_ids).toEqual([]);
    // a query that no company token made is not there: /health and the journal's own reads
    await fetch(`${node.url}/health`);
    const paths = (await list(node.url, TOKEN)).body.data.map((entry: any) => entry.path);
    expect(paths).not.toContain('/health');
    expect(paths.some((path: string) => path.startsWith('/api/v2/sandbox/requests'))).toBe(false);
    // every byte and row of the store, JSON within JSON read out and deflated bodies inflated: the
    // number only masked, the code (a value of its own, under any member) and the token nowhere
    const stored = await storedTexts(db);
    expect(holding(stored, '411111******1111').length, 'the journal\'s bodies were read').toBeGreaterThan(0);
    for (const secret of [CARD, CODE, TOKEN, '"security_code"']) expect(holding(stored, secret), `${secret} in the store`).toEqual([]);
    const everywhere = [text, JSON.stringify(page.body), JSON.stringify(shown.body), node.stdout(), node.stderr()].join('\n');
    expect(everywhere).not.toContain(CARD);
    expect(everywhere).not.toContain(TOKEN);
    expect(everywhere).not.toMatch(new RegExp(`security_code|(?<![\\w.])${CODE}(?![\\w.])`));
  });

  it('keeps the webhook secret and a sign-in link\'s code out of the journal: their requests are there, the values in no entry, stream, `logs list` or journal byte', async () => {
    const after = (await list(node.url, TOKEN, '?limit=500')).body.next_cursor as number;
    const secret = (await call(node.url, TOKEN, 'GET', '/api/v2/webhooks/secret')).body.webhook_secret as string;
    const link = (await call(node.url, TOKEN, 'POST', '/api/v2/sandbox/dashboard/links')).body.url as string;
    const code = new URL(link).searchParams.get('code') ?? '';
    expect(secret).toMatch(/^\S{16,}$/);
    expect(code).toMatch(/^[\w-]{43}$/);
    const entries = (await list(node.url, TOKEN, `?after=${after}`)).body.data as any[];
    expect(entries.map((entry) => [entry.path, entry.status])).toEqual([['/api/v2/webhooks/secret', 200], ['/api/v2/sandbox/dashboard/links', 200]]);
    expect(entries[0].response_body.webhook_secret).toBe('[redacted]');
    const shown = await Promise.all(entries.map((entry) => call(node.url, TOKEN, 'GET', `/api/v2/sandbox/requests/${entry.id}`)));
    const { text } = await readStream(`${node.url}/api/v2/sandbox/requests/stream?after=${after}`, TOKEN, 2);
    const logs = await run(['logs', 'list', '--json', '--limit', '500'], { env: { ...env, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: node.url } });
    expect(logs.code, logs.stderr).toBe(0);
    const journal = await storedTexts(db, 'journal');
    expect(holding(journal, '/api/v2/webhooks/secret').length, 'the journal\'s own store was read').toBeGreaterThan(0);
    for (const value of [secret, code]) {
      for (const [where, seen] of [['the list', JSON.stringify(entries)], ['an entry', JSON.stringify(shown.map((s) => s.body))], ['the stream', text], ['logs list', logs.stdout]]) {
        expect(seen, `${value} in ${where}`).not.toContain(value);
      }
      expect(holding(journal, value), `${value} in the journal's store`).toEqual([]);
    }
  });

  it('keeps a refused create with its problems as JSON pointers, and marks an idempotent replay', async () => {
    const refused = await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ payer: { ...pixBody().payer, cpf_cnpj: '123' } }));
    expect(refused.status).toBe(422);
    const key = randomUUID();
    for (let i = 0; i < 2; i++) expect((await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody(), { 'idempotency-key': key })).status).toBe(200);
    const page = await list(node.url, TOKEN, '?status=4xx&method=post');
    const entry = page.body.data.at(-1);
    expect(entry).toMatchObject({ status: 422, error: 'validation_failed' });
    expect(entry.problems).toContainEqual({ path: '/payer/cpf_cnpj', message: expect.any(String) });
    const keyed = (await list(node.url, TOKEN, '?method=POST&path=/api/v2/invoices&status=200')).body.data.filter((e: any) => e.idempotency_key === key);
    expect(keyed.map((e: any) => e.replayed)).toEqual([false, true]);
    expect(keyed[0].invoice_ids).toEqual(keyed[1].invoice_ids);
  });

  it('keeps each postback attempt: the 500 and then the 200, with the event, attempt, URL and signature header names', async () => {
    const created = await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody({ postback_url: `${receiver.url}/hook` }));
    const id = created.body.data.id;
    const out = await eventually(async () => {
      const page = await list(node.url, TOKEN, `?direction=out&invoice_id=${id}`);
      return page.body.data.length >= 2 && page.body.data;
    }, 10_000, 'two postback attempts in the journal');
    expect(out.slice(0, 2).map((e: any) => [e.status, e.attempt])).toEqual([[500, 1], [200, 2]]);
    expect(out[0]).toMatchObject({ direction: 'out', method: 'POST', path: `${new URL(receiver.url).pathname}/hook`, url: `${receiver.url}/hook`, event_id: expect.stringMatching(/^evt_/), invoice_ids: [id] });
    expect(out[0].signature_headers).toEqual(expect.arrayContaining(['Pinvoice-Signature', 'X-Webhook-Signature']));
    expect(out[0].body.event).toBe(out[0].event);
    // the signatures' names, never their values
    expect(Object.keys(out[0].headers)).toEqual(['content-type', 'user-agent', 'pinvoice-event-id']);
    expect(JSON.stringify(out)).not.toMatch(/v1=[0-9a-f]{64}|"[0-9a-f]{64}"/);
  });

  it('answers a wait as soon as a request made 200 ms later arrives, and a find that misses names the member that differed', async () => {
    const after = (await list(node.url, TOKEN, '?limit=500')).body.next_cursor;
    const t0 = Date.now();
    const waiting = list(node.url, TOKEN, `?after=${after}&method=POST&wait=10`);
    setTimeout(() => void call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody()), 200);
    const answered = await waiting;
    const took = Date.now() - t0;
    expect(answered.body.data[0]).toMatchObject({ method: 'POST', status: 200 });
    expect(took).toBeGreaterThanOrEqual(200);
    expect(took).toBeLessThan(1500);

    // a find waits the same way, for a match of its pattern
    const t1 = Date.now();
    const finding = call(node.url, TOKEN, 'POST', '/api/v2/sandbox/requests/find?wait=10', { method: 'DELETE', path: '/api/v2/sandbox/chaos' });
    setTimeout(() => void call(node.url, TOKEN, 'DELETE', '/api/v2/sandbox/chaos'), 200);
    const found = await finding;
    expect(found.body.data).toHaveLength(1);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(200);
    expect(Date.now() - t1).toBeLessThan(1500);

    const miss = await call(node.url, TOKEN, 'POST', '/api/v2/sandbox/requests/find', { method: 'POST', path: '/api/v2/invoices', body: { payer: { cpf_cnpj: '000.000.000-00' } } });
    expect(miss.status).toBe(200);
    expect(miss.body.data).toEqual([]);
    expect(miss.body.near_misses.length).toBe(3);
    expect(miss.body.near_misses[0].differences).toEqual([{ path: '/payer/cpf_cnpj', expected: '000.000.000-00', received: expect.any(String) }]);
    // a charge that does not exist yet: the wait looks for it again as entries come (the create it awaits)
    const next = (await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody())).body.data.id + 1;
    const forCharge = call(node.url, TOKEN, 'POST', '/api/v2/sandbox/requests/find?wait=10', { method: 'POST', invoice_id: next });
    setTimeout(() => void call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody()), 200);
    expect((await forCharge).body).toMatchObject({ matched: 1, data: [{ invoice_ids: [next] }] });
    const all = await call(node.url, TOKEN, 'POST', '/api/v2/sandbox/requests/find', { direction: 'in' });
    expect(all.body.matched).toBe(all.body.data.length);

    // a path the API does not have, sent with the token, is there too: the near miss names the path
    expect((await call(node.url, TOKEN, 'POST', '/api/v2/invoice', pixBody({ external_id: 'typo' }))).status).toBe(404);
    const typo = await call(node.url, TOKEN, 'POST', '/api/v2/sandbox/requests/find', { method: 'POST', path: '/api/v2/invoices', body: { external_id: 'typo' } });
    expect(typo.body.near_misses[0].differences).toEqual([{ path: 'path', expected: '/api/v2/invoices', received: '/api/v2/invoice' }]);
    expect(typo.body.near_misses[0].entry).toMatchObject({ status: 404, error: 'not_found' });
    const hit = await call(node.url, TOKEN, 'POST', '/api/v2/sandbox/requests/find', { method: 'post', body: { payer: { cpf_cnpj: '123' } }, status: '4xx' });
    expect(hit.body.data).toHaveLength(1);
    expect(hit.body.near_misses).toEqual([]);
  });

  it('keeps companies apart, lets a read-only token read, and clears', async () => {
    const added = await run(['serve', 'company', 'add', '--db', db, '--name', 'Loja Dois', '--json'], { env });
    expect(added.code, added.stderr).toBe(0);
    const other = JSON.parse(added.stdout).token as string;
    expect((await call(node.url, other, 'POST', '/api/v2/invoices', pixBody())).status).toBe(200);
    const theirs = await list(node.url, other);
    expect(theirs.body.data).toHaveLength(1);
    const ours = await list(node.url, TOKEN, '?limit=500');
    // each company's ids are its own, 1, 2, 3…: nothing in them tells how many requests the other made
    expect(theirs.body.data[0]).toMatchObject({ id: 1, method: 'POST', path: '/api/v2/invoices' });
    const ourIds = ours.body.data.map((e: any) => e.id);
    expect(ourIds).toEqual(Array.from({ length: ourIds.length }, (_, k) => ourIds[0] + k));
    expect((await call(node.url, other, 'GET', '/api/v2/sandbox/requests/1')).body.path).toBe('/api/v2/invoices');
    expect((await call(node.url, other, 'GET', `/api/v2/sandbox/requests/${ourIds.at(-1)}`)).status).toBe(404);

    const reader = await run(['serve', 'token', 'add', '--db', db, '--company', '1', '--name', 'support', '--read-only', '--json'], { env });
    expect(reader.code, reader.stderr).toBe(0);
    const readOnly = JSON.parse(reader.stdout).token as string;
    expect((await list(node.url, readOnly)).status).toBe(200);
    expect((await call(node.url, readOnly, 'DELETE', '/api/v2/sandbox/requests')).status).toBe(403);
    const cleared = await call(node.url, other, 'DELETE', '/api/v2/sandbox/requests');
    expect(cleared.body.cleared).toBeGreaterThanOrEqual(1);
    expect((await list(node.url, other)).body).toEqual({ data: [], next_cursor: 0, dropped: 0 });
  });

  it('resumes a stream from Last-Event-ID, and from now when that is beyond the newest entry (a journal since emptied)', async () => {
    const before = (await list(node.url, TOKEN, '?limit=500')).body.next_cursor as number;
    expect((await call(node.url, TOKEN, 'GET', '/api/v2/company')).status).toBe(200);
    const resumed = await fetch(`${node.url}/api/v2/sandbox/requests/stream`, { headers: { authorization: `Bearer ${TOKEN}`, 'last-event-id': String(before) }, signal: AbortSignal.timeout(3000) });
    const reader = (resumed.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('event: entry')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('"path":"/api/v2/company"');
    await reader.cancel();
    const beyond = readStream(`${node.url}/api/v2/sandbox/requests/stream?after=99999999`, TOKEN, 1);
    await sleep(200);
    expect((await call(node.url, TOKEN, 'GET', '/api/v2/sandbox/scenarios')).status).toBe(200);
    expect((await beyond).entries[0].path).toBe('/api/v2/sandbox/scenarios');
  });

  it('refuses a ninth stream of a company (429) and bad filters by name (422)', async () => {
    const controllers = Array.from({ length: 8 }, () => new AbortController());
    const open = await Promise.all(controllers.map((c) => fetch(`${node.url}/api/v2/sandbox/requests/stream`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: c.signal })));
    expect(open.map((r) => r.status)).toEqual(Array(8).fill(200));
    const ninth = await call(node.url, TOKEN, 'GET', '/api/v2/sandbox/requests/stream');
    expect(ninth.status).toBe(429);
    for (const c of controllers) c.abort();
    await eventually(async () => (await fetch(`${node.url}/api/v2/sandbox/requests/stream`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: AbortSignal.timeout(300) }).then((r) => r.status, () => 0)) === 200, 5000, 'a stream again');
    const bad = await list(node.url, TOKEN, '?status=4x');
    expect(bad.status).toBe(422);
    expect(bad.body.details[0].path).toBe('query.status');
  });
});

describe(`a small window and a team (${ENGINE})`, () => {
  it('drops the oldest beyond --journal N and says so; two nodes of one database show one journal', async () => {
    const work = workDir('pinvoice-inspector-');
    const db = await dbFor(work.dir, 'window');
    const args = ['--port', '0', '--db', db, '--token', TOKEN, '--journal', '5'];
    const [a, b] = [await startServe(args, work.env), await startServe(args, work.env)];
    for (let i = 0; i < 4; i++) expect((await call(a.url, TOKEN, 'GET', '/api/v2/company')).status).toBe(200);
    // ids are the order entries were written in: a node writes a read's entry within 100 ms, a change's at
    // once, and any read of the journal writes what it holds first
    expect((await list(a.url, TOKEN)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await call(b.url, TOKEN, 'POST', '/api/v2/invoices', pixBody())).status).toBe(200);
    // node b's entries are seen from node a (written within their batch; a wait looks until they are)
    const seen = await eventually(async () => {
      const page = await list(a.url, TOKEN, '?limit=500');
      // (`dropped` is read just after the entries: one dropped in between is counted, never missed)
      return page.body.dropped === 3 && page.body.data.filter((e: any) => e.method === 'POST').length === 4 && page.body;
    }, 5000, 'a window of 5 with 3 dropped');
    expect(seen.data).toHaveLength(5);
    expect(seen.data.map((e: any) => e.method), JSON.stringify(seen.data.map((e: any) => [e.id, e.method, e.at]))).toEqual(['GET', 'POST', 'POST', 'POST', 'POST']);
    const first = seen.data[0].id as number;
    const evicted = await call(b.url, TOKEN, 'GET', `/api/v2/sandbox/requests/${first - 1}`);
    expect(evicted.status).toBe(404);
    expect(evicted.body.message).toMatch(/dropped from the window/);
    const found = await call(b.url, TOKEN, 'POST', '/api/v2/sandbox/requests/find', { method: 'GET' });
    expect(found.body.dropped).toBe(3);
  });

  it('is off with --journal 0: nothing is kept and its endpoints say so (409 journal_off)', async () => {
    const work = workDir('pinvoice-inspector-');
    const off = await startServe(['--port', '0', '--db', await dbFor(work.dir, 'off'), '--token', TOKEN, '--journal', '0'], work.env);
    expect((await call(off.url, TOKEN, 'POST', '/api/v2/invoices', pixBody())).status).toBe(200);
    const answer = await list(off.url, TOKEN);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe('journal_off');
  });
});
