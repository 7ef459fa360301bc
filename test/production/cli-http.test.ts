// The built CLI meeting production's HTTP habits and failures: error bodies of several shapes, an nginx
// HTML 502, a 429 with Retry-After, a socket that never answers, redirects, a token kept to its own
// origin, and TLS with a private certificate authority.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { htmlPage, startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';
import { makeTestCa, type TestCa } from '../support/test-ca.js';
import { CREATE_PIX, fromEnv, home, loggedIn, removeHomes, row, tolerated } from './cli-helpers.js';

const gateways: ProductionGateway[] = [];
/** A stand-in closed after the test that started it. */
async function gatewayFor(options: Parameters<typeof startProductionGateway>[0] = {}): Promise<ProductionGateway> {
  const gateway = await startProductionGateway(options);
  gateways.push(gateway);
  return gateway;
}
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});
afterAll(() => removeHomes());

describe('production\'s error answers', () => {
  it.each([
    [409, { message: 'Foo.' }, 'Foo.'],
    [400, { error: 'Bar happened' }, 'Bar happened'],
    [409, { error: { message: 'Baz.', code: 'baz_code' } }, 'Baz.'],
  ])('a %i answering %j shows its message, exit 2', async (status, body, message) => {
    const gateway = await gatewayFor();
    const { id } = gateway.addRecord();
    gateway.once('GET', /^\/api\/v2\/invoices\//, { status, body });
    const result = await run(['invoice', 'get', String(id)], { env: fromEnv(gateway) });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(`pinvoice: ${message}`), result.stderr).toBe(true);
    expect(result.stderr).not.toMatch(/unexpected response/i);
  });

  it('a token production does not accept is exit 3, with production\'s "Unauthenticated."', async () => {
    const gateway = await gatewayFor();
    const { id } = gateway.addRecord();
    const result = await run(['invoice', 'get', String(id)], { env: fromEnv(gateway, { PINVOICE_TOKEN: 'prod_live_not_the_right_one_0000' }) });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('Unauthenticated.');
    expect(result.stderr).toContain('PINVOICE_TOKEN');
    expect(result.stderr).not.toContain('prod_live_not_the_right_one_0000');
  });

  it('nginx\'s HTML 502 is exit 5, named by status and origin, without the page\'s markup', async () => {
    const gateway = await gatewayFor();
    gateway.always({ status: 502, headers: { 'content-type': 'text/html' }, body: htmlPage(502) });
    const result = await run(['invoice', 'get', '4242'], { env: fromEnv(gateway) });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`HTTP 502 Bad Gateway from ${gateway.url}`);
    expect(result.stderr).toContain('HTTP 502 Bad Gateway from http://127.0.0.1:');
    expect(result.stderr).not.toContain('<html');
    expect(result.stderr).not.toContain('<');
  });

  it('a 429 with Retry-After: 1 is waited out and retried, the wait shown with --debug', async () => {
    const gateway = await gatewayFor();
    const { id } = gateway.addRecord();
    gateway.once('GET', /^\/api\/v2\/invoices\//, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Attempts.' } });
    const result = await run(['invoice', 'get', String(id), '--debug'], { env: fromEnv(gateway) });
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(result.stderr).toContain('retrying in 1 s');
    expect(result.stderr).not.toContain(gateway.token);
    expect(row(result.stdout, 'id')).toBe(String(id));
    expect(gateway.requests.filter((request) => request.url === `/api/v2/invoices/${id}`)).toHaveLength(2);
  });
});

describe('a gateway that never answers', () => {
  it.each([
    ['--timeout 2', ['--timeout', '2'], {}],
    ['PINVOICE_TIMEOUT=2', [], { PINVOICE_TIMEOUT: '2' }],
  ])('with %s, invoice get gives up after 2 s, exit 5', async (_label, flags, extra) => {
    const gateway = await gatewayFor();
    gateway.always({ status: 200, silent: true });
    const started = Date.now();
    const result = await run(['invoice', 'get', '4242', ...flags], { env: fromEnv(gateway, extra) });
    const elapsed = Date.now() - started;
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`no answer from ${gateway.url} within 2 s`);
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(4000);
  });

  it('with neither, invoice get gives up within the default 20 s', { timeout: 40_000 }, async () => {
    const gateway = await gatewayFor();
    gateway.always({ status: 200, silent: true });
    const started = Date.now();
    const result = await run(['invoice', 'get', '4242'], { env: fromEnv(gateway), timeoutMs: 35_000 });
    const elapsed = Date.now() - started;
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`no answer from ${gateway.url} within 20 s`);
    expect(elapsed).toBeLessThan(23_000);
  });
});

describe('the token stays with its origin', () => {
  it.each([
    ['invoice get (GET)', 'GET', /^\/api\/v2\/invoices\/4242$/, '/api/v2/invoices/4242', ['invoice', 'get', '4242']],
    ['invoice create (POST, the other transport)', 'POST', /^\/api\/v2\/invoices$/, '/api/v2/invoices', CREATE_PIX],
  ])('a redirect to another origin in %s is not followed, and names the --base-url to use instead', async (_label, method, path, target, args) => {
    const a = await gatewayFor();
    const b = await gatewayFor({ token: 'prod_live_of_b_0123456789abcdef0123' });
    b.addRecord();
    const env = await loggedIn(a);
    for (const status of [301, 307]) {
      a.once(method, path, { status, headers: { location: `${b.url}${target}` } });
      const result = await run(args, { env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`answered HTTP ${status}, redirecting to ${b.url}${target}`);
      expect(result.stderr).toContain(`use --base-url ${b.url}`);
    }
    expect(b.requests).toEqual([]);
  });

  it.each([
    ['--base-url', (url: string) => ({ args: ['--base-url', url], env: {} })],
    ['PINVOICE_BASE_URL', (url: string) => ({ args: [], env: { PINVOICE_BASE_URL: url } })],
  ])('a profile logged in to A does not send its token to B given with %s', async (how, given) => {
    const a = await gatewayFor();
    const b = await gatewayFor({ token: 'prod_live_of_b_0123456789abcdef0123' });
    b.addRecord();
    const env = await loggedIn(a);
    const { args, env: extra } = given(`${b.url}/api/v2`);
    const result = await run(['invoice', 'get', '4242', ...args], { env: { ...env, ...extra } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(a.url);
    expect(result.stderr).toContain(b.url);
    expect(result.stderr).toContain(`(${how})`);
    expect(b.requests).toEqual([]);
  });

  it('B\'s own token, from PINVOICE_TOKEN or --token-file, does go to B', async () => {
    const a = await gatewayFor();
    const b = await gatewayFor({ token: 'prod_live_of_b_0123456789abcdef0123' });
    const { id } = b.addRecord();
    const env = await loggedIn(a);
    const byEnv = await run(['invoice', 'get', String(id), '--base-url', `${b.url}/api/v2`], { env: { ...env, PINVOICE_TOKEN: b.token } });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(row(byEnv.stdout, 'id')).toBe(String(id));
    const file = join(env.HOME!, 'b-token');
    writeFileSync(file, `${b.token}\n`);
    const byFile = await run(['invoice', 'get', '99999', '--base-url', `${b.url}/api/v2`, '--token-file', file], { env });
    expect(byFile.code, byFile.stderr).toBe(4);
    expect(byFile.stderr).toContain(`no charge "99999" at ${b.url}`);
    expect(b.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of b.requests) expect(request.headers.authorization).toBe(`Bearer ${b.token}`);
    expect(a.requests.filter((request) => request.url !== '/api/v2/company')).toEqual([]);
  });
});

describe('TLS with a private certificate authority', () => {
  let ca: TestCa;
  beforeAll(() => {
    ca = makeTestCa();
  });
  afterAll(() => ca.remove());

  it('a CA this machine does not trust is exit 5, naming NODE_EXTRA_CA_CERTS; trusted through it, the charge is shown', async () => {
    const gateway = await gatewayFor({ tls: ca.leaf('valid') });
    const { id } = gateway.addRecord();
    const env = fromEnv(gateway);
    const untrusted = await run(['invoice', 'get', String(id)], { env });
    expect(untrusted.code, untrusted.stderr).toBe(5);
    expect(untrusted.stderr).toContain('signed by a certificate authority this machine does not trust');
    expect(untrusted.stderr).toContain('NODE_EXTRA_CA_CERTS');
    const trusted = await run(['invoice', 'get', String(id)], { env: { ...env, NODE_EXTRA_CA_CERTS: ca.caCertPath } });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(row(trusted.stdout, 'id')).toBe(String(id));
  });

  it('a create (sent over the other transport) trusts the same CA the same way', async () => {
    const gateway = await gatewayFor({ tls: ca.leaf('valid') });
    const env = fromEnv(gateway);
    const untrusted = await run(CREATE_PIX, { env });
    expect(untrusted.code, untrusted.stderr).toBe(5);
    expect(untrusted.stderr).toContain('signed by a certificate authority this machine does not trust');
    expect(untrusted.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(gateway.requests).toEqual([]);
    const trusted = await run(CREATE_PIX, { env: { ...env, NODE_EXTRA_CA_CERTS: ca.caCertPath } });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(row(trusted.stdout, 'secure id')).toMatch(/^INV-/);
    expect(gateway.requests.map((request) => request.method)).toContain('POST');
  });

  it.each([
    ['expired', 'certificate has expired'],
    ['wrong-host', 'certificate is for another host'],
    ['self-signed', 'self-signed'],
  ] as const)('a %s certificate is refused (CA trusted), saying "%s"', async (kind, message) => {
    const gateway = await gatewayFor({ tls: ca.leaf(kind) });
    const env = { ...fromEnv(gateway), NODE_EXTRA_CA_CERTS: ca.caCertPath };
    for (const args of [['invoice', 'get', '4242'], CREATE_PIX]) {
      const result = await run(args, { env });
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toContain(`pinvoice: cannot trust ${gateway.url}`);
      expect(result.stderr).toContain(message);
    }
    expect(gateway.requests).toEqual([]);
  });

  it('login over TLS with the CA trusted stores the https origin', async () => {
    const gateway = await gatewayFor({ tls: ca.leaf('valid') });
    const env = { ...home(), NODE_EXTRA_CA_CERTS: ca.caCertPath };
    const login = await run(['login', '--profile', 'prod', '--base-url', `${gateway.url}/api/v2`, '--token-stdin'], { env, input: gateway.token });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Logged in to ${gateway.url} as Loja Exemplo`);
  });
});
