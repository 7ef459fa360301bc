// The closing lines of `invoice create`: what was created, and the command to run next, per outcome.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closingLines, createdLine, nextStepLine, shellWord } from '../../src/cli/render/next-step.js';
import type { TransactionView } from '../../src/client/read/transaction.js';

const SECURE = 'INV-20261122-000012-4821';

// Run through npx (npm_command=exec), pinvoice suggests `npx pinvoice …`: these tests may themselves run under npx.
const started = process.env.npm_command;
beforeEach(() => delete process.env.npm_command);
afterEach(() => (started === undefined ? delete process.env.npm_command : (process.env.npm_command = started)));

function charge(overrides: Partial<TransactionView>): TransactionView {
  return {
    raw: {}, id: '12', secureId: SECURE, ref: '12', method: 'pix', amount: 2500, status: 'pending', checkoutToken: 'ck_0123',
    metadata: [], items: [], timeline: [], refunds: [], movements: [], others: [], ...overrides,
  };
}

const SERVE = { sandbox: true };
const PRODUCTION = { sandbox: false };

describe('createdLine', () => {
  it.each<[string, Partial<TransactionView>, string]>([
    ['a pending pix', {}, `Created pix charge 12 (${SECURE}) R$ 25,00 — pending`],
    ['a card waiting for 3-D Secure', { method: 'credit_card', status: 'waiting_3ds' }, `Created card charge 12 (${SECURE}) R$ 25,00 — waiting_3ds`],
    ['a refused card (its reason is the error line\'s)', { method: 'credit_card', status: 'refused', refusedReason: 'insufficient_funds' }, `Created card charge 12 (${SECURE}) R$ 25,00 — refused`],
    ['a boleto', { method: 'boleto' }, `Created boleto charge 12 (${SECURE}) R$ 25,00 — pending`],
    ['a method this version does not know', { method: 'bank_transfer' }, `Created bank_transfer charge 12 (${SECURE}) R$ 25,00 — pending`],
    ['an answer with the secure id only', { id: undefined, ref: SECURE }, `Created pix charge ${SECURE} R$ 25,00 — pending`],
    ['an amount not in whole cents', { amount: { asSent: '25.5' } }, `Created pix charge 12 (${SECURE}) 25.5 (as sent; not whole cents) — pending`],
    ['no amount, no status', { amount: undefined, status: undefined }, `Created pix charge 12 (${SECURE}) — status not given`],
    ['hostile text from the gateway', { status: 'pending\u001b[2J' }, `Created pix charge 12 (${SECURE}) R$ 25,00 — pending\\x1b[2J`],
  ])('%s', (_name, overrides, expected) => expect(createdLine(charge(overrides))).toBe(expected));
});

describe('nextStepLine', () => {
  it.each<[string, Partial<TransactionView>, typeof SERVE, string | undefined]>([
    ['a pending pix: the payer\'s page, then watch', {}, SERVE, "Next: pinvoice invoice open 12  (the payer's page)  ·  pinvoice invoice get 12 --watch"],
    ['a pending boleto, the same', { method: 'boleto' }, PRODUCTION, "Next: pinvoice invoice open 12  (the payer's page)  ·  pinvoice invoice get 12 --watch"],
    ['no checkout page known: watch only', { checkoutToken: undefined }, PRODUCTION, 'Next: pinvoice invoice get 12 --watch'],
    ['3-D Secure on pinvoice serve: the sample values', { method: 'credit_card', status: 'waiting_3ds' }, SERVE, 'Next: pinvoice invoice 3ds 12 --sample  (sandbox values that authenticate)  ·  pinvoice invoice get 12 --watch'],
    ['3-D Secure on production: no sandbox values', { method: 'credit_card', status: 'waiting_3ds' }, PRODUCTION, "Next: pinvoice invoice 3ds 12 --file <values.json>  (the payer's 3-D Secure values)  ·  pinvoice invoice get 12 --watch"],
    ['paid: nothing to do', { method: 'credit_card', status: 'paid' }, SERVE, undefined],
    ['refused: nothing to do', { method: 'credit_card', status: 'refused' }, SERVE, undefined],
    ['a status this version does not know', { status: 'in_analysis' }, SERVE, undefined],
    ['no id to act on', { id: undefined, secureId: undefined, ref: undefined }, SERVE, undefined],
  ])('%s', (_name, overrides, context, expected) => expect(nextStepLine(charge(overrides), context)).toBe(expected));

  it('repeats the run\'s --profile, --base-url and --token-file, quoted for the shell', () => {
    const line = nextStepLine(charge({ checkoutToken: undefined }), { sandbox: false, connection: { profile: 'prod', baseUrl: 'https://gw.example/api', tokenFile: "/tmp/my token's" } });
    expect(line).toBe(`Next: pinvoice invoice get 12 --watch --profile prod --base-url https://gw.example/api --token-file '/tmp/my token'\\''s'`);
  });

  it('quotes an id the shell would read otherwise', () => {
    expect(nextStepLine(charge({ ref: 'a b;rm', checkoutToken: undefined }), SERVE)).toBe("Next: pinvoice invoice get 'a b;rm' --watch");
    expect(shellWord(SECURE)).toBe(SECURE);
  });
});

describe('closingLines', () => {
  it('ends with the next step when there is one', async () => {
    expect((await closingLines(charge({}), SERVE)).split('\n')).toEqual([`Created pix charge 12 (${SECURE}) R$ 25,00 — pending`, expect.stringMatching(/^Next: /)]);
    expect(await closingLines(charge({ status: 'paid' }), SERVE)).toBe(`Created pix charge 12 (${SECURE}) R$ 25,00 — paid`);
  });

  it('for a terminal: each command on lines that fit its width (the one line would fold inside a word at 80)', async () => {
    const lines = (await closingLines(charge({}), SERVE, 60)).split('\n');
    expect(lines).toEqual([`Created pix charge 12 (${SECURE}) R$ 25,00 — pending`, 'Next:', "  pinvoice invoice open 12   # the payer's page", '  pinvoice invoice get 12 --watch']);
  });
});

describe('a run started through npx', () => {
  it('suggests npx pinvoice', () => {
    process.env.npm_command = 'exec';
    expect(nextStepLine(charge({}), { sandbox: true, connection: {} })).toContain('npx pinvoice invoice open 12');
  });
});
