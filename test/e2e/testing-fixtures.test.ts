// startSandbox's `fixtures` given as a file (a relative or absolute path, a file: URL), as
// `serve --fixtures <path>` takes one: read once at start, loaded again by reset(), a file that cannot be
// read or parsed named with why; `publicHost`, as `serve --public-host`: production-shaped pix codes;
// and `allowedHosts`, as `serve --allowed-host`: the names its pages answer at.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePix } from '../../src/domain/pix-decode.js';
import { startSandbox, type Engine, type Sandbox, type SandboxOptions } from '../../src/testing/index.js';
import { ENGINE, postgresDatabase } from '../support/engine.js';
import { run } from '../support/cli.js';
import { productionRecord } from '../support/production-gateway.js';
import { rawRequest } from '../support/raw-http.js';

const engine = (): Promise<Engine> => (ENGINE === 'postgres' ? postgresDatabase(undefined, 'sandbox') : Promise.resolve('memory'));

const FIXTURES = { charges: [{ external_id: 'order-7', state: 'paid', method: 'pix', amount: 2500 }, { external_id: 'order-8', state: 'pending', method: 'pix', amount: 1990 }] };

const folder = mkdtempSync(join(tmpdir(), 'pinvoice-sandbox-fixtures-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** The external ids of the charges, oldest first. */
async function listed(sandbox: Sandbox): Promise<string[]> {
  const answer = await fetch(`${sandbox.url}/api/v2/invoices`, { headers: { authorization: `Bearer ${sandbox.token}` } });
  return ((await answer.json()) as { data: { id: number; externalRef: string }[] }).data.sort((a, b) => a.id - b.id).map((charge) => charge.externalRef);
}

/** The location in the pix code of the fixture charge order-8 (id 2). */
const fixtureLocation = async (sandbox: Sandbox) => decodePix((await sandbox.api.getInvoice(2)).pix?.qrCode ?? '').fields.location;

async function started(options: SandboxOptions, use: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ engine: await engine(), ...options });
  try {
    await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

describe('startSandbox({ fixtures }) given a file', () => {
  const path = file('fixtures.json', JSON.stringify(FIXTURES));

  it.each([
    ['a path relative to the current directory', () => relative(process.cwd(), path)],
    ['an absolute path', () => path],
    ['a file: URL', () => pathToFileURL(path)],
    ['a file: URL as a string', () => pathToFileURL(path).href],
  ])('loads it by %s', async (_name, given) => {
    await started({ fixtures: given() }, async (sandbox) => expect(await listed(sandbox)).toEqual(['order-7', 'order-8']));
  });

  it('still takes the document, and its JSON text (white space before the brace included)', async () => {
    await started({ fixtures: FIXTURES }, async (sandbox) => expect(await listed(sandbox)).toEqual(['order-7', 'order-8']));
    await started({ fixtures: `\n  ${JSON.stringify(FIXTURES)}` }, async (sandbox) => expect(await listed(sandbox)).toEqual(['order-7', 'order-8']));
  });

  it('loads what it read at start again on reset(), the file edited since or not', async () => {
    const edited = file('edited.json', JSON.stringify(FIXTURES));
    await started({ fixtures: edited }, async (sandbox) => {
      await sandbox.api.createInvoice({ method: 'pix', total_price_cents: 990, payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' } });
      writeFileSync(edited, '{ broken');
      await sandbox.reset();
      expect(await listed(sandbox)).toEqual(['order-7', 'order-8']);
    });
  });

  it('names a file that cannot be read, and why', async () => {
    const missing = join(folder, 'missing.json');
    await expect(startSandbox({ fixtures: missing })).rejects.toThrow(`startSandbox: fixtures: ${missing} does not exist`);
    await expect(startSandbox({ fixtures: relative(process.cwd(), missing) })).rejects.toThrow(/does not exist \(a relative path is taken from the current directory, .*import\.meta\.url/);
    await expect(startSandbox({ fixtures: folder })).rejects.toThrow(`startSandbox: fixtures: ${folder} is a folder, not a file`);
  });

  it.skipIf(process.getuid?.() === 0)('names a file it may not read', async () => {
    const locked = file('locked.json', JSON.stringify(FIXTURES));
    chmodSync(locked, 0o000);
    await expect(startSandbox({ fixtures: locked })).rejects.toThrow(`startSandbox: fixtures: ${locked} cannot be read: permission denied`);
  });

  it('names a file that is not JSON with the parse problem, and a refused document with its JSON paths', async () => {
    const broken = file('broken.json', '// the shop\n{ "charges": [] }');
    await expect(startSandbox({ fixtures: broken })).rejects.toThrow(
      new RegExp(`^startSandbox: fixtures ${broken}: nothing was loaded, the file has a problem:\n {2}\\(file\\): is not valid JSON: .*Unexpected token`),
    );
    const wrong = file('wrong.json', JSON.stringify({ charges: [{ external_id: 'x', state: 'payed', method: 'pix', amount: 100 }] }));
    await expect(startSandbox({ fixtures: wrong })).rejects.toThrow(new RegExp(`^startSandbox: fixtures ${wrong}: nothing was loaded, the file has a problem:\n {2}charges\\[0\\]\\.state: `));
    // a document given itself is refused as before: its JSON paths only
    await expect(startSandbox({ fixtures: '{ broken' })).rejects.toThrow(/^\(file\): is not valid JSON/);
  });

  it('refuses a URL that is not a file: URL, and an empty string', async () => {
    await expect(startSandbox({ fixtures: new URL('https://example.test/fixtures.json') })).rejects.toThrow(/fixtures: https:\/\/example\.test\/fixtures\.json is not a file: URL/);
    await expect(startSandbox({ fixtures: 'https://example.test/fixtures.json' })).rejects.toThrow(TypeError);
    await expect(startSandbox({ fixtures: ' ' })).rejects.toThrow(/an empty string is neither a file path nor JSON text/);
  });
});

describe('startSandbox({ publicHost })', () => {
  const fixtures = FIXTURES;

  it('writes the host, without a port, into the pix codes: the API\'s and the fixtures\', after reset() too', async () => {
    await started({ publicHost: 'pix.example.test', fixtures }, async (sandbox) => {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const charge = await sandbox.api.createInvoice({ method: 'pix', total_price_cents: 990, payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' } });
      const decoded = decodePix(charge.qr_code_pix ?? '');
      expect(decoded.valid).toBe(true);
      expect(decoded.fields.location).toMatch(/^pix\.example\.test\/qr\/v2\/\w{32}$/);
      expect(await fixtureLocation(sandbox)).toMatch(/^pix\.example\.test\/qr\/v2\/\w{32}$/);
      await sandbox.reset();
      expect(await fixtureLocation(sandbox)).toMatch(/^pix\.example\.test\/qr\/v2\/\w{32}$/);
    });
  });

  it('without one, the fixtures\' codes name the sandbox\'s port, after reset() too', async () => {
    await started({ fixtures }, async (sandbox) => {
      const location = new RegExp(`^${new URL(sandbox.url).host.replaceAll('.', '\\.')}/qr/v2/\\w{32}$`);
      expect(await fixtureLocation(sandbox)).toMatch(location);
      await sandbox.reset();
      expect(await fixtureLocation(sandbox)).toMatch(location);
    });
  });

  it('refuses a host with a scheme or a path, naming it', async () => {
    await expect(startSandbox({ publicHost: 'https://pix.example.test' })).rejects.toThrow(/publicHost must be a host name or address .*not "https:\/\/pix\.example\.test"/);
    await expect(startSandbox({ publicHost: 'pix.example.test:99999' })).rejects.toThrow(TypeError);
    await expect(startSandbox({ publicHost: `${'a'.repeat(40)}.test` })).rejects.toThrow(/publicHost must be at most 38 characters/);
  });
});

describe('startSandbox({ allowedHosts })', () => {
  it('lets a browser that reaches the sandbox by such a name see its pages, after reset() too; other names are refused 403', async () => {
    await started({ allowedHosts: ['shop.test'] }, async (sandbox) => {
      const at = (host: string) => rawRequest(`${sandbox.url}/dashboard`, { host });
      expect((await at(`shop.test:${new URL(sandbox.url).port}`)).status).toBe(200);
      await sandbox.reset();
      expect((await at('shop.test')).status).toBe(200);
      expect((await at('other.test')).status).toBe(403);
    });
  });

  it('refuses a name with a port, naming it', async () => {
    await expect(startSandbox({ allowedHosts: ['shop.test:8080'] })).rejects.toThrow(/allowedHosts must be an array of host names .*"shop\.test:8080" is not one/);
  });
});

describe('startSandbox({ fixtures }) given production records (`pinvoice logs export`)', () => {
  it('answers the record as production sent it, after reset() too, and refuses a refund of it with a 409 naming its status', async () => {
    const saved = productionRecord({ id: 4242, amount: 15990, status: 'in_analysis', method: 'pix', createdAt: '2026-11-25T23:38:17.443211Z', updatedAt: '2026-11-25T23:38:17.512904Z' });
    const out = join(folder, 'exported.json');
    const exported = await run(['logs', 'export', '--records', file('saved.json', JSON.stringify(saved)), '--fixtures', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const record = JSON.parse(readFileSync(out, 'utf8')).records[0].record;
    await started({ fixtures: out }, async (sandbox) => {
      const get = async () => (await fetch(`${sandbox.url}/api/v2/invoices/4242`, { headers: { authorization: `Bearer ${sandbox.token}` } })).json();
      expect(await get()).toEqual(record);
      expect(record).toMatchObject({ status: 'in_analysis', antifraud: saved.antifraud });
      await sandbox.reset();
      expect(await get()).toEqual(record);
      const refund = await fetch(`${sandbox.url}/api/v2/invoices/4242/refund`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' }, body: '{}' });
      expect(refund.status).toBe(409);
      expect(await refund.json()).toMatchObject({ error: 'invalid_state', message: expect.stringContaining('status "in_analysis"') });
    });
  });
});
