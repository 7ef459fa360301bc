// The signature check the README offers merchants is run here, so the sample cannot rot.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/domain/signature.js';

type Verify = (rawBody: Buffer, header: string | undefined, secret: string, toleranceSeconds?: number) => boolean;
let verifyPostback: Verify;

beforeAll(async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const sample = /### Verifying the signature in your server[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!sample) throw new Error('README has no js sample under "Verifying the signature in your server"');
  const path = join(mkdtempSync(join(tmpdir(), 'pinvoice-readme-')), 'verify.mjs');
  writeFileSync(path, sample);
  ({ verifyPostback } = (await import(pathToFileURL(path).href)) as { verifyPostback: Verify });
});

describe('the README signature sample', () => {
  const secret = 'whsec_readme_sample';
  const body = Buffer.from('{"id":"evt_1","event":"invoice.paid","total":1990}');
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts what the server signs', () => {
    expect(verifyPostback(body, signatureHeader(secret, now(), body), secret)).toBe(true);
  });

  it('rejects a changed body, a changed timestamp, a wrong secret, an old signature and no header', () => {
    const header = signatureHeader(secret, now(), body);
    expect(verifyPostback(Buffer.from(body.toString().replace('1990', '1991')), header, secret)).toBe(false);
    expect(verifyPostback(body, header.replace(/t=(\d+)/, (_, t: string) => `t=${Number(t) - 1}`), secret)).toBe(false);
    expect(verifyPostback(body, header, `${secret}x`)).toBe(false);
    expect(verifyPostback(body, signatureHeader(secret, now() - 600, body), secret)).toBe(false);
    expect(verifyPostback(body, undefined, secret)).toBe(false);
  });
});
