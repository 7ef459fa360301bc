// The prompts' validators: `true`, or the message inquirer shows under the question. Each is built
// from the rule src/api/validate.ts applies (the schemas' limits; the domain's card, address, document
// and money rules), so an answer the prompt accepts is never refused when the charge is sent.
import { CreateInvoiceRequest, MAX_QUANTITY, MAX_TEXT, Payer, RequestItem } from '../../api/schemas.js';
import { CEP, UF } from '../../domain/address.js';
import { CARD_DIGITS, EXPIRY_MONTH, EXPIRY_YEAR, fullYear, isExpired, normalizeCardNumber, passesLuhn, SECURITY_CODE } from '../../domain/card.js';
import { documentProblem } from '../../domain/document.js';
import { controlCharacterProblem } from '../../domain/text.js';
import { AmountError, amountRangeProblem, formatBRL, MAX_CENTS, parseAmount } from '../../domain/money.js';
import type { Validate } from './prompter.js';

export const filled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

export const validateRequired: Validate = (v) => {
  if (!filled(v)) return 'Enter a value.';
  if (v.trim().length > MAX_TEXT) return `Use at most ${MAX_TEXT} characters.`;
  const problem = controlCharacterProblem(v.trim());
  return problem === undefined || `It ${problem}.`;
};
export const validateEmail: Validate = (v) => Payer.shape.email.safeParse(v.trim()).success || 'Enter an e-mail address, like name@example.com.';
/** Digits only (no "1e3"), no longer than the largest quantity, then the item schema's own bounds. */
export const validateQuantity: Validate = (v) => {
  const text = v.trim();
  const digits = /^\d+$/.test(text) && text.length <= String(MAX_QUANTITY).length;
  return (digits && RequestItem.shape.quantity.safeParse(Number(text)).success) || `Enter a whole number from 1 to ${MAX_QUANTITY}.`;
};
export const validateMonth: Validate = (v) => EXPIRY_MONTH.test(v.trim()) || 'Enter a month from 1 to 12.';
export const validateSecurityCode: Validate = (v) => SECURITY_CODE.test(v.trim()) || 'Enter the 3 or 4 digits of the security code.';
/** Dots and spaces are let in too (01.310 100): the answer is cleaned to 01310-100 before it is sent. */
export const validateCep: Validate = (v) => CEP.test(v.replace(/[.\-\s]/g, '')) || 'Enter a CEP of 8 digits, like 01310-100.';
export const validateUf: Validate = (v) => UF.test(v.trim()) || 'Enter the two-letter state code (UF), like SP.';
const urlSchema = CreateInvoiceRequest.shape.postback_url;
export const validateUrl: Validate = (v) => urlSchema.safeParse(v.trim()).success || 'Enter an absolute http or https URL, or leave it empty.';

export const validateDocument: Validate = (v) => {
  const problem = documentProblem(v);
  if (problem === null) return true;
  if (problem.reason === 'shape') return 'Enter a CPF (11 digits) or a CNPJ (14 characters); punctuation is allowed.';
  return `N${problem.message.slice(1)}.`;
};

/** The same parser and caps as the flags (`--amount`, `--item`), so a prompt never reads an amount differently. */
export const validateAmount: Validate = (v) => {
  let cents: number;
  try {
    cents = parseAmount(v);
  } catch (error) {
    if (error instanceof AmountError) return `${error.message}.`;
    throw error;
  }
  const problem = amountRangeProblem(cents);
  return problem === undefined || `Enter ${problem}.`;
};

export const validateCardNumber: Validate = (v) => {
  const digits = normalizeCardNumber(v.trim());
  if (!CARD_DIGITS.test(digits)) return 'Enter the 12 to 19 digits of the card number.';
  return passesLuhn(digits) || 'Not a valid card number: the check digit does not match (Luhn).';
};

/** The expiry year; given the month, the card must also not have expired. */
export function validateYear(now: Date, month?: string): Validate {
  return (v) => {
    const year = v.trim();
    if (!EXPIRY_YEAR.test(year)) return 'Enter the year as YY or YYYY, like 29 or 2029.';
    const full = fullYear(year);
    if (full < now.getUTCFullYear()) return `The year ${full} has passed.`;
    if (month !== undefined && validateMonth(month) === true && isExpired(month.trim(), year, now)) return 'The card has expired.';
    return true;
  };
}

/** A unit price that keeps quantity * price within what is left of the charge's maximum. */
export function validatePrice(quantity: number, room: number): Validate {
  return (v) => {
    const valid = validateAmount(v);
    if (valid !== true) return valid;
    return parseAmount(v) * quantity <= room || `The charge would exceed ${formatBRL(MAX_CENTS)}: ${formatBRL(room)} left for this item.`;
  };
}
