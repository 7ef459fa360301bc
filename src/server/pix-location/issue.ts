// Issues the certificates of the pix location: a local CA, and leaves it signs for the server's host
// names. Loaded only where a key is made (the first start of a data folder, a new host, a yearly
// reissue): @peculiar/x509 and the metadata polyfill its tsyringe needs cost start-up time otherwise.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

type Keys = webcrypto.CryptoKeyPair;

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

/** PEM texts: what the key folder (or the database) keeps. */
export interface IssuedPair {
  cert: string;
  key: string;
}

const RSA = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
const DAY_MS = 86_400_000;

async function newKeys(): Promise<Keys> {
  return (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as Keys;
}

async function pkcs8Pem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n`;
}

/** A CA of ten years: it only signs leaves (keyCertSign), no intermediate below it (pathLength 0); `name` is its common name. */
export async function issueCa(now: Date, name = 'pinvoice local pix CA'): Promise<IssuedPair> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name}, O=pinvoice sandbox`,
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + 3652 * DAY_MS),
    keys,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: pemText(cert), key: await pkcs8Pem(keys.privateKey) };
}

export interface LeafRequest {
  ca: IssuedPair;
  hosts: readonly string[];
  notBefore: Date;
  notAfter: Date;
}

/** A server certificate for the host names (DNS or IP), signed by the CA; its key also signs the JWS. */
export async function issueLeaf({ ca, hosts, notBefore, notAfter }: LeafRequest): Promise<IssuedPair> {
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await webcrypto.subtle.importKey('pkcs8', pemBody(ca.key), RSA, false, ['sign']);
  const keys = await newKeys();
  const names = hosts.map((host) => ({ type: isIP(host) ? 'ip' : 'dns', value: host }) as const);
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${hosts[0] ?? 'localhost'}`,
    issuer: caCert.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: pemText(cert), key: await pkcs8Pem(keys.privateKey) };
}

/** PEM ending in a newline, so a chain is the certificates' texts one after the other. */
const pemText = (cert: x509.X509Certificate) => `${cert.toString('pem').trimEnd()}\n`;

function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}
