// A support agent (or a payer's bank) is given a dynamic pix code of another PSP: `pix verify`, the
// built binary, against a foreign PSP's https location (test/support/foreign-psp.ts), each way a
// location can be wrong named as the step it breaks, with its exit code.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPixCode } from '../../src/domain/pix.js';
import { run, tempHome } from '../support/cli.js';
import { startForeignPsp, type ForeignPsp, type PspFault } from '../support/foreign-psp.js';

const TXID = 'Pedido1042LojaDoBairro0000000001';
let psp: ForeignPsp;
beforeAll(async () => {
  psp = await startForeignPsp();
}, 30_000);
afterAll(() => psp.close());

const verify = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
  run(['pix', 'verify', ...args], { env: { ...tempHome(), ...options.env }, input: options.input });
const charge = (fault?: PspFault) => psp.code({ txid: TXID, amount: '159.90', ...(fault && { fault }) });
interface StepJson { step: string; ok: boolean | null; message: string }
const failed = (stdout: string) => (JSON.parse(stdout) as { steps: StepJson[] }).steps.filter((step) => step.ok === false);

describe('pix verify against a foreign PSP', () => {
  it('a sound location: every step ✓, the charge as a bank shows it, exit 0, nothing on stderr', async () => {
    const result = await verify([charge(), '--ca', psp.caFile]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('✗');
    expect(result.stdout.match(/✓/g)).toHaveLength(16);
    for (const text of ['LOJA DO BAIRRO (CAMPINAS)', 'R$ 159,90', TXID, 'ATIVA', 'verified: every step holds']) expect(result.stdout).toContain(text);
  });

  it("asks as a bank does: DPP is today's date in São Paulo, codMun the --cod-mun given", async () => {
    const before = psp.queries.length;
    const result = await verify([charge(), '--ca', psp.caFile, '--cod-mun', '3509502']);
    expect(result.code, result.stderr).toBe(0);
    const query = psp.queries[before]!;
    expect(query.get('DPP')).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date()));
    expect(query.get('codMun')).toBe('3509502');
  });

  it('- reads the code from stdin; --json holds every step and the payload as fetched', async () => {
    const result = await verify(['-', '--json', '--ca', psp.caFile], { input: `${charge()}\n` });
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ ok: true, verified: true, payload: { txid: TXID, valor: { original: '159.90' }, status: 'ATIVA' } });
    expect(answer.location).toMatch(/^https:\/\/localhost:\d+\/qr\/v2\/\w+\?DPP=\d{4}-\d{2}-\d{2}&codMun=3550308$/);
    expect(answer.steps.map((step: StepJson) => step.step)).toEqual([
      'code', 'fetch', 'jws', 'header', 'jku', 'jwks', 'kid', 'x5c', 'chain', 'leaf', 'x5t', 'key', 'signature', 'txid', 'amount', 'status',
    ]);
  });

  it('NODE_EXTRA_CA_CERTS trusts the PSP as --ca does', async () => {
    const result = await verify([charge()], { env: { NODE_EXTRA_CA_CERTS: psp.caFile } });
    expect(result.code, result.stderr).toBe(0);
  });

  const FAULTS: [PspFault, number, string, string][] = [
    ['expired_certificate', 12, 'leaf', 'expired on'],
    ['unknown_kid', 12, 'kid', 'no key "psp-gone" in the JWKS'],
    ['foreign_jku', 12, 'jku', "is on keys.elsewhere.example, not on the location's host localhost: not fetched"],
    ['bad_signature', 12, 'signature', 'the signature does not verify with key psp-2026'],
    ['unavailable', 13, 'fetch', 'answered HTTP 503'],
    ['altered_amount', 12, 'amount', "the payload's valor.original 1.00 is not the code's amount 159.90"],
    ['concluida', 14, 'status', 'CONCLUIDA: already paid'],
    ['x5t_mismatch', 12, 'x5t', "the certificate's is"],
    ['untrusted_ca', 12, 'chain', 'issued by "CN=a CA nobody trusts", which is not a CA trusted here'],
    ['wrong_content_type', 12, 'fetch', 'content type text/html; charset=utf-8, not application/jose'],
    ['no_kid', 12, 'header', 'the protected header has no kid'],
  ];
  it.each(FAULTS)('%s: exit %i, the %s step named as the one that fails', async (fault, exit, step, text) => {
    const result = await verify([charge(fault), '--ca', psp.caFile, '--json']);
    expect(result.code, result.stderr).toBe(exit);
    const failures = failed(result.stdout);
    expect(failures.map((failure) => failure.step)).toEqual([step]);
    expect(failures[0]!.message).toContain(text);
    expect(result.stderr).toMatch(/^pinvoice: /);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('--json of a signed answer that does not match the code: verified (the PSP signed it), not ok, the payload as fetched; a forged or mislabelled one is not verified', async () => {
    const result = await verify([charge('altered_amount'), '--ca', psp.caFile, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, verified: true, payload: { valor: { original: '1.00' } } });
    const forged = await verify([charge('bad_signature'), '--ca', psp.caFile, '--json']);
    expect(JSON.parse(forged.stdout)).toMatchObject({ ok: false, verified: false, payload: { txid: TXID } });
    const mislabelled = await verify([charge('x5t_mismatch'), '--ca', psp.caFile, '--json']);
    expect(JSON.parse(mislabelled.stdout)).toMatchObject({ ok: false, verified: false });
  });

  it('the checklist marks the failed step ✗ and the steps it kept from running ·', async () => {
    const result = await verify([charge('unknown_kid'), '--ca', psp.caFile]);
    expect(result.code).toBe(12);
    expect(result.stdout).toMatch(/✗ kid found in the JWKS +no key "psp-gone"/);
    expect(result.stdout).toMatch(/· signature verifies +not run: an earlier step failed/);
    expect(result.stdout).toContain('not verified: a step fails');
    expect(result.stderr).toContain("the location's answer does not hold: kid (kid found in the JWKS)");
  });

  it('the PSP not trusted (no --ca): the fetch fails naming the certificate and --ca, exit 13', async () => {
    const result = await verify([charge()]);
    expect(result.code).toBe(13);
    expect(result.stderr).toContain('could not fetch the location: cannot trust https://localhost:');
    expect(result.stderr).toContain('--ca FILE');
  });

  it('a location that never answers: exit 13 once --timeout has passed', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const code = buildPixCode({ merchantName: 'LOJA', merchantCity: 'CAMPINAS', amountCents: 1000, url: `127.0.0.1:${(silent.address() as AddressInfo).port}/qr/v2/x` });
      const started = Date.now();
      const result = await verify([code, '--timeout', '1']);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(result.code).toBe(13);
      expect(result.stderr).toContain('no answer from https://127.0.0.1:');
      expect(result.stderr).toContain('within 1 s (--timeout)');
    } finally {
      silent.close();
    }
  });

  it('a code that breaks a rule, and a static code, are the code itself: exit 11, nothing fetched', async () => {
    const before = psp.queries.length;
    const good = charge();
    const broken = await verify([`${good.slice(0, -4)}0000`, '--ca', psp.caFile]);
    expect(broken.code).toBe(11);
    expect(broken.stderr).toContain('the pix code breaks a rule: crc');
    const staticCode = buildPixCode({ merchantName: 'LOJA', merchantCity: 'CAMPINAS', amountCents: 1000, key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906' });
    const result = await verify([staticCode, '--json']);
    expect(result.code).toBe(11);
    expect(failed(result.stdout)[0]).toMatchObject({ step: 'code', message: expect.stringContaining('a static code (a pix key) has no location') });
    expect(psp.queries.length).toBe(before);
  });
});
