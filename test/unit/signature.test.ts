import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodySignature, parseSignatureHeader, pastedSignature, signatureHeader, signatureOf, verifySignature } from '../../src/domain/signature.js';
import { retryDelay } from '../../src/server/postbacks/dispatcher.js';

const secret = 'whsec_test_0123456789abcdef';
const body = '{"id":"evt_1","event":"invoice.paid","total":1990}';
const t = 1_795_000_000;
const now = new Date(t * 1000);
const header = signatureHeader(secret, t, body);

describe('postback signatures', () => {
  it('is the hex HMAC-SHA256 of "t.body" (a known vector from openssl)', () => {
    // printf '%s' "1795000000.$body" | openssl dgst -sha256 -hmac whsec_test_0123456789abcdef
    expect(signatureOf(secret, t, body)).toBe('2cba4203d8298501693f065d33a243697d8d09275ab723f6f6691fb4cd5d0fdd');
    expect(header).toBe('t=1795000000,v1=2cba4203d8298501693f065d33a243697d8d09275ab723f6f6691fb4cd5d0fdd');
  });

  it('accepts the real signature', () => {
    expect(verifySignature({ secret, body, headers: { timestamped: header }, now, toleranceSeconds: 300 })).toEqual({ valid: true, timestamp: t });
  });

  it('rejects a changed body, a changed timestamp and a wrong secret', () => {
    expect(verifySignature({ secret, body: body.replace('1990', '1991'), headers: { timestamped: header }, now })).toMatchObject({ valid: false, reason: 'signature_mismatch' });
    expect(verifySignature({ secret, body, headers: { timestamped: header.replace(`t=${t}`, `t=${t + 1}`) }, now })).toMatchObject({ valid: false, reason: 'signature_mismatch' });
    expect(verifySignature({ secret: `${secret}x`, body, headers: { timestamped: header }, now })).toMatchObject({ valid: false, reason: 'signature_mismatch' });
  });

  it('rejects any single changed byte of the body (property)', () => {
    fc.assert(
      fc.property(fc.nat(body.length - 1), fc.integer({ min: 1, max: 255 }), (index, delta) => {
        const bytes = Buffer.from(body);
        bytes[index] = ((bytes[index] ?? 0) + delta) % 256;
        return !verifySignature({ secret, body: bytes, headers: { timestamped: header }, now }).valid;
      }),
    );
  });

  it('rejects an old signature only when a tolerance is asked for', () => {
    const later = new Date((t + 301) * 1000);
    expect(verifySignature({ secret, body, headers: { timestamped: header }, now: later, toleranceSeconds: 300 })).toMatchObject({ valid: false, reason: 'timestamp_outside_tolerance' });
    expect(verifySignature({ secret, body, headers: { timestamped: header }, now: later }).valid).toBe(true);
  });

  it.each([
    ['   ', 'blank'],
    ['v1=abc', 'no timestamp'],
    [`t=${t}`, 'no signature'],
    [`t=${t},v1=xyz`, 'not hex'],
    [`t=abc,v1=${'0'.repeat(64)}`, 'timestamp not a number'],
  ])('calls a malformed header malformed: %s (%s)', (value) => {
    expect(verifySignature({ secret, body, headers: { timestamped: value }, now })).toEqual({ valid: false, reason: 'malformed_header' });
  });

  it('takes a header pasted with its name, and any of several v1 values (secret rotation)', () => {
    expect(verifySignature({ secret, body, headers: { timestamped: `Pinvoice-Signature: ${header}` }, now }).valid).toBe(true);
    const other = signatureOf('whsec_old', t, body);
    expect(parseSignatureHeader(`t=${t},v1=${other},${header.split(',')[1]}`)?.signatures).toHaveLength(2);
    expect(verifySignature({ secret, body, headers: { timestamped: `t=${t},v1=${other},${header.split(',')[1]}` }, now }).valid).toBe(true);
  });
});

describe('X-Webhook-Signature (production’s form: the hex HMAC-SHA256 of the body)', () => {
  const signature = bodySignature(secret, body);

  it('is the hex HMAC-SHA256 of the body alone (a known vector from openssl)', () => {
    // printf '%s' "$body" | openssl dgst -sha256 -hmac whsec_test_0123456789abcdef
    expect(signature).toBe('e2c755cd7107713ee1774aa28b0b8d01b6c707e3b16ed502ff60d46bb268f0a5');
  });

  it('accepts the real one, with or without its header name, in either case', () => {
    expect(verifySignature({ secret, body, headers: { body: signature } })).toEqual({ valid: true });
    expect(verifySignature({ secret, body, headers: { body: `X-Webhook-Signature: ${signature.toUpperCase()}` } }).valid).toBe(true);
  });

  it('rejects a changed body, a wrong secret and anything but 64 hex digits', () => {
    expect(verifySignature({ secret, body: body.replace('1990', '1991'), headers: { body: signature } })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifySignature({ secret: `${secret}x`, body, headers: { body: signature } })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifySignature({ secret, body, headers: { body: signature.slice(1) } })).toEqual({ valid: false, reason: 'malformed_header' });
  });

  it('needs every header that came to match, and at least one to come', () => {
    expect(verifySignature({ secret, body, headers: { timestamped: header, body: signature }, now })).toEqual({ valid: true, timestamp: t });
    expect(verifySignature({ secret, body, headers: { timestamped: header, body: bodySignature('whsec_other', body) }, now })).toMatchObject({ valid: false, reason: 'signature_mismatch' });
    expect(verifySignature({ secret, body, headers: { timestamped: signatureHeader('whsec_other', t, body), body: signature }, now })).toMatchObject({ valid: false, reason: 'signature_mismatch' });
    expect(verifySignature({ secret, body, headers: {} })).toEqual({ valid: false, reason: 'missing_signature' });
  });

  it('tells which form a pasted value is', () => {
    expect(pastedSignature(signature)).toEqual({ body: signature });
    expect(pastedSignature(`X-Webhook-Signature: ${signature}`)).toEqual({ body: signature });
    expect(pastedSignature(header)).toEqual({ timestamped: header });
    expect(pastedSignature(`Pinvoice-Signature: ${header}`)).toEqual({ timestamped: `Pinvoice-Signature: ${header}` });
  });
});

describe('retry delays', () => {
  it('double each time, with jitter between half and all of the step', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 1000, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 1000, () => 0.999999))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never wait more than an hour', () => {
    expect(retryDelay(40, 1000, () => 0.999999)).toBeLessThanOrEqual(3_600_000);
    expect(retryDelay(40, 1000, () => 0)).toBe(1_800_000);
  });
});
