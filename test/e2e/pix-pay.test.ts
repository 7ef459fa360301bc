// A payer's bank app on the sandbox: `pix pay`, the built binary, refusing what `pix verify` refuses
// (a charge already paid names CONCLUIDA) before anything is asked or paid, and asking on a terminal.
// The code's location is a foreign PSP's (test/support/foreign-psp.ts), so the charge it names is not
// on the plain `pinvoice serve` the payment goes to: a sound code gets as far as the sandbox's lookup.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { startForeignPsp, type ForeignPsp, type PspFault } from '../support/foreign-psp.js';

const TOKEN = 'pinv_test_e2e_pix_pay_token_01234';
const TXID = 'Pedido2077LojaDoBairro0000000002';
const DRIVER = new URL('../support/pty-drive.py', import.meta.url).pathname;
let psp: ForeignPsp;
let server: ServeProcess;
beforeAll(async () => {
  [psp, server] = await Promise.all([startForeignPsp(), serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome())]);
}, 30_000);
afterAll(async () => {
  await Promise.all([psp.close(), server.stop()]);
});

const connection = () => ({ ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url });
const pay = (args: string[], env: Record<string, string | undefined> = connection(), input?: string) => run(['pix', 'pay', ...args], { env, input });
const code = (fault?: PspFault) => psp.code({ txid: TXID, amount: '159.90', ...(fault && { fault }) });

/** On a pseudo-terminal, in the background: the foreign PSP answers from this process meanwhile. */
function onTerminal(args: string[], steps: [string, string][]): Promise<{ code: number; failure: string | null; transcript: string }> {
  const env = { PATH: process.env.PATH ?? '', TERM: 'xterm', NO_COLOR: '1', ...connection() };
  const child = spawn('python3', [DRIVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stdin.end(JSON.stringify({ argv: [process.execPath, BIN, 'pix', 'pay', ...args], env, steps, timeout: 15 }));
  return new Promise((resolve, reject) => child.on('close', (status) => (status === 0 ? resolve(JSON.parse(output)) : reject(new Error(`pty driver exited ${status}`)))));
}

describe('pix pay', () => {
  it('a charge already paid (CONCLUIDA) is refused naming its status, exit 14; nothing on stdout, the checklist on stderr', async () => {
    const result = await pay([code('concluida'), '--ca', psp.caFile, '--yes']);
    expect(result.code).toBe(14);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('✗ charge open to payment (ATIVA)');
    expect(result.stderr).toContain('pinvoice: the charge is not open to payment: CONCLUIDA: already paid');
  });

  it.each([['altered_amount', 12, "amount (amount matches the code)"], ['bad_signature', 12, 'signature (signature verifies)'], ['unavailable', 13, 'HTTP 503']] as const)(
    'a location with %s is refused as pix verify refuses it (exit %i), before any question or payment', async (fault, exit, named) => {
      const result = await pay([code(fault), '--ca', psp.caFile, '--json']);
      expect(result.code).toBe(exit);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(named);
      expect(result.stderr).not.toContain('Pay R$');
    },
  );

  it('not logged in: said at once, exit 3, the location not even fetched', async () => {
    const before = psp.queries.length;
    const result = await pay([code(), '--ca', psp.caFile], tempHome());
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('not logged in');
    expect(psp.queries.length).toBe(before);
  });

  it('a sound code from stdin without a terminal: shown, not asked, then looked up on the sandbox (another PSP\'s charge is not there: exit 4)', async () => {
    const result = await pay(['-', '--ca', psp.caFile], connection(), `${code()}\n`);
    expect(result.stderr).toMatch(/merchant +LOJA DO BAIRRO \(CAMPINAS\)\namount +R\$ 159,90\ntxid +Pedido2077LojaDoBairro0000000002/);
    expect(result.stderr).not.toContain('Pay R$');
    expect(result.stderr).toContain(`no charge with this pix code at ${server.url}`);
    expect(result.code).toBe(4);
  });

  it('on a terminal it asks "Pay R$ 159,90 to LOJA DO BAIRRO (CAMPINAS)?"; "no" cancels (exit 130) before the sandbox is asked', async () => {
    const no = await onTerminal([code(), '--ca', psp.caFile], [['Pay R\\$ 159,90 to LOJA DO BAIRRO \\(CAMPINAS\\)\\?', 'n\r']]);
    expect(no.failure).toBeNull();
    expect(no.code).toBe(130);
    expect(no.transcript).toContain('nothing was changed');
    expect(no.transcript).not.toContain('no charge with this pix code');
  });

  it('--yes on a terminal: not asked, straight to the sandbox', async () => {
    const yes = await onTerminal([code(), '--ca', psp.caFile, '--yes'], []);
    expect(yes.transcript).not.toContain('Pay R$');
    expect(yes.transcript).toContain('no charge with this pix code');
    expect(yes.code).toBe(4);
  });
});
