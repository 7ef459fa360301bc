// Money is always an integer number of cents; these helpers never do floating-point arithmetic on amounts.

export class AmountError extends Error {}

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

/**
 * Parses an amount typed by a person: "12,50", "12.50", "R$ 1.234,56", "1,234.56", "12".
 * The last separator followed by one or two digits is the decimal one; other separators group thousands.
 */
export function parseAmount(text: string): number {
  const cleaned = text.trim().replace(/^R\$\s*/i, '').replace(/\s/g, '');
  const match = /^(\d{1,3}(?:[.,]\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(cleaned);
  if (!match) throw new AmountError(`"${text}" is not an amount (examples: 12,50 or 12.50)`);
  const whole = (match[1] ?? '').replace(/[.,]/g, '');
  const fraction = (match[2] ?? '').padEnd(2, '0');
  const cents = Number(whole) * 100 + Number(fraction);
  if (!Number.isSafeInteger(cents)) throw new AmountError(`"${text}" is too large`);
  return cents;
}

export function sumCents(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
