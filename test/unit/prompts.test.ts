import { describe, it, expect, vi, beforeEach } from 'vitest';
import fc from 'fast-check';
import type { CreateInvoiceRequest } from '../../src/api/schemas.js';
import { validateCreateRequest } from '../../src/api/validate.js';
import { CliError, EXIT } from '../../src/cli/errors.js';
import { amountFlag } from '../../src/commands/invoice/amount-flag.js';
import { CancelledError, missingFields, promptInvoice, type PartialCreate } from '../../src/cli/prompts/invoice.js';
import {
  validateAmount,
  validateCardNumber,
  validateCep,
  validateDocument,
  validateEmail,
  validateMonth,
  validateQuantity,
  validateRequired,
  validateSecurityCode,
  validateUf,
  validateUrl,
  validateYear,
} from '../../src/cli/prompts/validators.js';
import { inquirerPrompter, type Prompter, type Validate } from '../../src/cli/prompts/prompter.js';
import { amountRangeProblem, parseAmount } from '../../src/domain/money.js';

// Only the adapter test reaches inquirer; the mock stands in for a terminal.
const inquirer = vi.hoisted(() => ({ input: vi.fn(), select: vi.fn(), confirm: vi.fn(), password: vi.fn() }));
vi.mock('@inquirer/prompts', () => inquirer);

const NOW = new Date('2026-11-22T12:00:00Z');

// ---- A scripted Prompter ------------------------------------------------------------------------

type Kind = 'input' | 'select' | 'confirm' | 'password';
/** One expected question. `answer: null` presses Enter (takes the default); `rejects` are typed first and must be refused. */
interface Step {
  kind: Kind;
  message: RegExp;
  answer: string | boolean | null;
  rejects?: [typed: string, reason: RegExp][];
}
interface Asked {
  kind: Kind;
  message: string;
  default?: unknown;
  mask?: string;
  choices?: { name: string; value: string }[];
}

const input = (message: RegExp, answer: string | null, rejects?: Step['rejects']): Step => ({ kind: 'input', message, answer, rejects });
const password = (message: RegExp, answer: string, rejects?: Step['rejects']): Step => ({ kind: 'password', message, answer, rejects });
const select = (message: RegExp, answer: string | null): Step => ({ kind: 'select', message, answer });
const confirm = (message: RegExp, answer: boolean | null): Step => ({ kind: 'confirm', message, answer });

function scripted(steps: Step[]) {
  const queue = [...steps];
  const asked: Asked[] = [];
  const next = (question: Asked): Step => {
    asked.push(question);
    const step = queue.shift();
    const got = `${question.kind} "${question.message}"`;
    if (!step) throw new Error(`unexpected question ${got}: the script has ended`);
    if (step.kind !== question.kind || !step.message.test(question.message)) throw new Error(`expected ${step.kind} ${step.message}, got ${got}`);
    return step;
  };
  // Runs the validator like inquirer: on the typed text, or on the default when Enter is pressed.
  const text = (kind: Kind, o: { message: string; default?: string; mask?: string; validate?: Validate }): Promise<string> => {
    const step = next({ kind, message: o.message, default: o.default, mask: o.mask });
    for (const [typed, reason] of step.rejects ?? []) {
      const verdict = o.validate?.(typed) ?? true;
      if (verdict === true) throw new Error(`"${typed}" was accepted by "${o.message}"`);
      expect(verdict).toMatch(reason);
    }
    const answer = step.answer === null ? (o.default ?? '') : String(step.answer);
    const verdict = o.validate?.(answer) ?? true;
    if (verdict !== true) throw new Error(`the scripted answer "${answer}" to "${o.message}" was refused: ${verdict}`);
    return Promise.resolve(answer);
  };
  const prompter: Prompter = {
    input: (o) => text('input', o),
    password: (o) => text('password', o),
    select<T extends string>(o: { message: string; choices: { name: string; value: T }[]; default?: T }): Promise<T> {
      const step = next({ kind: 'select', message: o.message, default: o.default, choices: o.choices });
      const answer = step.answer === null ? o.default : o.choices.find((choice) => choice.value === step.answer)?.value;
      if (answer === undefined) throw new Error(`"${String(step.answer)}" is not a choice of "${o.message}"`);
      return Promise.resolve(answer);
    },
    confirm(o) {
      const step = next({ kind: 'confirm', message: o.message, default: o.default });
      return Promise.resolve(step.answer === null ? (o.default ?? false) : step.answer === true);
    },
  };
  return { prompter, asked, remaining: () => queue.length };
}

const summary = (request: CreateInvoiceRequest) => `SUMMARY ${request.method} ${request.total_price_cents}`;

/** Runs the flow through a script; every result must pass the client's own validation. */
async function run(partial: PartialCreate, steps: Step[]) {
  const fake = scripted(steps);
  const writes: string[] = [];
  const result = await promptInvoice(partial, fake.prompter, { now: NOW, renderSummary: summary, write: (text) => writes.push(text) });
  expect(fake.remaining(), 'scripted questions never asked').toBe(0);
  expect(validateCreateRequest(result, NOW)).toMatchObject({ ok: true });
  return { result, writes, asked: fake.asked, questions: fake.asked.map((q) => `${q.kind}: ${q.message}`) };
}

const PAYER = { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' };
const ITEMS = [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }];
const ADDRESS = { address_zip: '01310-100', address_line: 'Avenida Paulista', address_number: '1000', address_city: 'São Paulo', address_state: 'SP' };
const CARD = { number: '4111111111111111', first_name: 'Fulano', last_name: 'de Tal', month: '11', year: '2027', security_code: '123' };
const CREATE = select(/^Create this charge\?$/, null);

// ---- The flows ----------------------------------------------------------------------------------

describe('promptInvoice', () => {
  it('asks everything for a pix charge from nothing', async () => {
    const { result, writes, asked, questions } = await run({}, [
      select(/^Payment method$/, 'pix'),
      input(/^Payer name$/, 'Fulano de Tal', [['  ', /^Enter a value\.$/]]),
      input(/^Payer e-mail$/, 'fulano@example.com', [['fulano', /e-mail address/]]),
      input(/^Payer CPF or CNPJ$/, '52998224725', [['529.982.247-24', /^Not a valid CPF/]]),
      input(/^Item 1 name$/, 'Camiseta'),
      input(/^Item 1 quantity$/, null),
      input(/^Item 1 unit price/, '12,50', [['0', /^Enter at least R\$ 0,01\.$/], ['12,345', /is ambiguous/], ['0,999', /has 3 decimal places/]]),
      confirm(/^Add another item\?$/, true),
      input(/^Item 2 name$/, 'Caneca'),
      input(/^Item 2 quantity$/, '1'),
      input(/^Item 2 unit price/, '7.40'),
      confirm(/^Add another item\?$/, null),
      CREATE,
    ]);
    expect(result).toStrictEqual({
      method: 'pix',
      payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' },
      items: [
        { name: 'Camiseta', quantity: 1, unit_price: 1250 },
        { name: 'Caneca', quantity: 1, unit_price: 740 },
      ],
      total_price_cents: 1990,
    });
    expect(writes).toEqual(['SUMMARY pix 1990']);
    expect(questions).toEqual([
      'select: Payment method',
      'input: Payer name',
      'input: Payer e-mail',
      'input: Payer CPF or CNPJ',
      'input: Item 1 name',
      'input: Item 1 quantity',
      'input: Item 1 unit price (like 12,50)',
      'confirm: Add another item?',
      'input: Item 2 name',
      'input: Item 2 quantity',
      'input: Item 2 unit price (like 12,50)',
      'confirm: Add another item?',
      'select: Create this charge?',
    ]);
    expect(asked[0]).toMatchObject({ default: 'pix', choices: [{ name: 'Pix', value: 'pix' }, { name: 'Credit card', value: 'credit_card' }, { name: 'Boleto', value: 'boleto' }] });
    expect(asked.filter((q) => /quantity/.test(q.message)).map((q) => q.default)).toEqual(['1', '1']);
    expect(asked.filter((q) => q.kind === 'confirm').map((q) => q.default)).toEqual([false, false]);
  });

  it('asks only for what the partial lacks and leaves the rest untouched', async () => {
    const partial: PartialCreate = {
      method: 'pix',
      payer: { name: ' Fulano ', cpf_cnpj: '52998224725', phone: '+5511999998888' },
      total_price_cents: 1990,
      postback_url: 'https://shop.example/hook',
      product_fisical: true,
    };
    const before = structuredClone(partial);
    const { result, questions } = await run(partial, [input(/^Payer e-mail$/, ' fulano@example.com '), CREATE]);
    expect(questions).toEqual(['input: Payer e-mail', 'select: Create this charge?']);
    expect(result).toStrictEqual({ ...partial, payer: { ...partial.payer, email: 'fulano@example.com' } });
    expect(partial).toStrictEqual(before);
  });

  it('uses the sum of given items when the total is missing, asking nothing about items', async () => {
    const items = [{ name: 'Camiseta', quantity: 2, unit_price: 1990 }, { name: 'Meia', quantity: 3, unit_price: 500 }];
    const { result, questions } = await run({ method: 'pix', payer: PAYER, items }, [CREATE]);
    expect(questions).toEqual(['select: Create this charge?']);
    expect(result.total_price_cents).toBe(5480);
  });

  it('asks no items when a total was given without them', async () => {
    const { result, questions } = await run({ payer: PAYER, total_price_cents: 5000 }, [select(/^Payment method$/, 'pix'), CREATE]);
    expect(questions).toEqual(['select: Payment method', 'select: Create this charge?']);
    expect(result).toStrictEqual({ method: 'pix', payer: PAYER, total_price_cents: 5000 });
  });

  it('asks a boleto payer for the missing address fields only (no complement)', async () => {
    const { result, questions } = await run({ method: 'boleto', payer: { ...PAYER, address_city: 'São Paulo' }, items: ITEMS, total_price_cents: 1990 }, [
      input(/^Payer CEP$/, '01.310 100', [['1310-100', /^Enter a CEP of 8 digits/]]),
      input(/^Street$/, 'Avenida Paulista'),
      input(/^Street number$/, '1000', [['', /^Enter a value/]]),
      input(/^State \(UF\)$/, 'sp', [['São', /two-letter state code/]]),
      CREATE,
    ]);
    expect(questions).toEqual(['input: Payer CEP', 'input: Street', 'input: Street number', 'input: State (UF)', 'select: Create this charge?']);
    expect(result.payer).toStrictEqual({ ...PAYER, ...ADDRESS });
  });

  it('asks a boleto chosen at the prompt for the whole address', async () => {
    const { questions } = await run({ payer: PAYER, items: ITEMS, total_price_cents: 1990 }, [
      select(/^Payment method$/, 'boleto'),
      input(/CEP/, '01310-100'),
      input(/^Street$/, 'Rua Augusta'),
      input(/^Street number$/, '12'),
      input(/^City$/, 'São Paulo'),
      input(/^State/, 'SP'),
      CREATE,
    ]);
    expect(questions).toHaveLength(7);
  });

  it('asks a card: number, holder, expiry, masked security code, installments', async () => {
    const { result, asked, questions } = await run({ payer: PAYER, items: ITEMS, total_price_cents: 1990 }, [
      select(/^Payment method$/, 'credit_card'),
      input(/^Card number$/, '4111 1111 1111 1111', [['4111 1111 1111 1112', /Luhn/], ['4111', /12 to 19 digits/]]),
      input(/^Cardholder first name$/, 'Fulano'),
      input(/^Cardholder last name$/, 'de Tal'),
      input(/^Expiry month/, '3', [['13', /month from 1 to 12/]]),
      input(/^Expiry year/, '2027', [['2026', /^The card has expired\.$/], ['25', /^The year 2025 has passed\.$/], ['027', /YY or YYYY/]]),
      password(/^Security code$/, '123', [['12', /3 or 4 digits/]]),
      select(/^Installments$/, '3'),
      CREATE,
    ]);
    expect(result.card).toStrictEqual({ number: '4111111111111111', first_name: 'Fulano', last_name: 'de Tal', month: '03', year: '2027', security_code: '123', installment: 3 });
    expect(questions.slice(1, 8)).toEqual([
      'input: Card number',
      'input: Cardholder first name',
      'input: Cardholder last name',
      'input: Expiry month (1-12)',
      'input: Expiry year (YY or YYYY)',
      'password: Security code',
      'select: Installments',
    ]);
    expect(asked[6]).toMatchObject({ kind: 'password', mask: '*' });
    expect(asked[7]?.default).toBe('1');
    expect(asked[7]?.choices?.map((c) => c.name)).toEqual(['1x', '2x', '3x', '4x', '5x', '6x', '7x', '8x', '9x', '10x', '11x', '12x']);
    expect(asked[7]?.choices?.map((c) => c.value)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
  });

  it('asks only the missing card fields, keeping a given installment', async () => {
    const card = { number: CARD.number, month: '12', year: '2026', installment: 6 };
    const { result, questions } = await run({ method: 'credit_card', payer: PAYER, total_price_cents: 1990, card }, [
      input(/first name/, 'Fulano'),
      input(/last name/, 'de Tal'),
      password(/^Security code$/, '9876'),
      CREATE,
    ]);
    expect(questions).toEqual(['input: Cardholder first name', 'input: Cardholder last name', 'password: Security code', 'select: Create this charge?']);
    expect(result.card).toStrictEqual({ ...card, first_name: 'Fulano', last_name: 'de Tal', security_code: '9876' });
  });

  it('asks nothing about a card given by token', async () => {
    const card = { token: 'tok_4f2a9c' };
    const { result, questions } = await run({ method: 'credit_card', payer: PAYER, items: ITEMS, total_price_cents: 1990, card }, [CREATE]);
    expect(questions).toEqual(['select: Create this charge?']);
    expect(result.card).toStrictEqual(card);
  });

  it('throws CancelledError (exit 130) when the charge is not confirmed', async () => {
    const fake = scripted([select(/^Create this charge\?$/, 'Cancel')]);
    const flow = promptInvoice({ method: 'pix', payer: PAYER, total_price_cents: 1990 }, fake.prompter, { now: NOW, renderSummary: summary, write: () => {} });
    await expect(flow).rejects.toThrow(CancelledError);
    await expect(flow).rejects.toMatchObject({ message: 'charge not created: nothing was sent', exitCode: EXIT.cancelled });
    await expect(flow).rejects.toBeInstanceOf(CliError);
  });

  it('stops asking for items at 100', async () => {
    const item = (n: number) => [input(new RegExp(`^Item ${n} name$`), `Item ${n}`), input(/quantity/, null), input(/unit price/, '1,00')];
    const steps = Array.from({ length: 100 }, (_, i) => [...item(i + 1), ...(i < 99 ? [confirm(/^Add another item\?$/, true)] : [])]).flat();
    const { result, writes } = await run({ method: 'pix', payer: PAYER }, [...steps, CREATE]);
    expect(result.items).toHaveLength(100);
    expect(result.total_price_cents).toBe(10_000);
    expect(writes[0]).toMatch(/100 items, the most one charge can hold/);
  });

  it('keeps the items total within R$ 1.000.000,00', async () => {
    const { result } = await run({ method: 'pix', payer: PAYER }, [
      input(/^Item 1 name$/, 'Lote'),
      input(/quantity/, '2', [['0', /whole number from 1 to 1000000/]]),
      input(/unit price/, '500.000,00', [['500.000,01', /^The charge would exceed R\$ 1\.000\.000,00: R\$ 1\.000\.000,00 left for this item\.$/]]),
      CREATE,
    ]);
    expect(result.total_price_cents).toBe(100_000_000);
  });

  it.each<[string, PartialCreate, RegExp]>([
    ['a wrong CPF', { method: 'pix', payer: { ...PAYER, cpf_cnpj: '529.982.247-24' } }, /payer\.cpf_cnpj: is not a valid CPF: the check digits do not match/],
    ['an unknown method', { method: 'cash' as 'pix', payer: PAYER, total_price_cents: 1990 }, /method: must be one of pix, credit_card, boleto/],
    ['items that do not add up to the total', { method: 'pix', payer: PAYER, items: ITEMS, total_price_cents: 1000 }, /total_price_cents: must equal the sum/],
    ['an expired card', { method: 'credit_card', payer: PAYER, total_price_cents: 1990, card: { ...CARD, year: '2025' } }, /card\.year: the card has expired/],
  ])('fails on %s from the file before asking anything', async (_name, partial, message) => {
    const fake = scripted([]);
    const flow = promptInvoice(partial, fake.prompter, { now: NOW, renderSummary: summary, write: () => {} });
    await expect(flow).rejects.toThrow(message);
    await expect(flow).rejects.toMatchObject({ exitCode: EXIT.usage });
    expect(fake.asked).toEqual([]);
  });
});

// ---- Changing answers from the summary -----------------------------------------------------------

const SEND = select(/^Create this charge\?$/, 'Send this charge');
const choose = (entry: string) => select(/^Create this charge\?$/, entry);
/** The entries offered under the summary the n-th time it was shown. */
const entriesAt = (asked: Asked[], n = 0) => asked.filter((q) => q.message === 'Create this charge?')[n]?.choices?.map((c) => c.name);
const PIX = { method: 'pix' as const, payer: PAYER, items: ITEMS, total_price_cents: 1990 };

describe('the summary: send, change an answer, or cancel', () => {
  it('offers one entry per field asked or set, between "Send this charge" and "Cancel"', async () => {
    const pix = await run(PIX, [SEND]);
    expect(entriesAt(pix.asked)).toEqual([
      'Send this charge', 'Edit payment method', 'Edit items', 'Edit payer name', 'Edit payer e-mail', 'Edit payer CPF or CNPJ',
      'Edit postback URL', 'Edit external id', 'Cancel',
    ]);
    const card = await run({ ...PIX, method: 'credit_card', items: undefined, card: CARD, payer: { ...PAYER, phone: '11999998888' }, ip_payer: '10.0.0.1' }, [SEND]);
    expect(entriesAt(card.asked)).toEqual([
      'Send this charge', 'Edit payment method', 'Edit amount', 'Edit payer name', 'Edit payer e-mail', 'Edit payer CPF or CNPJ', 'Edit payer phone',
      'Edit card', 'Edit installments', 'Edit postback URL', 'Edit external id', 'Edit payer IP address', 'Cancel',
    ]);
    expect(entriesAt((await run({ ...PIX, method: 'boleto', payer: { ...PAYER, ...ADDRESS } }, [SEND])).asked)).toContain('Edit payer address');
    expect(entriesAt((await run({ ...PIX, method: 'credit_card', card: { token: 'tok_1' } }, [SEND])).asked)).toContain('Edit card token');
  });

  it('asks a field again with its current value as the default, checks it inline, then shows the summary again', async () => {
    const { result, asked, writes } = await run(PIX, [
      choose('Edit payer e-mail'),
      input(/^Payer e-mail$/, 'beltrana@example.com', [['beltrana', /e-mail address/]]),
      SEND,
    ]);
    expect(asked[1]).toMatchObject({ kind: 'input', default: 'fulano@example.com' });
    expect(result).toStrictEqual({ ...PIX, payer: { ...PAYER, email: 'beltrana@example.com' } });
    expect(writes).toEqual(['SUMMARY pix 1990', 'SUMMARY pix 1990']);
  });

  it('Enter keeps the current answer', async () => {
    const { result } = await run(PIX, [choose('Edit payer name'), input(/^Payer name$/, null), SEND]);
    expect(result).toStrictEqual(PIX);
  });

  it('pix to boleto asks the address; back to pix drops what was asked for the boleto', async () => {
    const { result, writes } = await run(PIX, [
      choose('Edit payment method'),
      select(/^Payment method$/, 'boleto'),
      input(/^Payer CEP$/, '01310100'), input(/^Street$/, 'Avenida Paulista'), input(/^Street number$/, '1000'), input(/^City$/, 'São Paulo'), input(/^State/, 'sp'),
      choose('Edit payment method'),
      select(/^Payment method$/, 'pix'),
      SEND,
    ]);
    expect(writes).toEqual(['SUMMARY pix 1990', 'SUMMARY boleto 1990', 'SUMMARY pix 1990']);
    expect(result).toStrictEqual(PIX);
  });

  it('a change of method keeps what --file and the flags gave', async () => {
    const given = { ...PIX, method: 'boleto' as const, payer: { ...PAYER, ...ADDRESS } };
    const { result } = await run(given, [choose('Edit payment method'), select(/^Payment method$/, 'pix'), SEND]);
    expect(result).toStrictEqual({ ...given, method: 'pix' });
  });

  it('pix to card asks the card and installments; card to pix drops the card', async () => {
    const toCard = await run(PIX, [
      choose('Edit payment method'),
      select(/^Payment method$/, 'credit_card'),
      input(/^Card number$/, CARD.number), input(/first name/, 'Fulano'), input(/last name/, 'de Tal'), input(/month/, '11'), input(/year/, '2027'),
      password(/^Security code$/, '123'),
      select(/^Installments$/, '4'),
      SEND,
    ]);
    expect(toCard.result).toStrictEqual({ ...PIX, method: 'credit_card', card: { ...CARD, installment: 4 } });
    const toPix = await run({ ...PIX, method: 'credit_card' }, [
      ...[CARD.number, 'Fulano', 'de Tal', '11', '2027'].map((answer) => input(/./, answer)),
      password(/^Security code$/, '123'),
      select(/^Installments$/, null),
      choose('Edit payment method'),
      select(/^Payment method$/, 'pix'),
      SEND,
    ]);
    expect(toPix.result).toStrictEqual(PIX);
  });

  it('asks the card again without showing its number or code: Enter keeps them', async () => {
    const { result, asked } = await run({ ...PIX, method: 'credit_card', card: { ...CARD, installment: 2 } }, [
      choose('Edit card'),
      input(/^Card number \(Enter keeps •••• 1111\)$/, ''),
      input(/first name/, null), input(/last name/, 'Silva'), input(/month/, null), input(/year/, null),
      password(/^Security code \(Enter keeps the one given\)$/, ''),
      choose('Edit installments'),
      select(/^Installments$/, '6'),
      SEND,
    ]);
    expect(asked.find((q) => q.message.startsWith('Card number'))?.default).toBeUndefined();
    expect(asked.find((q) => q.message === 'Installments')?.default).toBe('2');
    expect(result.card).toStrictEqual({ ...CARD, last_name: 'Silva', installment: 6 });
  });

  it('asks the items again, each given one the default; "no" to the next drops it and those after', async () => {
    const items = [...ITEMS, { name: 'Meia', quantity: 2, unit_price: 500 }, { name: 'Boné', quantity: 1, unit_price: 3000 }];
    const { result, asked } = await run({ ...PIX, items, total_price_cents: 5990 }, [
      choose('Edit items'),
      input(/^Item 1 name$/, null), input(/^Item 1 quantity$/, '3'), input(/^Item 1 unit price/, null),
      confirm(/^Keep item 2 \(Meia\)\?/, true),
      input(/^Item 2 name$/, null), input(/^Item 2 quantity$/, null), input(/^Item 2 unit price/, '4,50'),
      confirm(/^Keep item 3 \(Boné\)\?/, false),
      SEND,
    ]);
    expect(asked.filter((q) => /^Item 1/.test(q.message)).map((q) => q.default)).toEqual(['Camiseta', '1', '19,90']);
    expect(result.items).toStrictEqual([{ name: 'Camiseta', quantity: 3, unit_price: 1990 }, { name: 'Meia', quantity: 2, unit_price: 450 }]);
    expect(result.total_price_cents).toBe(6870);
  });

  it('changes an amount given without items', async () => {
    const { result, asked } = await run({ method: 'pix', payer: PAYER, total_price_cents: 1990 }, [
      choose('Edit amount'),
      input(/^Amount/, '25,00', [['12,345', /ambiguous/]]),
      SEND,
    ]);
    expect(asked[1]?.default).toBe('19,90');
    expect(result.total_price_cents).toBe(2500);
  });

  it('sets, then removes with "-", an optional field', async () => {
    const { result } = await run(PIX, [
      choose('Edit postback URL'),
      input(/^Postback URL$/, 'https://shop.example/hook', [['shop.example/hook', /absolute http/]]),
      choose('Edit external id'),
      input(/^External id/, 'pedido-1042'),
      choose('Edit postback URL'),
      input(/^Postback URL \(- removes it\)$/, '-'),
      SEND,
    ]);
    expect(result).toStrictEqual({ ...PIX, external_id: 'pedido-1042' });
  });
});

// ---- Validators ---------------------------------------------------------------------------------

const cases: [string, Validate, string[], [string, RegExp][]][] = [
  ['validateRequired', validateRequired, ['Fulano', ' x ', 'a'.repeat(255)], [['', /^Enter a value\.$/], ['   ', /^Enter a value\.$/], ['a'.repeat(256), /^Use at most 255 characters\.$/], ['Fulano\u001b[2J', /^It must not contain control characters \(U\+001B at position 7\)\.$/]]],
  ['validateEmail', validateEmail, ['fulano@example.com', ' a@b.co '], [['fulano', /^Enter an e-mail address, like name@example\.com\.$/], ['a@b', /e-mail address/], ['', /e-mail address/]]],
  ['validateDocument', validateDocument, ['529.982.247-25', '52998224725', '11.222.333/0001-81', '11222333000181', '12.ABC.345/01DE-35', '12abc34501de35'], [
    ['529.982.247-24', /^Not a valid CPF: the check digits do not match\.$/],
    ['111.111.111-11', /^Not a valid CPF/],
    ['000.000.000-00', /^Not a valid CPF: all its digits are equal \(a placeholder, not a real document\)\.$/],
    ['11.222.333/0001-82', /^Not a valid CNPJ: the check digits do not match\.$/],
    ['123', /^Enter a CPF \(11 digits\) or a CNPJ \(14 characters\); punctuation is allowed\.$/],
    ['', /^Enter a CPF/],
  ]],
  ['validateAmount', validateAmount, ['12,50', '12.50', 'R$ 1.234,56', '1,234.56', '1234,56', '1,5', '123.456,78', '12', '0,01', 'R$ 1.000.000,00'], [
    ['0', /^Enter at least R\$ 0,01\.$/],
    ['0,00', /^Enter at least R\$ 0,01\.$/],
    ['1.000.000,01', /^Enter at most R\$ 1\.000\.000,00\.$/],
    ['abc', /^"abc" is not an amount \(examples: 12,50 or 1\.234,56\)\.$/],
    ['-5', /^"-5" is negative/],
    ['1.2.3', /groups its thousands wrong/],
    ['12,345', /^"12,345" is ambiguous: .*; write 12,35 or 12\.345,00\.$/],
    ['1.234', /is ambiguous/],
    ['1,234', /is ambiguous/],
    ['0,999', /^"0,999" has 3 decimal places; centavos take at most 2: write 1,00\.$/],
    ['1.23,45', /groups its thousands wrong/],
    ['12.34.56', /groups its thousands wrong/],
  ]],
  ['validateQuantity', validateQuantity, ['1', '3', ' 12 ', '1000000'], [['0', /^Enter a whole number from 1 to 1000000\.$/], ['1.5', /whole number/], ['-1', /whole number/], ['', /whole number/], ['1000001', /whole number/]]],
  ['validateCardNumber', validateCardNumber, ['4111 1111 1111 1111', '4111-1111-1111-1111', '5555555555554444', '378282246310005'], [
    ['4111 1111 1111 1112', /^Not a valid card number: the check digit does not match \(Luhn\)\.$/],
    ['4111', /^Enter the 12 to 19 digits of the card number\.$/],
    ['4111 1111 abcd 1111', /12 to 19 digits/],
  ]],
  ['validateMonth', validateMonth, ['1', '01', '9', '12', ' 7 '], [['0', /^Enter a month from 1 to 12\.$/], ['13', /month/], ['00', /month/], ['ab', /month/], ['', /month/]]],
  ['validateYear(now)', validateYear(NOW), ['26', '2026', '2030', '99', ' 27 '], [
    ['2025', /^The year 2025 has passed\.$/],
    ['25', /^The year 2025 has passed\.$/],
    ['202', /^Enter the year as YY or YYYY, like 29 or 2029\.$/],
    ['ab', /YY or YYYY/],
  ]],
  ['validateYear(now, "11")', validateYear(NOW, '11'), ['2026', '26'], [['2025', /has passed/]]],
  ['validateYear(now, "10")', validateYear(NOW, '10'), ['2027', '27'], [['2026', /^The card has expired\.$/], ['26', /expired/]]],
  ['validateSecurityCode', validateSecurityCode, ['123', '1234', '007'], [['12', /^Enter the 3 or 4 digits of the security code\.$/], ['12345', /3 or 4/], ['abc', /3 or 4/]]],
  ['validateCep', validateCep, ['01310-100', '01310100', '01.310-100', ' 01310 100 '], [['1310-100', /^Enter a CEP of 8 digits, like 01310-100\.$/], ['0131010a', /8 digits/], ['', /8 digits/]]],
  ['validateUf', validateUf, ['SP', 'sp', ' RJ '], [['S', /^Enter the two-letter state code \(UF\), like SP\.$/], ['SPA', /UF/], ['S1', /UF/], ['', /UF/]]],
  ['validateUrl', validateUrl, ['', 'https://shop.example/hook', 'http://shop.example:8080/x?y=1'], [
    ['ftp://shop.example/hook', /^Enter an absolute http or https URL, or leave it empty\.$/],
    ['shop.example/hook', /absolute http/],
    ['/hook', /absolute http/],
  ]],
];

describe.each(cases)('%s', (_name, validate, good, bad) => {
  it.each(good)('accepts %j', (value) => expect(validate(value)).toBe(true));
  it.each(bad)('refuses %j', (value, reason) => expect(validate(value)).toMatch(reason));
});

describe('validateAmount and the amount flags', () => {
  // Typed amounts: mostly well-formed, many ambiguous, some out of range.
  const typed = fc.oneof(fc.stringMatching(/^(R\$ ?)?\d{1,8}([.,]\d{3}){0,2}([.,]\d{1,4})?$/), fc.string({ maxLength: 12 }));

  it('accept and refuse the same text, for the same reason, as parseAmount', () => {
    fc.assert(fc.property(typed, (text) => {
      let reason: string | undefined;
      try {
        reason = amountRangeProblem(parseAmount(text)) && `Enter ${amountRangeProblem(parseAmount(text))}.`;
      } catch (error) {
        reason = `${(error as Error).message}.`;
      }
      expect(validateAmount(text)).toBe(reason ?? true);
    }), { numRuns: 2000 });
  });

  it('accept exactly what --amount accepts', () => {
    fc.assert(fc.property(typed, (text) => {
      const flagAccepts = (() => {
        try {
          return amountFlag(text, '--amount') >= 0;
        } catch (error) {
          expect(error).toMatchObject({ exitCode: EXIT.usage, message: expect.stringMatching(/^--amount: /) });
          return false;
        }
      })();
      expect(validateAmount(text) === true).toBe(flagAccepts);
    }), { numRuns: 2000 });
  });
});

// ---- missingFields ------------------------------------------------------------------------------

describe('missingFields', () => {
  it.each<[string, PartialCreate, string[]]>([
    ['nothing', {}, ['method', 'payer.name', 'payer.email', 'payer.cpf_cnpj', 'total_price_cents']],
    ['a complete pix', { method: 'pix', payer: PAYER, items: ITEMS, total_price_cents: 1990 }, []],
    ['a pix with a total and no items', { method: 'pix', payer: PAYER, total_price_cents: 1990 }, []],
    ['a pix with items and no total', { method: 'pix', payer: PAYER, items: ITEMS }, []],
    ['a pix without e-mail, with a blank name', { method: 'pix', payer: { ...PAYER, name: '  ', email: undefined }, items: ITEMS }, ['payer.name', 'payer.email']],
    ['a boleto without address', { method: 'boleto', payer: PAYER, total_price_cents: 1990 }, ['payer.address_zip', 'payer.address_line', 'payer.address_number', 'payer.address_city', 'payer.address_state']],
    ['a boleto without city and state', { method: 'boleto', payer: { ...PAYER, ...ADDRESS, address_city: '', address_state: undefined }, total_price_cents: 1990 }, ['payer.address_city', 'payer.address_state']],
    ['a complete boleto (no complement needed)', { method: 'boleto', payer: { ...PAYER, ...ADDRESS }, total_price_cents: 1990 }, []],
    ['a card charge without card', { method: 'credit_card', payer: PAYER, total_price_cents: 1990 }, ['card']],
    ['a card with installments only', { method: 'credit_card', payer: PAYER, total_price_cents: 1990, card: { installment: 3 } }, ['card.number', 'card.first_name', 'card.last_name', 'card.month', 'card.year', 'card.security_code']],
    ['a card without security code', { method: 'credit_card', payer: PAYER, total_price_cents: 1990, card: { ...CARD, security_code: undefined } }, ['card.security_code']],
    ['a card by token', { method: 'credit_card', payer: PAYER, total_price_cents: 1990, card: { token: 'tok_1' } }, []],
    ['a complete card', { method: 'credit_card', payer: PAYER, total_price_cents: 1990, card: CARD }, []],
    ['no method: neither address nor card yet', { payer: PAYER, card: {} }, ['method', 'total_price_cents']],
  ])('%s', (_name, partial, expected) => expect(missingFields(partial)).toEqual(expected));
});

// ---- missingFields and promptInvoice agree; the result is always valid ---------------------------

/** A valid answer per question, and the JSON path the question fills (null: not a field). */
const AUTO: [RegExp, string | boolean, string | null][] = [
  [/^Payer name$/, 'Beltrana', 'payer.name'],
  [/^Payer e-mail$/, 'beltrana@example.com', 'payer.email'],
  [/^Payer CPF or CNPJ$/, '11222333000181', 'payer.cpf_cnpj'],
  [/^Payer CEP$/, '01310100', 'payer.address_zip'],
  [/^Street$/, 'Rua Augusta', 'payer.address_line'],
  [/^Street number$/, '12', 'payer.address_number'],
  [/^City$/, 'São Paulo', 'payer.address_city'],
  [/^State \(UF\)$/, 'rj', 'payer.address_state'],
  [/^Card number$/, '5555 5555 5555 4444', 'card.number'],
  [/^Cardholder first name$/, 'Beltrana', 'card.first_name'],
  [/^Cardholder last name$/, 'Silva', 'card.last_name'],
  [/^Expiry month/, '12', 'card.month'],
  [/^Expiry year/, '30', 'card.year'],
  [/^Security code$/, '321', 'card.security_code'],
  [/^Item \d+ (name|quantity|unit price)/, '3', 'total_price_cents'],
  [/^(Add another item\?|Installments|Create this charge\?)$/, true, null],
];

function autoPrompter(method: string) {
  const paths = new Set<string>();
  const answer = (message: string) => {
    if (message === 'Payment method') return (paths.add('method'), method);
    const row = AUTO.find(([pattern]) => pattern.test(message));
    if (!row) throw new Error(`unexpected question "${message}"`);
    if (row[2]) paths.add(row[2]);
    return message === 'Add another item?' ? false : row[1];
  };
  const text = (o: { message: string; validate?: Validate }) => {
    const value = String(answer(o.message));
    expect(o.validate?.(value) ?? true).toBe(true);
    return Promise.resolve(value);
  };
  const prompter: Prompter = {
    input: text,
    password: text,
    select: (o) => Promise.resolve(answer(o.message) === true ? o.choices[0]!.value : (answer(o.message) as never)),
    confirm: (o) => Promise.resolve(answer(o.message) as boolean),
  };
  return { prompter, paths };
}

const COMPLETE: Record<string, Record<string, any>> = {
  pix: { method: 'pix', payer: { ...PAYER, phone: '+5511999998888' }, items: ITEMS, total_price_cents: 1990, postback_url: 'https://shop.example/hook' },
  boleto: { method: 'boleto', payer: { ...PAYER, ...ADDRESS, address_complement: 'sala 4' }, items: ITEMS, total_price_cents: 1990 },
  credit_card: { method: 'credit_card', payer: PAYER, items: ITEMS, total_price_cents: 1990, card: { ...CARD, installment: 2 } },
};
const REMOVABLE = ['method', 'items', 'total_price_cents', 'card', ...Object.keys({ ...PAYER, ...ADDRESS }).map((f) => `payer.${f}`), ...Object.keys(CARD).map((f) => `card.${f}`)];

function without(request: Record<string, any>, paths: string[]): PartialCreate {
  const copy = structuredClone(request);
  for (const path of paths) {
    const [head, field] = path.split('.') as [string, string?];
    if (field === undefined) delete copy[head];
    else if (copy[head]) delete copy[head][field];
  }
  return copy;
}

describe('promptInvoice with any part of a valid charge missing', () => {
  it('asks exactly the missingFields and returns a valid request holding every given value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('pix', 'boleto', 'credit_card'), fc.subarray(REMOVABLE), async (method, removed) => {
        const partial = without(COMPLETE[method]!, removed);
        const { prompter, paths } = autoPrompter(method);
        const result = await promptInvoice(partial, prompter, { now: NOW, renderSummary: summary, write: () => {} });
        expect(validateCreateRequest(result, NOW)).toMatchObject({ ok: true });
        expect(result).toMatchObject(partial);
        const cardPaths = Object.keys(CARD).map((f) => `card.${f}`);
        const expected = missingFields({ ...partial, method: method as 'pix' }).flatMap((p) => (p === 'card' ? cardPaths : [p]));
        if (partial.method === undefined) expected.unshift('method');
        expect([...paths].sort()).toEqual(expected.sort());
      }),
      { numRuns: 200 },
    );
  });
});

// ---- The inquirer adapter -----------------------------------------------------------------------

describe('inquirerPrompter', () => {
  beforeEach(() => Object.values(inquirer).forEach((fn) => fn.mockReset()));

  it('hands each question to @inquirer/prompts as is', async () => {
    inquirer.input.mockResolvedValue('Fulano');
    inquirer.select.mockResolvedValue('boleto');
    inquirer.confirm.mockResolvedValue(true);
    inquirer.password.mockResolvedValue('123');
    const prompter = await inquirerPrompter();
    const validate = () => true as const;
    const choices = [{ name: 'Boleto', value: 'boleto' }];
    expect(await prompter.input({ message: 'Payer name', default: 'x', validate })).toBe('Fulano');
    expect(await prompter.select({ message: 'Payment method', choices, default: 'boleto' })).toBe('boleto');
    expect(await prompter.confirm({ message: 'Create this charge?', default: true })).toBe(true);
    expect(await prompter.password({ message: 'Security code', mask: '*', validate })).toBe('123');
    // drawn on stderr: stdout carries data only (`invoice create --json > out.json` on a terminal)
    const stderr = { output: process.stderr };
    expect(inquirer.input).toHaveBeenCalledWith({ message: 'Payer name', default: 'x', validate }, stderr);
    expect(inquirer.select).toHaveBeenCalledWith({ message: 'Payment method', choices, default: 'boleto' }, stderr);
    expect(inquirer.confirm).toHaveBeenCalledWith({ message: 'Create this charge?', default: true }, stderr);
    expect(inquirer.password).toHaveBeenCalledWith({ message: 'Security code', mask: '*', validate }, stderr);
  });

  it('turns Ctrl-C (ExitPromptError) into a CancelledError and lets other errors through', async () => {
    const ctrlC = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    inquirer.input.mockRejectedValue(ctrlC);
    inquirer.confirm.mockRejectedValue(new TypeError('boom'));
    const prompter = await inquirerPrompter();
    await expect(prompter.input({ message: 'Payer name' })).rejects.toMatchObject({ name: 'CancelledError', exitCode: EXIT.cancelled });
    await expect(prompter.confirm({ message: 'Create this charge?' })).rejects.toThrow(TypeError);
  });
});
