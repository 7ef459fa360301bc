// `serve --tls` and `serve ca` with the built binary: the CA made once beside the database, owner-only,
// the same for servers that ask together; an independent client (pix-utils' own fetch, in a node of
// its own trusting only NODE_EXTRA_CA_CERTS) reads the payload of a code made through the API.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationTxid } from '../../src/domain/pix.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { ENGINE, engineArgs } from '../support/engine.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_pix_location_e2e_token_0001';

/** pix-utils in a child node: what a wallet written with it gets from the code's location. */
function independentClient(code: string, env: Record<string, string>): Promise<{ ok: boolean; out: string }> {
  // pix-utils answers a failed fetch with an object carrying `error`, not a rejection
  const script = `require('pix-utils').parsePix(process.argv[1]).fetchPayload({ DPP: '2026-12-01', codMun: '3550308' })
    .then((p) => { console.log(JSON.stringify(p.error ? p : p.payload)); if (p.error) process.exitCode = 1; }, (e) => { console.log(String(e)); process.exitCode = 1; })`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', script, code], { env: { PATH: process.env.PATH, ...env }, cwd: process.cwd(), timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ ok: !error, out: `${stdout}${stderr}` }));
  });
}

/** A charge created over https, trusting the CA for this request only. */
function createOver(url: string, ca: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(validPix({ total_price_cents: 15990, items: [{ name: 'Camiseta', description: 'Azul', quantity: 2, unit_price: 7995 }] }));
    const req = httpsRequest(`${url}/api/v2/invoices`, { method: 'POST', ca, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk)).on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('serve --tls and serve ca', () => {
  const folder = mkdtempSync(join(tmpdir(), 'pinvoice-pix-location-'));
  const db = join(folder, 'dev.db');
  const env = tempHome();
  let server: ServeProcess;
  let caPath: string;

  beforeAll(async () => {
    await engineArgs(['--db', db]); // (on PostgreSQL, its database made before the two race)
    // two asking at once end up with one CA: the loser reads the winner's
    const [one, two] = await Promise.all([run(['serve', 'ca', '--db', db], { env }), run(['serve', 'ca', '--db', db], { env })]);
    expect([one.code, two.code, one.stderr]).toEqual([0, 0, '']);
    caPath = one.stdout.trim();
    expect(two.stdout.trim()).toBe(caPath);
    server = await serve(['--tls', '--port', '0', '--db', db, '--token', TOKEN], env);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('prints one CA certificate path, owner-only, the same CA on every call', async () => {
    expect(caPath).toMatch(/ca\.crt$/);
    const pem = readFileSync(caPath, 'utf8');
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(pem).not.toMatch(/PRIVATE KEY/);
    expect(statSync(caPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(caPath, '..')).mode & 0o777).toBe(0o700);
    const again = await run(['serve', 'ca', '--db', db], { env });
    expect(again.stdout.trim()).toBe(caPath);
    expect(readFileSync(caPath, 'utf8')).toBe(pem);
  });

  it('listens on https, and a client trusting only the CA reads the code’s payload with pix-utils', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const created = await createOver(server.url, readFileSync(caPath, 'utf8'));
    const code = created.data?.qr_code_pix as string;
    expect(code, JSON.stringify(created)).toBeTypeOf('string');
    expect(code).toContain(`${server.url.replace('https://', '')}/qr/v2/`);
    const fetched = await independentClient(code, { NODE_EXTRA_CA_CERTS: caPath });
    expect(fetched.ok, fetched.out).toBe(true);
    const payload = JSON.parse(fetched.out);
    expect(payload).toMatchObject({ txid: locationTxid(code), valor: { original: '159.90' }, status: 'ATIVA' });
    // the same client without the CA is refused by TLS: the trust is what made it work
    expect((await independentClient(code, {})).ok).toBe(false);
  });
});

describe('serve --public-host', () => {
  it('writes its host into the codes and names it in the certificate; a host with a scheme is a usage error', async () => {
    const env = tempHome();
    const server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN, '--public-host', 'pix.example.test:8443'], env);
    try {
      const answer = await fetch(`${server.url}/api/v2/invoices`, {
        method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(validPix()),
      });
      const code = ((await answer.json()) as { data: { qr_code_pix: string } }).data.qr_code_pix;
      expect(code).toContain('pix.example.test:8443/qr/v2/');
      const jwks = (await (await fetch(`${server.url}/qr/v2/jwks.json`)).json()) as { keys: { x5c: string[] }[] };
      const leaf = new X509Certificate(Buffer.from(jwks.keys[0]?.x5c[0] ?? '', 'base64'));
      expect(leaf.checkHost('pix.example.test')).toBe('pix.example.test');
    } finally {
      await server.stop();
    }
    const refused = await run(['serve', '--port', '0', '--db', ':memory:', '--public-host', 'https://pix.example.test'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--public-host.*must be a host name or address/);
  });
});

describe('a key folder that cannot be written', () => {
  it.skipIf(ENGINE !== 'sqlite')('is said naming the folder, by serve ca and serve --tls (exit 1), never as a stack', async () => {
    const env = { ...tempHome(), PINVOICE_DATA_DIR: '/dev/null/pinvoice' };
    const ca = await run(['serve', 'ca', '--db', ':memory:'], { env });
    expect([ca.code, ca.stderr]).toEqual([1, expect.stringMatching(/^pinvoice: cannot keep the local CA in \/dev\/null\/pinvoice\/pix-keys \(ENOTDIR\)/)]);
    const tls = await run(['serve', '--tls', '--port', '0', '--db', ':memory:'], { env });
    expect(tls.code).toBe(1);
    expect(tls.stderr).toMatch(/^pinvoice: cannot keep the pix location's keys in \/dev\/null\/pinvoice\/pix-keys \(ENOTDIR\)/);
    expect(tls.stdout).toBe('');
  });
});
