// Card rules that need no network: the shapes of a card's fields, Luhn, expiry. The API's validation
// and the prompts both read them from here, so a prompted answer is never refused later.

/** A card number once its spaces and dashes are gone. */
export const CARD_DIGITS = /^\d{12,19}$/;
/** The expiry month: 1 to 12, with or without a leading zero. */
export const EXPIRY_MONTH = /^(0?[1-9]|1[0-2])$/;
/** The expiry year: YY or YYYY. */
export const EXPIRY_YEAR = /^(\d{2}|\d{4})$/;
export const SECURITY_CODE = /^\d{3,4}$/;

/** "27" -> 2027, "2027" -> 2027. */
export function fullYear(year: string): number {
  return year.length === 2 ? 2000 + Number(year) : Number(year);
}

/** The Luhn (mod 10) check of a card number given as digits. */
export function passesLuhn(digits: string): boolean {
  if (!CARD_DIGITS.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Card numbers are often typed with spaces or dashes. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** month "1".."12", year "27" or "2027"; a card is valid through the last day of its month. */
export function isExpired(month: string, year: string, now: Date): boolean {
  const m = Number(month);
  const y = fullYear(year);
  if (!Number.isInteger(m) || m < 1 || m > 12 || !Number.isInteger(y)) return true;
  const nowMonths = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return y * 12 + (m - 1) < nowMonths;
}
