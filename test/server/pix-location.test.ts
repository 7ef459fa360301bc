// The pix code's location as a payer's bank fetches it (both engines): the code names the server's own
// host, the JWS verifies with jose from the JWKS alone, its payload is the charge's, and each
// pix_location chaos fault shows as a bank would see it.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePixCode as parsePix } from '../../src/domain/pix.js';
import { create, sandbox } from '../support/charges.js';
import { folderVault, locationKeys } from '../../src/server/pix-location/key-folder.js';
import { request, sql, startTestServer, validPix, type TestServer } from '../support/server.js';

interface Fetched { status: number; type: string | null; text: string; headers: Headers }

describe('the pix location', () => {
  let server: TestServer;
  const get = async (path: string): Promise<Fetched> => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text(), headers: response.headers };
  };
  /** The location of a new charge's code, as a bank reads it from the code. */
  const locationOf = (code: string) => `/${(parsePix(code).url ?? '').split('/').slice(1).join('/')}`;
  /** What a bank does: the JWKS at the header's jku, the key by kid, the signature checked. */
  async function verify(jws: string) {
    const header = decodeProtectedHeader(jws);
    const jwks = (await (await fetch(String(header.jku))).json()) as { keys: (JWK & { x5c: string[] })[] };
    const jwk = jwks.keys.find((key) => key.kid === header.kid);
    if (!jwk) throw new Error(`kid ${header.kid} not in the JWKS`);
    const { payload } = await compactVerify(jws, await importJWK(jwk, String(header.alg)));
    return { header, jwk, payload: JSON.parse(new TextDecoder().decode(payload)) };
  }

  beforeAll(async () => {
    server = await startTestServer({ pixExpirySeconds: 3600 });
  });
  afterAll(() => server.close());

  it("writes the server's own host and port into the code, within the code's rules", async () => {
    const charge = await create(server, validPix());
    const parsed = parsePix(charge.pix.qrCode);
    expect(parsed.url).toBe(`${server.url.replace('http://', '')}/qr/v2/${parsed.url?.split('/').at(-1)}`);
    expect(parsed.url?.length).toBeLessThanOrEqual(77);
    expect(parsed.url?.split('/').at(-1)).toMatch(/^[A-Za-z0-9]{26,35}$/);
  });

  it('answers a pending charge as a JWS that verifies from the JWKS alone, with the API Pix payload', async () => {
    const charge = await create(server, validPix({ total_price_cents: 15990, items: [{ name: 'Camiseta', description: 'Azul', quantity: 2, unit_price: 7995 }] }));
    const fetched = await get(`${locationOf(charge.pix.qrCode)}?DPP=2026-12-01&codMun=3550308`);
    expect(fetched.status).toBe(200);
    expect(fetched.type).toMatch(/^application\/jose/);
    const { header, jwk, payload } = await verify(fetched.text);
    expect(header).toMatchObject({ alg: 'PS256', jku: `${server.url}/qr/v2/jwks.json` });
    expect(header['x5t#S256']).toBe(jwk['x5t#S256']);
    const leaf = new X509Certificate(Buffer.from(jwk.x5c[0] ?? '', 'base64'));
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.verify(new X509Certificate(Buffer.from(jwk.x5c[1] ?? '', 'base64')).publicKey)).toBe(true);
    const txid = parsePix(charge.pix.qrCode).url?.split('/').at(-1);
    expect(payload).toMatchObject({
      txid, revisao: 0, status: 'ATIVA', valor: { original: '159.90' },
      devedor: { cpf: '52998224725', nome: 'Fulano de Tal' },
      calendario: { criacao: charge.createdAt, expiracao: 3600 },
      infoAdicionais: [{ nome: 'Camiseta', valor: '2 × 79.95' }],
    });
    expect(typeof payload.chave).toBe('string');
    expect(Date.parse(payload.calendario.apresentacao)).toBeGreaterThanOrEqual(Date.parse(charge.createdAt));
  });

  it('says CONCLUIDA once paid and REMOVIDA_PELO_PSP once expired or canceled', async () => {
    for (const [action, status] of [['pay', 'CONCLUIDA'], ['expire', 'REMOVIDA_PELO_PSP'], ['cancel', 'REMOVIDA_PELO_PSP']] as const) {
      const charge = await create(server, validPix());
      expect((await sandbox(server, charge.id, action)).status).toBe(200);
      const { payload } = await verify((await get(locationOf(charge.pix.qrCode))).text);
      expect(payload.status, action).toBe(status);
    }
  });

  it('says REMOVIDA_PELO_PSP for a pending charge past its expiry that the sweep has not reached yet', async () => {
    let now = Date.parse('2026-03-10T12:00:00Z');
    const clocked = await startTestServer({ pixExpirySeconds: 600, expiryCheckMs: 0, clock: () => new Date(now) });
    try {
      const charge = await create(clocked, validPix());
      const at = async () => {
        const response = await fetch(`${clocked.url}${locationOf(charge.pix.qrCode)}`);
        return JSON.parse(Buffer.from(String((await response.text()).split('.')[1]), 'base64url').toString()).status;
      };
      now += 599_000;
      expect(await at()).toBe('ATIVA');
      now += 1000;
      expect(await at()).toBe('REMOVIDA_PELO_PSP');
    } finally {
      await clocked.close();
    }
  });

  it('answers 404 for a txid no charge has, and 400 for a codMun that is not one', async () => {
    const missing = await get('/qr/v2/ABCDEFGHIJKLMNOPQRSTUVWXYZ012345');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({ error: 'not_found' });
    const charge = await create(server, validPix());
    expect((await get(`${locationOf(charge.pix.qrCode)}?codMun=abc`)).status).toBe(400);
  });

  it("is found by its txid alone, and the company's ?pix_code= search still finds it", async () => {
    const charge = await create(server, validPix());
    const found = await request(server, 'GET', `/api/v2/invoices?pix_code=${encodeURIComponent(charge.pix.qrCode)}`);
    expect(found.body.data.map((c: { id: number }) => c.id)).toEqual([charge.id]);
    const index = server.store.engine === 'sqlite'
      ? await sql<{ sql: string }>(server, "SELECT sql FROM sqlite_master WHERE name = 'invoices_pix_txid'")
      : await sql<{ sql: string }>(server, "SELECT indexdef AS sql FROM pg_indexes WHERE indexname = 'invoices_pix_txid'");
    expect(index[0]?.sql).toMatch(/\(\s*"?pix_txid"?\s*\)/);
    expect(index[0]?.sql).not.toMatch(/company_id/);
  });

  describe('chaos: pix_location', () => {
    const chaos = (fault: string | null, invoiceId?: number) =>
      request(server, 'PUT', '/api/v2/sandbox/chaos', { body: { pix_location: fault, ...(invoiceId && { invoice_id: invoiceId }) } });
    afterAll(() => request(server, 'DELETE', '/api/v2/sandbox/chaos'));
    const fetchJws = async () => (await get(locationOf((await create(server, validPix())).pix.qrCode))).text;

    it('expired_certificate: signed by a key whose leaf in the JWKS has expired', async () => {
      expect((await chaos('expired_certificate')).body).toMatchObject({ pix_location: 'expired_certificate', active: true });
      const { jwk } = await verify(await fetchJws());
      const leaf = new X509Certificate(Buffer.from(jwk.x5c[0] ?? '', 'base64'));
      expect(Date.parse(leaf.validTo)).toBeLessThan(Date.now());
    });

    it('unknown_kid: the header names a key the JWKS does not hold', async () => {
      await chaos('unknown_kid');
      await expect(verify(await fetchJws())).rejects.toThrow(/not in the JWKS/);
    });

    it('foreign_jku: the JWKS is said to be on another host', async () => {
      await chaos('foreign_jku');
      expect(new URL(String(decodeProtectedHeader(await fetchJws()).jku)).host).toBe('jwks.invalid');
    });

    it('bad_signature: the header and payload as they should be, the signature not', async () => {
      await chaos('bad_signature');
      await expect(verify(await fetchJws())).rejects.toThrow(/signature verification failed/);
    });

    it('unavailable: 503 with Retry-After, for one charge only when narrowed to it', async () => {
      const [one, other] = [await create(server, validPix()), await create(server, validPix())];
      await chaos('unavailable', one.id);
      const down = await get(locationOf(one.pix.qrCode));
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('30');
      expect((await get(locationOf(other.pix.qrCode))).status).toBe(200);
    });
  });
});

describe('the key vault', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('makes one CA for servers starting together (PostgreSQL: in the database; SQLite: an owner-only folder), and renews a leaf past its time under the same CA', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pinvoice-vault-'));
    const vault = server.store.keyVault ?? folderVault(folder);
    const hosts = ['localhost', '127.0.0.1', '::1'];
    const [one, two] = await Promise.all([locationKeys(folder, hosts, vault), locationKeys(folder, hosts, vault)]);
    expect(two.ca.cert).toBe(one.ca.cert);
    expect(two.leaf.cert).toBe(one.leaf.cert);
    expect(statSync(one.caPath).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    if (server.store.engine === 'postgres') {
      expect(readdirSync(folder)).toEqual(['ca.crt']);
      expect((await sql<{ name: string }>(server, 'SELECT name FROM pix_keys ORDER BY name')).map((r) => r.name)).toEqual(['ca', expect.stringMatching(/^leaf-/)]);
    } else {
      for (const file of readdirSync(folder)) expect(statSync(join(folder, file)).mode & 0o777, file).toBe(0o600);
    }
    const later = await locationKeys(folder, hosts, vault, new Date(Date.now() + 400 * 86_400_000));
    expect(later.ca.cert).toBe(one.ca.cert);
    expect(later.leaf.cert).not.toBe(one.leaf.cert);
    const wider = await locationKeys(folder, [...hosts, 'pix.example.test'], vault);
    expect(new X509Certificate(wider.leaf.cert).checkHost('pix.example.test')).toBe('pix.example.test');
  });
});
