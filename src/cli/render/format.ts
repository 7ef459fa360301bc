// Value formatting shared by every renderer. Pure but for times, shown in the zone the output path chose (time.ts).
import type { Cents } from '../../client/read/values.js';
import { formatDocument } from '../../domain/document.js';
import { formatBRL } from '../../domain/money.js';
import { localTime } from './time.js';

export const DASH = '—';

/** 123456 -> "R$ 1.234,56". */
export function money(cents: number): string {
  return formatBRL(cents);
}

/**
 * An amount a gateway sent: whole cents as money; anything else (19.9, "19,90": reais or cents?) as sent,
 * said to be so, never guessed; nothing as "—".
 */
export function amount(value: Cents | undefined): string {
  if (value === undefined) return DASH;
  return typeof value === 'number' ? formatBRL(value) : `${value.asSent} (as sent; not whole cents)`;
}

/** A signed amount for ledgers: credits get an explicit plus so they read differently from debits. */
export function signedMoney(cents: number): string {
  return cents > 0 ? `+${formatBRL(cents)}` : formatBRL(cents);
}

/**
 * "2026-11-22T15:03:58.123456Z", "2026-11-22T12:03:58-03:00" or PHP's "2026-11-22 15:03:58" -> the time
 * in the reader's zone ("2026-11-22 12:03:58 -03:00"; "2026-11-22 15:03:58 UTC" with --utc); null or
 * nothing -> "—"; any other text is shown as given.
 */
export function dateTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso.trim() === '') return DASH;
  return localTime(iso) ?? iso;
}

/** ISO 8601 timestamps inside a text (a timeline note's "not paid by 2026-…Z"), each shown as dateTime shows it. */
export function timesIn(text: string): string {
  return text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})/g, (match) => localTime(match) ?? match);
}

/** A CPF or CNPJ with its punctuation; anything that is not a valid one is shown unchanged. */
export function document(number: string): string {
  return formatDocument(number);
}

/** 0.99 -> "0,99 %". Rounding to two places first keeps binary tails out: 0.1 + 0.2 prints "0,30 %". */
export function percent(value: number): string {
  if (!Number.isFinite(value)) return `${value} %`;
  return `${value.toFixed(2).replace('.', ',')} %`;
}

export function orDash(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  const text = String(value);
  return text.trim() === '' ? DASH : text;
}

export function yesNo(value: boolean | undefined): string {
  return value === undefined ? DASH : value ? 'yes' : 'no';
}

/** "01310100" -> "01310-100"; other text is returned as given. */
export function zipCode(zip: string): string {
  const digits = zip.replace(/\D/g, '');
  return digits.length === 8 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : zip;
}
