// Money is always an integer number of cents; these helpers never do floating-point arithmetic on amounts.

export class AmountError extends Error {}

/** The least and the most one charge, one unit price or one refund can be: R$ 0,01 and R$ 1.000.000,00. */
export const MIN_CENTS = 1;
export const MAX_CENTS = 100_000_000;

export function isCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** 123456 -> "R$ 1.234,56"; negative amounts get a leading minus. */
export function formatBRL(cents: number): string {
  if (!isCents(cents)) throw new AmountError(`not an amount in cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const reais = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const centavos = String(abs % 100).padStart(2, '0');
  return `${sign}R$ ${reais},${centavos}`;
}

/** 1250 -> "12.50", the decimal form used inside pix codes and JSON examples. */
export function centsToDecimal(cents: number): string {
  if (!isCents(cents) || cents < 0) throw new AmountError(`not a non-negative amount in cents: ${cents}`);
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "at most R$ 1.000.000,00" when `cents` is outside MIN_CENTS..MAX_CENTS, in reais; undefined when it fits. */
export function amountRangeProblem(cents: number): string | undefined {
  if (cents < MIN_CENTS) return `at least ${formatBRL(MIN_CENTS)}`;
  if (cents > MAX_CENTS) return `at most ${formatBRL(MAX_CENTS)}`;
  return undefined;
}

// How parseAmount reads what a person types (docs/charges.md's "Typing amounts" holds the same table).
// A wrong reading charges a thousand times too much or too little, so nothing ambiguous is guessed:
// - "R$" in front and spaces around are ignored; ASCII digits only; no sign.
// - "." and "," both present: the last one separates the centavos, the other groups thousands
//   (1.234,56 and 1,234.56). A mark used twice or more only groups thousands (1.234.567).
// - One mark, once: before 1 or 2 digits it separates the centavos (12,5 12.50 1234,56); before
//   3 digits it could be either (1,234 12.345): refused; before 4 or more, too many decimals.
// - At most 2 decimals; thousands groups have 3 digits after a first group of 1 to 3 (1.23,45: refused).
// - A space may group thousands (1 234,56), never separate the centavos.
const EXAMPLES = 'examples: 12,50 or 1.234,56';
const FIRST_GROUP = /^[1-9]\d{0,2}$/;

// Quoted like JSON, control characters escaped: the text goes back to a terminal.
const quote = (text: string) => JSON.stringify(text).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const refuse = (text: string, why: string) => new AmountError(`${quote(text)} ${why}`);
/** 123456 -> "1.234,56", a suggestion everyone reads the same way. */
const plain = (cents: number) => formatBRL(cents).slice(3);

/** Whether the last mark separates the centavos; throws when it is a guess. */
function lastMarkIsDecimal(text: string, marks: string[], runs: string[]): boolean {
  const last = marks.at(-1);
  const before = marks.slice(0, -1);
  if (last === undefined || last === ' ' || before.includes(last)) return false;
  if (before.length > 0) return true;
  const [whole = '', fraction = ''] = runs;
  if (fraction.length !== 3 || !FIRST_GROUP.test(whole)) return true;
  const value = Number(whole) * 1000 + Number(fraction);
  throw refuse(text, `is ambiguous: a "${last}" before three digits may mark the centavos or the thousands; write ${plain(Math.round(value / 10))} or ${plain(value * 100)}`);
}

function checkGroups(text: string, marks: string[], groups: string[]): void {
  if (marks.length === 0) return;
  if (new Set(marks).size > 1) throw refuse(text, `mixes ${[...new Set(marks)].map((m) => (m === ' ' ? 'space' : `"${m}"`)).join(' and ')} between thousands (${EXAMPLES})`);
  if (!FIRST_GROUP.test(groups[0] ?? '') || groups.slice(1).some((group) => group.length !== 3)) {
    throw refuse(text, 'groups its thousands wrong (three digits each): write like 1.234.567,89 or 1234567,89');
  }
}

/** An amount typed in reais -> cents, by the rules above; an AmountError says why it was refused. */
export function parseAmount(text: string): number {
  const body = text.trim().replace(/^R\$\s*/i, '');
  if (/^[-−]/.test(body)) throw refuse(text, `is negative: type the amount without a sign (${EXAMPLES})`);
  if (!/^\d+(?:[.,\s]\d+)*$/.test(body)) throw refuse(text, `is not an amount (${EXAMPLES})`);
  const marks = (body.match(/[.,\s]/g) ?? []).map((m) => (/\s/.test(m) ? ' ' : m));
  const groups = body.split(/[.,\s]/);
  const decimal = lastMarkIsDecimal(text, marks, groups);
  const fraction = decimal ? (groups.pop() ?? '') : '';
  checkGroups(text, decimal ? marks.slice(0, -1) : marks, groups);
  // Rounded only to suggest what to type instead: more than 2 decimals is refused below.
  const centavos = Number(fraction.slice(0, 2).padEnd(2, '0')) + (Number(fraction[2] ?? 0) >= 5 ? 1 : 0);
  const cents = Number(groups.join('')) * 100 + centavos;
  if (!Number.isSafeInteger(cents)) throw refuse(text, 'is too large');
  if (fraction.length > 2) throw refuse(text, `has ${fraction.length} decimal places; centavos take at most 2: write ${plain(cents)}`);
  return cents;
}

export function sumCents(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
