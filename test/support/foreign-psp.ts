// Another PSP's pix locations, as a payer's bank meets them: an https server (its TLS certificate from a
// throwaway CA made with @peculiar/x509) answering `GET /qr/v2/<token>` with a compact JWS signed with
// jose, and its JWKS at /jwks.json (a leaf and an intermediate in x5c). Each charge may carry a fault
// that breaks one step of what `pix verify` checks, so a test can prove each is refused for its reason.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { CompactSign, exportJWK } from 'jose';
import { createHash, KeyObject, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPixCode } from '../../src/domain/pix.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export type PspFault =
  | 'expired_certificate' | 'unknown_kid' | 'foreign_jku' | 'bad_signature' | 'unavailable'
  | 'altered_amount' | 'concluida' | 'x5t_mismatch' | 'untrusted_ca' | 'wrong_content_type' | 'no_kid';

export interface PspCharge {
  txid: string;
  /** "159.90": valor.original as the location writes it */
  amount: string;
  status?: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_PSP';
  fault?: PspFault;
}

export interface ForeignPsp {
  /** the https origin, e.g. https://localhost:40123 */
  origin: string;
  /** the PEM file of the CA to give `--ca` (signs the TLS certificate and the signing chain) */
  caFile: string;
  /** a dynamic BR Code whose location is this charge's on this server */
  code(charge: PspCharge, merchant?: { name?: string; city?: string }): string;
  /** every query the locations were asked with, in order */
  queries: URLSearchParams[];
  close(): Promise<void>;
}

const RSA: webcrypto.RsaHashedKeyGenParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
const DAY = 86_400_000;
const newKeys = () => webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify']);
const toPem = (key: CryptoKey) => KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }) as string;
const der64 = (cert: x509.X509Certificate) => Buffer.from(cert.rawData).toString('base64');

interface Issuer { cert: x509.X509Certificate; keys: CryptoKeyPair }

async function makeCa(name: string, parent?: Issuer): Promise<Issuer> {
  const keys = await newKeys();
  const extensions = [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)];
  const common = { serialNumber: String(Date.now()), notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 30 * DAY), signingAlgorithm: RSA, extensions };
  const cert = parent
    ? await x509.X509CertificateGenerator.create({ ...common, subject: `CN=${name}`, issuer: parent.cert.subject, publicKey: keys.publicKey, signingKey: parent.keys.privateKey })
    : await x509.X509CertificateGenerator.createSelfSigned({ ...common, name: `CN=${name}`, keys });
  return { cert, keys };
}

async function makeLeaf(issuer: Issuer, options: { expired?: boolean; usage: 'tls' | 'sign' }): Promise<Issuer> {
  const keys = await newKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: String(now + 1), subject: 'CN=localhost', issuer: issuer.cert.subject,
    notBefore: new Date(options.expired ? now - 60 * DAY : now - DAY), notAfter: new Date(options.expired ? now - 30 * DAY : now + 30 * DAY),
    publicKey: keys.publicKey, signingKey: issuer.keys.privateKey, signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(false),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }, { type: 'ip', value: '127.0.0.1' }]),
      ...(options.usage === 'tls' ? [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth])] : []),
    ],
  });
  return { cert, keys };
}

/** A signing identity: its key as a JWK (with x5c and x5t#S256) and the private key that signs. */
async function signer(kid: string, leaf: Issuer, chain: x509.X509Certificate[]) {
  const jwk = await exportJWK(leaf.keys.publicKey);
  const x5t = createHash('sha256').update(Buffer.from(leaf.cert.rawData)).digest('base64url');
  return { kid, x5t, privateKey: leaf.keys.privateKey, jwk: { ...jwk, kid, alg: 'RS256', use: 'sig', x5c: [leaf.cert, ...chain].map(der64), 'x5t#S256': x5t } };
}

export async function startForeignPsp(): Promise<ForeignPsp> {
  const root = await makeCa('foreign PSP test root');
  const intermediate = await makeCa('foreign PSP test issuing CA', root);
  const stranger = await makeCa('a CA nobody trusts');
  const tls = await makeLeaf(root, { usage: 'tls' });
  const good = await signer('psp-2026', await makeLeaf(intermediate, { usage: 'sign' }), [intermediate.cert]);
  const expired = await signer('psp-old', await makeLeaf(intermediate, { usage: 'sign', expired: true }), [intermediate.cert]);
  const untrusted = await signer('psp-stray', await makeLeaf(stranger, { usage: 'sign' }), [stranger.cert]);
  const other = await signer('psp-other', await makeLeaf(intermediate, { usage: 'sign' }), [intermediate.cert]);

  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-foreign-psp-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, root.cert.toString('pem'));

  const charges = new Map<string, PspCharge>();
  const queries: URLSearchParams[] = [];
  let origin = '';

  async function location(charge: PspCharge): Promise<{ status: number; type: string; body: string }> {
    const fault = charge.fault;
    if (fault === 'unavailable') return { status: 503, type: 'text/plain', body: 'try again later' };
    const key = fault === 'expired_certificate' ? expired : fault === 'untrusted_ca' ? untrusted : good;
    const now = new Date().toISOString();
    const payload = {
      txid: charge.txid, revisao: 0,
      calendario: { criacao: now, apresentacao: now, expiracao: 3600 },
      devedor: { cpf: '52998224725', nome: 'Fulano de Tal' },
      valor: { original: fault === 'altered_amount' ? '1.00' : charge.amount },
      chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
      status: fault === 'concluida' ? 'CONCLUIDA' : (charge.status ?? 'ATIVA'),
      solicitacaoPagador: 'Pedido 1042', infoAdicionais: [{ nome: 'loja', valor: 'centro' }],
    };
    const header = {
      alg: 'RS256', kid: fault === 'unknown_kid' ? 'psp-gone' : key.kid,
      'x5t#S256': fault === 'x5t_mismatch' ? other.x5t : key.x5t,
      jku: fault === 'foreign_jku' ? 'https://keys.elsewhere.example/jwks.json' : `${origin}/jwks.json`,
    };
    if (fault === 'no_kid') delete (header as Partial<typeof header>).kid;
    // bad_signature: the header names this PSP's key, another key signed
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header).sign(fault === 'bad_signature' ? other.privateKey : key.privateKey);
    return { status: 200, type: fault === 'wrong_content_type' ? 'text/html; charset=utf-8' : 'application/jose', body: jws };
  }

  const server: Server = createServer({ key: toPem(tls.keys.privateKey), cert: tls.cert.toString('pem') }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    void (async () => {
      if (url.pathname === '/jwks.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [good, expired, untrusted, other].map((s) => s.jwk) }));
        return;
      }
      const charge = charges.get(url.pathname.replace(/^\/qr\/v2\//, ''));
      if (!charge) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such location');
      queries.push(url.searchParams);
      const answer = await location(charge);
      res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  let next = 0;

  return {
    origin,
    caFile,
    queries,
    code(charge, merchant = {}) {
      const token = `loc${String(next++).padStart(4, '0')}${charge.txid.slice(0, 8)}`;
      charges.set(token, charge);
      const cents = Number(charge.amount.replace('.', ''));
      return buildPixCode({ merchantName: merchant.name ?? 'LOJA DO BAIRRO', merchantCity: merchant.city ?? 'CAMPINAS', amountCents: cents, url: `${origin.replace('https://', '')}/qr/v2/${token}` });
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
