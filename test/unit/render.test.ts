import { describe, it, expect } from 'vitest';
import { useTimeZone } from '../../src/cli/render/time.js';
import { Enterprise, Transaction } from '../../src/api/schemas.js';
import { createPalette, shouldUseColour } from '../../src/cli/render/colour.js';
import { renderCompany } from '../../src/cli/render/company.js';
import { dateTime, document, money, orDash, percent, signedMoney, zipCode } from '../../src/cli/render/format.js';
import { formatDigitableLine } from '../../src/domain/boleto.js';
import { renderTransaction } from '../../src/cli/render/transaction.js';
import { renderPayment } from '../../src/cli/render/transaction-payment.js';
import { BOLETO_BARCODE, BOLETO_LINE, PIX_CODE, boletoTransaction, cardTransaction, enterprise, pixTransaction } from '../support/fixtures.js';
import { readTransaction } from '../../src/client/read/transaction.js';
import { readCompany } from '../../src/client/read/company.js';

// These tables are checked in UTC (as with --utc); time zones are time.test.ts's.
useTimeZone('UTC');

const ESC = '\u001b[';
const plain = createPalette(false);
const coloured = createPalette(true);
// Wide enough that no cell wraps, so rows can be matched whole; fitting narrower terminals is render-width.test.ts.
const WIDE = 160;
const render = (tx: Transaction) => renderTransaction(readTransaction(tx), { palette: plain, width: WIDE });

/** The lines from a section's title to the blank line that ends it. */
function sectionOf(output: string, title: string): string {
  const start = output.split('\n').indexOf(title);
  if (start === -1) throw new Error(`no section "${title}" in:\n${output}`);
  const rest = output.split('\n').slice(start);
  const end = rest.indexOf('');
  return rest.slice(0, end === -1 ? undefined : end).join('\n');
}

describe('fixtures', () => {
  it.each([
    ['pix', pixTransaction],
    ['card', cardTransaction],
    ['boleto', boletoTransaction],
  ])('the %s transaction passes Transaction.parse unchanged', (_name, make) => {
    expect(Transaction.parse(make())).toEqual(make());
  });

  it('the enterprise passes Enterprise.parse unchanged', () => expect(Enterprise.parse(enterprise())).toEqual(enterprise()));
});

describe('shouldUseColour', () => {
  it.each([
    [{ isTTY: true, env: {} }, true],
    [{ isTTY: false, env: {} }, false],
    [{ isTTY: undefined, env: {} }, false],
    [{ isTTY: true, env: {}, flag: true }, true],
    [{ isTTY: true, env: {}, flag: false }, false],
    [{ isTTY: true, env: { NO_COLOR: '1' } }, false],
    [{ isTTY: true, env: { NO_COLOR: '' } }, true],
    [{ isTTY: true, env: { TERM: 'dumb' } }, false],
    [{ isTTY: true, env: { TERM: 'xterm-256color' } }, true],
    [{ isTTY: false, env: { FORCE_COLOR: '1' } }, true],
    [{ isTTY: false, env: { FORCE_COLOR: '3', TERM: 'dumb' } }, true],
    [{ isTTY: true, env: { FORCE_COLOR: '1', NO_COLOR: '1' } }, true],
    [{ isTTY: true, env: { FORCE_COLOR: '1' }, flag: false }, false],
    [{ isTTY: false, env: { FORCE_COLOR: '0' } }, false],
    [{ isTTY: true, env: { FORCE_COLOR: '0' } }, true],
    [{ isTTY: false, env: { FORCE_COLOR: '' } }, false],
    [{ isTTY: false, env: { FORCE_COLOR: 'false' } }, false],
  ])('%j -> %s', (context, expected) => expect(shouldUseColour(context)).toBe(expected));
});

describe('palette', () => {
  const names = ['bold', 'dim', 'heading', 'ok', 'warn', 'bad', 'info'] as const;

  it('writes no escape codes when disabled', () => {
    for (const name of names) expect(plain[name]('text')).toBe('text');
    for (const status of ['paid', 'pending', 'refused', 'refunded', 'unknown']) expect(plain.status(status)).toBe(status);
  });

  it('writes escape codes when enabled', () => {
    for (const name of names) expect(coloured[name]('text')).toContain(ESC);
  });

  it.each([
    ['paid', '32'],
    ['pending', '33'],
    ['waiting_3ds', '33'],
    ['refused', '31'],
    ['expired', '31'],
    ['canceled', '31'],
    ['chargedback', '31'],
    ['refunded', '35'],
  ])('colours %s with SGR %s', (status, code) => expect(coloured.status(status)).toBe(`${ESC}${code}m${status}${ESC}39m`));
});

describe('format', () => {
  it.each([
    [0.99, '0,99 %'],
    [3.99, '3,99 %'],
    [0, '0,00 %'],
    [1.5, '1,50 %'],
    [0.1 + 0.2, '0,30 %'],
    [100, '100,00 %'],
  ])('percent(%s) is %s', (value, expected) => expect(percent(value)).toBe(expected));

  it.each([
    ['2026-11-22T15:03:58.123Z', '2026-11-22 15:03:58 UTC'],
    ['2026-11-22T12:03:58.000-03:00', '2026-11-22 15:03:58 UTC'],
    ['2027-01-01T00:00:00.000Z', '2027-01-01 00:00:00 UTC'],
    [null, '—'],
    ['not a date', 'not a date'],
  ])('dateTime(%s) is %s', (iso, expected) => expect(dateTime(iso)).toBe(expected));

  it.each([
    [BOLETO_LINE, '00190.00009 02812.345672 00000.123174 2 16410000004990'],
    ['23793381286000782713695000063305975520000370000', '23793.38128 60007.827136 95000.063305 9 75520000370000'],
    ['00190.00009 02812.345672 00000.123174 2 16410000004990', '00190.00009 02812.345672 00000.123174 2 16410000004990'],
    ['0019000009028123456720000012317421641000000499', '0019000009028123456720000012317421641000000499'],
    ['', ''],
  ])('formatDigitableLine(%s) is %s', (line, expected) => expect(formatDigitableLine(line)).toBe(expected));

  it.each([
    ['52998224725', '529.982.247-25'],
    ['529.982.247-25', '529.982.247-25'],
    ['11222333000181', '11.222.333/0001-81'],
    ['12345678900', '12345678900'],
  ])('document(%s) is %s', (number, expected) => expect(document(number)).toBe(expected));

  it('formats money, signed money, blanks and CEPs', () => {
    expect(money(1990)).toBe('R$ 19,90');
    expect(money(123456)).toBe('R$ 1.234,56');
    expect([signedMoney(15000), signedMoney(-638), signedMoney(0)]).toEqual(['+R$ 150,00', '-R$ 6,38', 'R$ 0,00']);
    expect([orDash(null), orDash(undefined), orDash(''), orDash('  '), orDash('x'), orDash(0)]).toEqual(['—', '—', '—', '—', 'x', '0']);
    expect([zipCode('01310100'), zipCode('01310-100'), zipCode('123')]).toEqual(['01310-100', '01310-100', '123']);
  });
});

describe('renderTransaction: pending pix', () => {
  const output = render(pixTransaction());

  it('shows the summary', () => {
    const summary = sectionOf(output, 'Summary');
    for (const text of ['42', 'INV-20261122-000042-8391', 'pending', 'pix', 'R$ 19,90', 'R$ 0,00']) expect(summary).toContain(text);
    expect(summary).toMatch(/created\s+│ 2026-11-22 15:03:58 UTC/);
    expect(summary).toMatch(/paid\s+│ —/);
    expect(summary).toMatch(/paid at\s+│ —/);
    expect(summary).toMatch(/expires\s+│ 2026-11-22 16:03:58 UTC/);
    expect(summary).toContain('https://shop.example.com/webhooks/pinvoice');
    expect(summary).not.toContain('refused reason');
    expect(summary).not.toContain('after refunds');
  });

  it('shows the payer with a formatted CPF and a one-line address', () => {
    const payer = sectionOf(output, 'Payer');
    for (const text of ['Maria da Silva', 'CPF 529.982.247-25', 'maria.silva@example.com', '+5511987654321']) expect(payer).toContain(text);
    expect(payer).toContain('Rua Augusta, 1500, apto 42 - Bela Vista - São Paulo/SP - CEP 01304-001');
  });

  it('shows items with line totals and a total row', () => {
    const items = sectionOf(output, 'Items');
    expect(items).toMatch(/Café especial 250 g\s+│\s+1 │\s+R\$ 12,90 │\s+R\$ 12,90 │ yes/);
    expect(items).toMatch(/Caneca esmaltada\s+│\s+2 │\s+R\$ 3,50 │\s+R\$ 7,00 │ yes/);
    expect(items).toMatch(/total\s+│\s+3 │\s+│\s+R\$ 19,90 │/);
  });

  it('shows the fee', () => {
    const fee = sectionOf(output, 'Fee');
    expect(fee).toMatch(/fee\s+│ 0,99 % \+ R\$ 0,00/);
    expect(fee).toMatch(/estimated fee\s+│ R\$ 0,20/);
    expect(fee).toMatch(/net amount\s+│ R\$ 19,70/);
  });

  it('puts the pix code whole on a line of its own, under its label, with or without colour', () => {
    for (const palette of [plain, coloured]) {
      const lines = renderTransaction(readTransaction(pixTransaction()), { palette, width: 60 }).split('\n');
      const at = lines.indexOf(PIX_CODE);
      expect(at).toBeGreaterThan(0);
      expect(lines[at - 1]).toContain('pix copy-and-paste code:');
    }
  });

  it('leaves the payment section out when it is shown apart, last, above the QR; apart, it says what it pays and until when', () => {
    const without = renderTransaction(readTransaction(pixTransaction()), { palette: plain, width: WIDE, payment: false });
    expect(without).not.toContain('Payment (pix)');
    expect(without).not.toContain(PIX_CODE);
    const apart = renderPayment(readTransaction(pixTransaction()), plain, WIDE, true)?.split('\n');
    expect(apart?.slice(0, 2)).toEqual(['Payment (pix) of charge 42 (INV-20261122-000042-8391)', expect.stringMatching(/^R\$ 19,90 · expires 2026-11-22 16:03:58 UTC( \(.+\))?$/)]);
    expect(apart?.slice(-2)).toEqual(['pix copy-and-paste code:', PIX_CODE]);
  });

  it.each([
    ['expired', '2026-11-22T16:03:59.000Z', 'expired 2026-11-22 16:03:59 UTC — this code can no longer be paid'],
    ['canceled', '2026-11-22T15:10:00.000Z', 'canceled 2026-11-22 15:10:00 UTC — this code can no longer be paid'],
    ['paid', '2026-11-22T15:04:00.000Z', 'paid 2026-11-22 15:04:00 UTC — this code cannot be paid again'],
  ] as const)('the pix code of a charge %s is shown under a warning, not as one to copy', (status, at, warning) => {
    const tx = { ...pixTransaction(), status, timeline: [...pixTransaction().timeline, { status, at, note: status }] };
    const pix = sectionOf(render(tx), 'Payment (pix)').split('\n');
    expect(pix).toEqual(['Payment (pix)', warning, `pix copy-and-paste code (${status}, not payable):`, PIX_CODE]);
  });

  it('a status this version does not know leaves the code as one to pay', () => {
    const pix = sectionOf(renderTransaction(readTransaction({ ...pixTransaction(), status: 'in_analysis' as 'pending' }), { palette: plain, width: WIDE }), 'Payment (pix)');
    expect(pix.split('\n')).toEqual(['Payment (pix)', 'pix copy-and-paste code:', PIX_CODE]);
  });

  it('shows the timeline and omits empty refunds and movements', () => {
    expect(sectionOf(output, 'Timeline')).toMatch(/2026-11-22 15:03:58 UTC │ pending │ pix charge created; awaiting payment/);
    expect(output).not.toContain('Refunds');
    expect(output).not.toContain('Financial movements');
  });
});

describe('renderTransaction: paid card with a refund', () => {
  const output = render(cardTransaction());

  it('shows amounts paid, refunded and kept', () => {
    const summary = sectionOf(output, 'Summary');
    expect(summary).toContain('credit card');
    expect(summary).toMatch(/paid\s+│ R\$ 150,00/);
    expect(summary).toMatch(/refunded\s+│ R\$ 50,00/);
    expect(summary).toMatch(/after refunds\s+│ R\$ 100,00/);
    expect(summary).toMatch(/paid at\s+│ 2026-11-22 15:05:12 UTC/);
    expect(summary).not.toContain('expires');
    expect(summary).not.toContain('postback URL');
  });

  it('shows only the first six and last four digits of the card', () => {
    const payment = sectionOf(output, 'Payment (credit card)');
    expect(payment).toContain('411111 •••• 1111');
    expect(output).not.toContain('4111111111111111');
    for (const text of ['visa', 'MARIA DA SILVA', '12/2030', '3-D Secure', 'authenticated']) expect(payment).toContain(text);
    expect(payment).toMatch(/installments\s+│ 3 /);
  });

  it('shows the refund and the signed financial movements', () => {
    expect(sectionOf(output, 'Refunds')).toMatch(/1\s+│ R\$ 50,00 │ customer returned one unit │ 2026-11-23 10:00:00 UTC/);
    const movements = sectionOf(output, 'Financial movements');
    expect(movements).toMatch(/payment │ card\s+│ \+R\$ 150,00 │ card payment/);
    expect(movements).toMatch(/fee\s+│ card\s+│\s+-R\$ 6,38 │/);
    expect(movements).toMatch(/refund\s+│ card\s+│\s+-R\$ 50,00 │ partial refund/);
  });

  it('shows each status change in the timeline', () => {
    const timeline = sectionOf(output, 'Timeline');
    expect(timeline).toContain('waiting_3ds │ 3-D Secure authentication requested');
    expect(timeline).toContain('2026-11-22 15:05:12 UTC │ paid');
  });

  it.each(['paid', 'refunded', 'expired', 'canceled'] as const)('shows no expiry once a pix charge is %s (only a pending charge can still expire)', (status) => {
    const tx = { ...pixTransaction(), status, paidAt: status === 'paid' || status === 'refunded' ? '2026-11-22T15:10:00.000Z' : null };
    expect(sectionOf(render(tx), 'Summary')).not.toContain('expires');
    expect(sectionOf(render({ ...boletoTransaction(), status }), 'Summary')).not.toContain('expires');
  });

  it('shows the refusal reason of a refused charge', () => {
    const refused = { ...cardTransaction(), status: 'refused', paidAt: null, refusedReason: 'insufficient funds' } as const;
    expect(sectionOf(render(refused), 'Summary')).toMatch(/refused reason\s+│ insufficient funds/);
  });
});

describe('renderTransaction: boleto', () => {
  const output = render(boletoTransaction());

  it('shows the typeable line grouped, the barcode and the due date', () => {
    const payment = sectionOf(output, 'Payment (boleto)');
    expect(payment).toContain('00190.00009 02812.345672 00000.123174 2 16410000004990');
    expect(payment).toContain(BOLETO_BARCODE);
    expect(payment).toMatch(/due date\s+│ 2026-11-25/);
    expect(sectionOf(output, 'Summary')).toMatch(/expires\s+│ 2026-11-28 02:59:59 UTC/);
  });

  it('shows a company payer with its CNPJ, the boleto fee and "no items"', () => {
    expect(sectionOf(output, 'Payer')).toContain('CNPJ 45.372.343/0001-15');
    expect(sectionOf(output, 'Fee')).toMatch(/fee\s+│ 0,00 % \+ R\$ 3,49/);
    expect(sectionOf(output, 'Items')).toBe('Items\nno items');
  });

  it('leaves out an address nobody gave', () => {
    const tx = boletoTransaction();
    tx.customer.address = { city: '', complement: null, country: 'br', neighborhood: '', state: '', street: '', streetNumber: '', zipCode: '' };
    expect(sectionOf(render(tx), 'Payer')).not.toContain('address');
  });
});

describe('colour in rendered output', () => {
  const outputs = (palette: typeof plain) => [
    renderTransaction(readTransaction(pixTransaction()), { palette, width: WIDE }),
    renderTransaction(readTransaction(cardTransaction()), { palette, width: WIDE }),
    renderTransaction(readTransaction(boletoTransaction()), { palette, width: WIDE }),
    renderCompany(readCompany(enterprise()), { palette, width: WIDE }),
  ];

  it('has no escape codes with the palette disabled', () => {
    for (const output of outputs(plain)) expect(output).not.toContain(ESC);
  });

  it('has escape codes with the palette enabled', () => {
    for (const output of outputs(coloured)) expect(output).toContain(ESC);
  });
});

describe('renderCompany', () => {
  const output = renderCompany(readCompany(enterprise()), { palette: plain, width: WIDE });

  it('shows the identity and the bank account', () => {
    const company = sectionOf(output, 'Company');
    for (const text of ['Pinvoice Sandbox', 'Pinvoice Sandbox Ltda', '11.222.333/0001-81', 'LTDA', 'https://sandbox.example.com']) {
      expect(company).toContain(text);
    }
    expect(company).toContain('Avenida Paulista, 1000 - Bela Vista - São Paulo/SP - CEP 01310-100');
    expect(company).toContain('001 - Banco do Brasil S.A., agency 0001, account 123456-7, corrente');
  });

  it('shows each balance, their total and the invoiced amounts', () => {
    const balances = sectionOf(output, 'Balances');
    expect(balances).toMatch(/pix\s+│\s+R\$ 19,70/);
    expect(balances).toMatch(/card\s+│\s+R\$ 93,62/);
    expect(balances).toMatch(/boleto\s+│\s+R\$ 46,41/);
    expect(balances).toMatch(/total\s+│\s+R\$ 159,73/);
    expect(balances).toMatch(/all time\s+│\s+R\$ 12.345,67/);
    expect(balances).toMatch(/this month\s+│\s+R\$ 456,78/);
  });

  it('lists the blocks in force, or none', () => {
    expect(output.split('\n')).toContain('blocked: none');
    const blocked = { ...enterprise(), blocked_pix: true, blocked_system: true };
    expect(renderCompany(readCompany(blocked), { palette: plain, width: WIDE }).split('\n')).toContain('blocked: pix, system');
  });
});
