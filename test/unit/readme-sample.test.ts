// The signature checks docs/postbacks.md offers merchants are run here, so the samples cannot rot
// (test/compat/readme-handlers.test.ts runs the whole handlers against real deliveries).
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bodySignature, signatureHeader } from '../../src/domain/signature.js';
import { readmeBlocks, SIGNATURE_SECTION, writeSample } from '../support/readme.js';

type VerifyBody = (rawBody: Buffer, signature: string | undefined, secret: string) => boolean;
type VerifyTimestamped = (rawBody: Buffer, header: string | undefined, secret: string, toleranceSeconds?: number) => boolean;
let verifyWebhookSignature: VerifyBody;
let verifyPinvoiceSignature: VerifyTimestamped;

beforeAll(async () => {
  const [handler, replaySafe] = readmeBlocks(SIGNATURE_SECTION, 'js');
  ({ verifyWebhookSignature } = (await import(pathToFileURL(writeSample('handler.mjs', handler ?? '')).href)) as { verifyWebhookSignature: VerifyBody });
  ({ verifyPinvoiceSignature } = (await import(pathToFileURL(writeSample('replay-safe.mjs', replaySafe ?? '')).href)) as { verifyPinvoiceSignature: VerifyTimestamped });
});

const secret = 'whsec_readme_sample';
const body = Buffer.from('{"id":"INV-20261123-000001-9439","event":"invoice.paid","total":1990}');
const now = () => Math.floor(Date.now() / 1000);

describe('the docs\' X-Webhook-Signature check', () => {
  it('accepts what the server signs', () => {
    expect(verifyWebhookSignature(body, bodySignature(secret, body), secret)).toBe(true);
  });

  it('rejects a changed body, a wrong secret, a truncated signature and no header', () => {
    const signature = bodySignature(secret, body);
    expect(verifyWebhookSignature(Buffer.from(body.toString().replace('1990', '1991')), signature, secret)).toBe(false);
    expect(verifyWebhookSignature(body, signature, `${secret}x`)).toBe(false);
    expect(verifyWebhookSignature(body, signature.slice(2), secret)).toBe(false);
    expect(verifyWebhookSignature(body, undefined, secret)).toBe(false);
  });
});

describe('the docs\' Pinvoice-Signature check (replay-safe)', () => {
  it('accepts what the server signs', () => {
    expect(verifyPinvoiceSignature(body, signatureHeader(secret, now(), body), secret)).toBe(true);
  });

  it('rejects a changed body, a changed timestamp, a wrong secret, an old signature and no header', () => {
    const header = signatureHeader(secret, now(), body);
    expect(verifyPinvoiceSignature(Buffer.from(body.toString().replace('1990', '1991')), header, secret)).toBe(false);
    expect(verifyPinvoiceSignature(body, header.replace(/t=(\d+)/, (_, t: string) => `t=${Number(t) - 1}`), secret)).toBe(false);
    expect(verifyPinvoiceSignature(body, header, `${secret}x`)).toBe(false);
    expect(verifyPinvoiceSignature(body, signatureHeader(secret, now() - 600, body), secret)).toBe(false);
    expect(verifyPinvoiceSignature(body, undefined, secret)).toBe(false);
  });
});
