// `sandbox.requests` as a merchant's suite uses it, on the engine of the run (a SQLite file, or a
// PostgreSQL database URL): the merchant's own code calls sandbox.url with sandbox.token over plain
// fetch, and the test finds, counts and waits for what it sent. A wait that times out names the member
// that differed, expected and received, and an entry evicted by a small journal makes it fail loudly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiRequestError, RequestNotFoundError, startSandbox, type JournalEntry, type NearMiss, type RequestPattern, type Sandbox, type SandboxRequests,
} from '../../src/testing/index.js';
import { ENGINE, postgresDatabase } from '../support/engine.js';

const engine = async () => (ENGINE === 'postgres' ? postgresDatabase(undefined, 'sandbox') : 'sqlite');

const payer = (cpf_cnpj: string) => ({ name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj, phone: '+5511999998888' });
const card = { number: '4111 1111 1111 1111', first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', security_code: '123', installment: 1 };

/** The merchant's checkout: a plain HTTP call to the gateway's URL with its API key, as in production. */
async function checkout(sandbox: Sandbox, body: unknown): Promise<number> {
  const response = await fetch(`${sandbox.url}/api/v2/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

const lookUp = async (sandbox: Sandbox, ref: string) =>
  (await fetch(`${sandbox.url}/api/v2/invoices/${ref}`, { headers: { authorization: `Bearer ${sandbox.token}` } })).status;

const CREATE = { method: 'POST', path: '/api/v2/invoices' } satisfies RequestPattern;

describe(`sandbox.requests on ${ENGINE}`, () => {
  let sandbox: Sandbox;
  let requests: SandboxRequests;

  beforeAll(async () => {
    sandbox = await startSandbox({ engine: await engine() });
    requests = sandbox.requests;
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox?.close());

  it('wait resolves on a card create the checkout sends 200 ms later, its number kept masked', async () => {
    const started = Date.now();
    let waited = 0;
    const sent = new Promise((resolve) => setTimeout(resolve, 200)).then(() =>
      checkout(sandbox, { method: 'credit_card', total_price_cents: 4990, payer: payer('529.982.247-25'), card, external_id: 'order-77' }));
    const waiting = requests.wait({ ...CREATE, body: { external_id: 'order-77', card: { number: '411111******1111' } } }, { timeout: 5000 });
    const [entry, status]: [JournalEntry, number] = await Promise.all([waiting.finally(() => (waited = Date.now() - started)), sent]);
    expect(status).toBe(200);
    expect(waited).toBeGreaterThanOrEqual(190);
    expect(waited).toBeLessThan(2000);
    expect(entry).toMatchObject({ direction: 'in', method: 'POST', path: '/api/v2/invoices', status: 200, problems: [] });
    expect(entry.invoice_ids).toHaveLength(1);
    expect(JSON.stringify(entry)).not.toMatch(/4111 ?1111 ?1111 ?1111|"security_code"/);
  });

  it('a refused create: find misses it, and wait names /payer/cpf_cnpj, expected and received, and its problem', async () => {
    expect(await checkout(sandbox, { method: 'pix', total_price_cents: 1990, payer: payer('123') })).toBe(422);
    const pattern = { ...CREATE, body: { payer: { cpf_cnpj: '52998224725' } } } satisfies RequestPattern;
    expect(await requests.find(pattern)).toEqual([]);
    await expect(requests.wait(pattern, { timeout: 0 })).rejects.toBeInstanceOf(RequestNotFoundError);
    const started = Date.now();
    const error = await requests.wait(pattern, { timeout: 300 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toBeInstanceOf(RequestNotFoundError);
    const { nearMisses, dropped, message } = error as RequestNotFoundError;
    const [closest] = nearMisses as [NearMiss];
    expect(closest.differences).toEqual([{ path: '/payer/cpf_cnpj', expected: '52998224725', received: '123' }]);
    expect(closest.problems.map((p) => p.path)).toEqual(['/payer/cpf_cnpj']);
    expect(dropped).toBe(0);
    expect(message).toContain(`no request matching ${JSON.stringify(pattern)} within 300 ms`);
    expect(message).toMatch(new RegExp(`\\n  entry ${closest.entry.id} POST /api/v2/invoices 422: /payer/cpf_cnpj expected "52998224725", received "123"\\n    problem /payer/cpf_cnpj: \\S`));
    expect(message).not.toContain('dropped');
  });

  it('counts, lists every entry oldest first, and clears (reset clears too)', async () => {
    expect(await requests.all()).toEqual([]);
    expect(await checkout(sandbox, { method: 'pix', total_price_cents: 1990, payer: payer('529.982.247-25') })).toBe(200);
    const created = (await requests.wait(CREATE, { timeout: 0 })).invoice_ids[0];
    expect([await lookUp(sandbox, String(created)), await lookUp(sandbox, 'INV-nope')]).toEqual([200, 404]);
    expect(await requests.count({ method: 'get' })).toBe(2);
    expect(await requests.count({ path: '/api/v2/invoices/*', status: '4xx' })).toBe(1);
    expect(await requests.count({ invoice_id: created as number })).toBe(2);
    const all = await requests.all();
    expect(all.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 200', 'GET 200', 'GET 404']);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => a - b));
    await requests.clear();
    expect(await requests.all()).toEqual([]);
    await lookUp(sandbox, 'INV-nope');
    await sandbox.reset();
    expect(await requests.count({})).toBe(0);
  });

  it('all() pages past the server\'s 500 entries a page', async () => {
    for (let i = 0; i < 26; i++) await Promise.all(Array.from({ length: 20 }, () => lookUp(sandbox, 'INV-nope')));
    const all = await requests.all();
    expect(all).toHaveLength(520);
    expect(new Set(all.map((e) => e.id)).size).toBe(520);
  });

  it('refuses a pattern the server cannot read, and a timeout that is not one, naming them', async () => {
    await expect(requests.find({ status: 'abc' })).rejects.toThrow(/sandbox\.requests\.find: the server refused the pattern: [^]*status: must be a status/);
    await expect(requests.wait({}, { timeout: -1 })).rejects.toThrow(/timeout must be a number of ms, 0 or more, not -1/);
  });
});

describe(`a small journal on ${ENGINE}`, () => {
  it('a create evicted from the window makes wait fail, saying how many entries were dropped', async () => {
    const sandbox = await startSandbox({ engine: await engine(), journal: 2 });
    try {
      expect(await checkout(sandbox, { method: 'pix', total_price_cents: 1990, payer: payer('529.982.247-25') })).toBe(200);
      for (let i = 0; i < 3; i++) await lookUp(sandbox, `INV-nope-${i}`);
      const error = await sandbox.requests.wait(CREATE, { timeout: 200 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestNotFoundError);
      expect(error).toMatchObject({ dropped: 2, nearMisses: [{ entry: { path: '/api/v2/invoices/INV-nope-2' } }, { entry: { path: '/api/v2/invoices/INV-nope-1' } }] });
      expect((error as Error).message).toMatch(/\n2 entries were dropped from the journal since it was last cleared \(it keeps the newest 2: startSandbox\(\{ journal \}\)\)/);
    } finally {
      await sandbox.close();
    }
  });

  it('journal: 0 turns it off (sandbox.requests says so); a journal that is not a count is refused', async () => {
    await expect(startSandbox({ journal: -1 })).rejects.toThrow(/journal must be a whole number of entries, 0 \(off\) or more, not -1/);
    const sandbox = await startSandbox({ engine: await engine(), journal: 0 });
    try {
      await lookUp(sandbox, 'INV-nope');
      const refused = sandbox.requests.all();
      await expect(refused).rejects.toBeInstanceOf(ApiRequestError);
      await expect(refused).rejects.toMatchObject({ status: 409, code: 'journal_off' });
    } finally {
      await sandbox.close();
    }
  });
});
