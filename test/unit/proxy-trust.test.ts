import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { trustedAuthorities } from '../../src/proxy/trust.js';

const SYSTEM = '/etc/ssl/certs/ca-certificates.crt';

describe('the CAs pinvoice proxy trusts for an https origin', () => {
  it.runIf(existsSync(SYSTEM))("are the system's bundle, Node's own and NODE_EXTRA_CA_CERTS together (a ca given replaces Node's defaults)", () => {
    const extra = join(mkdtempSync(join(tmpdir(), 'trust-')), 'ca.pem');
    writeFileSync(extra, '-----BEGIN CERTIFICATE-----\nMIIBlocal\n-----END CERTIFICATE-----\n');
    const cas = trustedAuthorities({ NODE_EXTRA_CA_CERTS: extra }) ?? [];
    expect(cas).toContain(readFileSync(SYSTEM, 'utf8'));
    expect(cas).toContain(readFileSync(extra, 'utf8'));
    expect(cas.slice(0, rootCertificates.length)).toEqual([...rootCertificates]);
  });

  it.runIf(existsSync(SYSTEM))('leave NODE_EXTRA_CA_CERTS out when it is not set or names no file', () => {
    expect(trustedAuthorities({})).toHaveLength(rootCertificates.length + 1);
    expect(trustedAuthorities({ NODE_EXTRA_CA_CERTS: '/no/such/file.pem' })).toHaveLength(rootCertificates.length + 1);
  });
});
