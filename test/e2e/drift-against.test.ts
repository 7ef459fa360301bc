// `pinvoice drift --journal FILE --against URL`, the built binary: a session through `pinvoice proxy
// --allow-writes` in front of the production stand-in (a pix, a card and a boleto create, each looked
// up by secureId and by id, production's habits plus planted drifts), then the twin-drift report
// against a real `pinvoice serve`: members only production sends, only serve sends, of other types;
// no value of production's answers in the report; exit codes; what serve received (fresh
// Idempotency-Keys, a serve test card for the redacted one); bad URLs and tokens.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwinDriftReport, type TwinGroup } from '../../src/api/twin-drift.js';
import { ENGINE } from '../support/engine.js';
import { run, serve, type ServeProcess } from '../support/cli.js';
import { removeWorkDirs } from '../support/processes.js';
import { entryOf, raw, rig, stopProxies, type Rig } from '../support/proxy.js';

const TOKEN = 'pinv_test_drift_against_e2e_token_01';
/** A card number of production's (Luhn-valid, no serve test card): the journal keeps it masked. */
const CARD = '4532015112830366';
const AMOUNT = 48213;
const PAYER = { name: 'Joaquina Pereira Quintal', email: 'joaquina.quintal@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511987651234' };
const ADDRESS = { address_zip: '01310100', address_line: 'Avenida Paulista', address_number: '1578', address_neighborhood: 'Bela Vista', address_city: 'São Paulo', address_state: 'SP' };

const create = (method: string, extra: Record<string, unknown> = {}) => ({
  method, total_price_cents: AMOUNT, payer: { ...PAYER, ...(method === 'boleto' ? ADDRESS : {}) },
  items: [{ name: 'Assinatura anual', quantity: 1, unit_price: AMOUNT }], ...extra,
});
const CARD_CREATE = create('credit_card', { card: { number: CARD, first_name: 'Joaquina', last_name: 'Quintal', month: '12', year: '2031', security_code: '737', installment: 1 } });

let r: Rig;
let server: ServeProcess;
let tokenFile: string;
const made: { id: number; secureId: string }[] = [];

const drift = (...args: string[]) => run(['drift', '--journal', r.journal, '--utc', ...args], { env: r.env, timeoutMs: 30_000 });
const against = (...args: string[]) => drift('--against', server.url, '--token-file', tokenFile, ...args);

async function send(method: string, path: string, body?: unknown, key?: string) {
  const headers = { ...r.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { 'idempotency-key': key } : {}) };
  const answer = await raw(`${r.proxy.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  await entryOf(r.proxy, answer.entry);
  return answer;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  r = await rig(false, ['--allow-writes']);
  for (const [i, body] of [create('pix'), CARD_CREATE, create('boleto')].entries()) {
    const answer = await send('POST', '/api/v2/invoices', body, `prod-key-${i}`);
    expect(answer.status, answer.body.toString()).toBe(200);
    const secureId = answer.json.data.invoice_id as string;
    const looked = await send('GET', `/api/v2/invoices/${secureId}`);
    made.push({ id: looked.json.id, secureId });
  }
  // production's habits beyond the stand-in's own: a member serve has no such thing as, a number sent as a string
  Object.assign(r.gateway.record(made[0]!.id)!, { loyalty_tier: 'gold', installments: '1' });
  const refund = await send('POST', `/api/v2/invoices/${made[1]!.id}/refund`, { amount_cents: 1000 }, 'prod-key-refund');
  expect(refund.status, refund.body.toString()).toBe(200);
  for (const { id } of made) await send('GET', `/api/v2/invoices?id=${id}`);
  tokenFile = join(r.dir, 'serve.token');
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], r.env);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await r?.close();
  await stopProxies();
  removeWorkDirs();
});

const find = (report: TwinDriftReport, kind: string, operation: string, path: string): TwinGroup | undefined =>
  report.groups.find((group) => group.kind === kind && group.operation === operation && group.path === path);

describe.runIf(ENGINE === 'sqlite')('pinvoice drift --against a running serve', () => {
  let json: { code: number | null; stdout: string; stderr: string };
  let report: TwinDriftReport;
  let productionRequests: number;
  beforeAll(async () => {
    productionRequests = r.gateway.requests.length;
    json = await against('--format', 'json', '--fail-on', 'never');
    report = TwinDriftReport.strict().parse(JSON.parse(json.stdout));
  }, 60_000);

  it('sends every create again, the redacted card replaced, and each lookup as production was asked it; nothing to production', () => {
    expect(json.code, json.stderr).toBe(0);
    expect(report.resent).toEqual({ creates: 3, refunds: 1, lookups: 6, cards_replaced: 1 });
    expect(report.skipped).toEqual([]);
    expect(report.pairs).toBe(4);
    // production wraps its refund's record in data, serve does not: said once, the records compared as the CLI reads them
    expect(find(report, 'only-production', 'createRefund', '/data'), 'the refund compared too').toMatchObject({ production: { types: ['object'], answers: 1 }, serve: { types: [] } });
    expect(find(report, 'only-production', 'createRefund', '/antifraud')).toBeDefined();
    expect(find(report, 'only-serve', 'createRefund', '/amount')).toBeUndefined();
    expect(r.gateway.requests.length, 'drift --against sent nothing to production').toBe(productionRequests);
  });

  it('names a member only production sends, one only serve sends, and one of another type, by shape only', () => {
    expect(find(report, 'only-production', 'searchTransaction', '/loyalty_tier'), JSON.stringify(report.groups.map((g) => [g.kind, g.operation, g.path]))).toMatchObject({
      severity: 'warning', method: 'GET', status: 200, production: { types: ['string'], answers: 1, of: 3 }, serve: { types: [], answers: 0, of: 3 },
    });
    expect(find(report, 'only-production', 'searchTransaction', '/antifraud')).toMatchObject({ production: { types: ['object'], answers: 3 } });
    // nothing under a member only one side sends is said again
    expect(find(report, 'only-production', 'searchTransaction', '/antifraud/score')).toBeUndefined();
    expect(find(report, 'only-serve', 'getTransaction', '/pix/expiresAt')).toMatchObject({ severity: 'info', production: { types: [] }, serve: { types: ['string'], answers: 1 } });
    expect(find(report, 'types-differ', 'searchTransaction', '/installments')).toMatchObject({ severity: 'error', production: { types: ['number', 'string'] }, serve: { types: ['number'] } });
    expect(report.fidelity.of).toBeGreaterThan(0);
    expect(report.fidelity.ratio).toBeGreaterThan(0);
    expect(report.fidelity.ratio).toBeLessThan(1);
  });

  it("holds no value of production's answers or requests: not the payer, the document, the amount or an id", () => {
    const all = [json.stdout, json.stderr].join('\n');
    const values = [PAYER.name, 'Joaquina', 'Quintal', PAYER.email, '52998224725', '529.982.247-25', String(AMOUNT), '482,13', CARD, '453201', 'Assinatura', 'gold', 'clearsale', ...made.map((m) => m.secureId), TOKEN];
    for (const value of values) expect(all, value).not.toContain(value);
  });

  it('fails the run with exit 15 on the types-differ error by default; the text report names the fidelity and each group', async () => {
    const text = await against();
    expect(text.code, text.stderr).toBe(15);
    expect(text.stderr).toMatch(/^pinvoice: \d+ groups? at or above error fails? the run\n$/);
    expect(text.stdout).toMatch(/^twin drift against http:\/\/127\.0\.0\.1:\d+: fidelity \d+\.\d% \(\d+ of \d+ production members sent by serve with the same type\); \d+ groups count \(\d+ errors?, /);
    expect(text.stdout).toContain('\nsent again: 3 creates (1 with a serve test card for its redacted card), 1 refund, 6 lookups; compared: 4 (operation, method, status) pairs, ');
    expect(text.stdout).toMatch(/\n\nERROR {2}types-differ {2}searchTransaction GET 200 \/installments\n {2}production {2}number or string \(3 of 3 answers\)\n {2}serve {7}number \(3 of 3 answers\)\n {2}entries {5}\d/);
    const markdown = await against('--format', 'markdown', '--fail-on', 'never');
    expect(markdown.stdout).toMatch(/^## Twin drift report\n[\s\S]*\n\| 🔴 error \| `types-differ` \| `searchTransaction` \| GET \| 200 \| `\/installments` \| number or string/);
    const junit = await against('--format', 'junit');
    expect(junit.code).toBe(15);
    expect(junit.stdout).toMatch(/<failure message="error types-differ: production: number or string \(3 of 3 answers\), serve: number \(3 of 3 answers\)" type="types-differ">/);
    const acceptFile = join(r.dir, 'accept.json');
    writeFileSync(acceptFile, JSON.stringify([{ operation: 'searchTransaction', kind: 'types-differ', path: '/installments', reason: 'production sends installments as a string for pix', until: '2999-12-31' },
      { operation: 'createRefund', kind: 'types-differ', path: '/invoice/qr_code_pix', reason: 'null for a card in production, empty in serve', until: '2999-12-31' }]));
    const accepted = await against('--accept', acceptFile);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('\n  accepted until 2999-12-31: production sends installments as a string for pix');
  }, 60_000);

  it("serve received the creates with Idempotency-Keys of its own, the card as a serve test card", async () => {
    const answer = await fetch(`${server.url}/api/v2/sandbox/requests?method=POST&path=/api/v2/invoices&limit=100`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const creates = ((await answer.json()) as { data: any[] }).data;
    expect(creates.length).toBeGreaterThanOrEqual(3);
    const production = new Set(r.gateway.requests.map((request) => request.headers['idempotency-key']).filter(Boolean));
    expect([...production]).toEqual(['prod-key-0', 'prod-key-1', 'prod-key-2', 'prod-key-refund']);
    for (const entry of creates) {
      expect(entry.idempotency_key ?? 'none', 'serve got an Idempotency-Key of its own').toMatch(/^[0-9a-f-]{36}$/);
      expect(production.has(entry.idempotency_key)).toBe(false);
    }
    const card = creates.find((entry) => entry.body.method === 'credit_card');
    expect(card.body.card.number, 'a serve test card').toBe('411111******1111');
    expect(card.status).toBe(200);
    expect(card.response_body.data.status).toBe('paid');
  });
});

describe.runIf(ENGINE === 'sqlite')('pinvoice drift --against: a URL that is no serve, a token serve refuses, nothing to send', () => {
  it('nothing listening is exit 5, the URL named', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await drift('--against', url, '--token-file', tokenFile);
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`--against ${url}: cannot connect to ${url}`);
    expect(result.stdout).toBe('');
  });

  it('the production stand-in itself is exit 4, and it got no create', async () => {
    const posts = r.gateway.requests.filter((request) => request.method === 'POST').length;
    const result = await drift('--against', r.gateway.url, '--token-file', tokenFile);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain(`--against ${r.gateway.url} is not a pinvoice serve`);
    expect(r.gateway.requests.filter((request) => request.method === 'POST').length).toBe(posts);
  });

  it('a token serve refuses is exit 3, the token never printed', async () => {
    const bad = join(r.dir, 'bad.token');
    writeFileSync(bad, 'pinv_test_not_a_token_serve_knows', { mode: 0o600 });
    const result = await drift('--against', server.url, '--token-file', bad);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('pinvoice serve refused the token in --token-file (HTTP 401)');
    expect(result.stderr + result.stdout).not.toContain('pinv_test_not_a_token_serve_knows');
  });

  it('a window with no create is said, exit 0, and serve is not asked', async () => {
    const result = await drift('--against', 'http://127.0.0.1:9', '--token-file', tokenFile, '--since', '2999-01-01');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('the journal holds no create to send again: nothing of serve to compare');
  });

  it("a profile's token goes to serve when the profile is serve's; another origin's profile is refused (exit 2), nothing sent", async () => {
    const login = await run(['login', '--profile', 'twin', '--base-url', server.url, '--token-stdin'], { env: r.env, input: `${TOKEN}\n` });
    expect(login.code, login.stderr).toBe(0);
    const viaProfile = await drift('--against', server.url, '--profile', 'twin', '--json', '--fail-on', 'never');
    expect(viaProfile.code, viaProfile.stderr).toBe(0);
    expect(JSON.parse(viaProfile.stdout).resent.creates).toBe(3);
    const posts = r.gateway.requests.filter((request) => request.method === 'POST').length;
    const foreign = await drift('--against', r.gateway.url, '--profile', 'twin');
    expect(foreign.code, foreign.stderr).toBe(2);
    expect(foreign.stderr).toContain(`pinvoice does not send it to ${r.gateway.url} (--against)`);
    expect(r.gateway.requests.filter((request) => request.method === 'POST').length).toBe(posts);
  });

  it("a PINVOICE_TOKEN given for another origin (production's) is not sent to serve: a profile of serve's is used instead", async () => {
    const production = 'pinv_live_production_token_never_to_serve';
    const login = await run(['login', '--profile', 'twin-env', '--base-url', server.url, '--token-stdin'], { env: r.env, input: `${TOKEN}\n` });
    expect(login.code, login.stderr).toBe(0);
    const result = await run(['drift', '--journal', r.journal, '--utc', '--against', server.url, '--profile', 'twin-env', '--json', '--fail-on', 'never'], {
      env: { ...r.env, PINVOICE_TOKEN: production, PINVOICE_BASE_URL: r.gateway.url }, timeoutMs: 30_000,
    });
    expect(result.code, result.stderr).toBe(0);
    // (had it gone to serve, serve would have refused it: exit 3)
    expect(JSON.parse(result.stdout).resent.creates).toBe(3);
    expect(result.stderr + result.stdout).not.toContain(production);
  });

  it('--token-file without --against is a usage error', async () => {
    const result = await drift('--token-file', tokenFile);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--token-file goes with --against URL');
  });
});

describe.runIf(ENGINE === 'sqlite')("docs/proxy.md's twin-drift report", () => {
  it('is the real report of its session: a pix, a card and a boleto create, each read by secureId and by id, a refund', async () => {
    const session = await rig(false, ['--allow-writes']);
    try {
      const payer = { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' };
      const items = [{ name: 'Camiseta', quantity: 1, unit_price: 15990 }];
      const bodies = [
        { method: 'pix', total_price_cents: 15990, payer, items },
        { method: 'credit_card', total_price_cents: 15990, payer, items, card: { number: CARD, first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2031', security_code: '737' } },
        { method: 'boleto', total_price_cents: 15990, payer: { ...payer, ...ADDRESS }, items },
      ];
      const through = async (method: string, path: string, body?: unknown) => {
        const headers = { ...session.auth, 'content-type': 'application/json', ...(body === undefined ? {} : { 'idempotency-key': `doc-${path}-${Math.random()}` }) };
        const answer = await raw(`${session.proxy.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        await entryOf(session.proxy, answer.entry);
        return answer;
      };
      const ids: number[] = [];
      for (const body of bodies) {
        const created = await through('POST', '/api/v2/invoices', body);
        const looked = await through('GET', `/api/v2/invoices/${created.json.data.invoice_id}`);
        ids.push(looked.json.id);
        await through('GET', `/api/v2/invoices?id=${looked.json.id}`);
      }
      await through('POST', `/api/v2/invoices/${ids[1]}/refund`, { amount_cents: 5000 });
      const result = await run(['drift', '--journal', session.journal, '--utc', '--against', server.url, '--token-file', tokenFile], { env: session.env, timeoutMs: 30_000 });
      expect(result.code, result.stderr).toBe(15);
      const shown = /\n\$ pinvoice drift --journal prod\.journal --against (\S+) --token-file serve\.token\n([\s\S]*?)\n…\n```/.exec(readFileSync(new URL('../../docs/proxy.md', import.meta.url), 'utf8'));
      expect(shown, 'the console block in docs/proxy.md').not.toBeNull();
      const real = result.stdout.split(server.url).join(shown![1]!).split('\n\n');
      for (const block of shown![2]!.split('\n\n')) expect(real, 'a block of docs/proxy.md the report does not hold').toContain(block);
    } finally {
      await session.close();
    }
  }, 60_000);
});
