// The values the listing and search parameters of Search Transaction take, each read from the text
// of a query string into what the server looks for, normalised as the create request stores it, or
// refused with a message a person can act on.
import { z } from 'zod';
import { BoletoError, digitableLineToBarcode, mod11 } from '../domain/boleto.js';
import { documentProblem, normalizeDocument } from '../domain/document.js';
import { MAX_CENTS } from '../domain/money.js';
import { locationTxid } from '../domain/pix.js';
import { METHODS, STATUSES, type Method, type Status } from '../domain/status.js';
import { findControlCharacter } from '../domain/text.js';
import { decodeCursor, type Position } from './cursor.js';
import { MAX_TEXT } from './schemas.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const no = (message: string): Parsed<never> => ({ ok: false, message });

export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 50;

export function statuses(raw: string): Parsed<Status[]> {
  const parts = raw.split(',').map((part) => part.trim());
  const unknown = parts.filter((part) => !(STATUSES as readonly string[]).includes(part));
  if (unknown.length === 0) return ok([...new Set(parts as Status[])]);
  const shown = unknown.map((part) => (part === '' ? 'an empty one' : JSON.stringify(part))).join(', ');
  return no(`must be one of ${STATUSES.join(', ')}, or several separated by commas (paid,refunded); not ${shown}`);
}

export function method(raw: string): Parsed<Method> {
  return (METHODS as readonly string[]).includes(raw) ? ok(raw as Method) : no(`must be one of ${METHODS.join(', ')}`);
}

/** Digits or formatted, as the create request takes it: kept as the charge's payer is (normalised). */
export function payerDocument(raw: string): Parsed<string> {
  const problem = documentProblem(raw.trim());
  return problem ? no(`is ${problem.message}`) : ok(normalizeDocument(raw.trim()));
}

const EMAIL = z.email();
/** The create request's rule; compared without regard to case. */
export function payerEmail(raw: string): Parsed<string> {
  return EMAIL.safeParse(raw.trim()).success ? ok(raw.trim().toLowerCase()) : no('must be an e-mail address (compared without regard to case)');
}

/** The create request keeps external_id without its surrounding spaces. */
export function externalId(raw: string): Parsed<string> {
  const value = raw.trim();
  if (value === '' || value.length > MAX_TEXT || findControlCharacter(value) !== undefined) {
    return no(`must be the external_id of a charge: 1 to ${MAX_TEXT} characters, without control characters`);
  }
  return ok(value);
}

const DATE_TIME = z.iso.datetime({ offset: true });
const DATE = z.iso.date();

/**
 * An instant as charges' created_at are stored (UTC, milliseconds). A date is its midnight UTC; digits
 * beyond the millisecond round up, so that ≥ and < on the stored times keep their meaning.
 */
export function instant(raw: string): Parsed<string> {
  const value = raw.trim();
  if (DATE.safeParse(value).success) return ok(`${value}T00:00:00.000Z`);
  if (!DATE_TIME.safeParse(value).success) {
    return no('must be an ISO 8601 date-time with a zone (2026-01-31T12:00:00Z, 2026-01-31T09:00:00-03:00) or a date (2026-01-31, midnight UTC)');
  }
  const beyond = /\.\d{3}(\d+)/.exec(value)?.[1] ?? '';
  return ok(new Date(Date.parse(value) + (/[1-9]/.test(beyond) ? 1 : 0)).toISOString());
}

export function cents(raw: string): Parsed<number> {
  const value = raw.trim();
  return /^\d{1,9}$/.test(value) && Number(value) <= MAX_CENTS
    ? ok(Number(value))
    : no(`must be a whole number of cents from 0 to ${MAX_CENTS} (R$ 10,00 is 1000)`);
}

export function limit(raw: string): Parsed<number> {
  const value = raw.trim();
  return /^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_LIMIT
    ? ok(Number(value))
    : no(`must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`);
}

export function cursor(raw: string): Parsed<Position> {
  const position = decodeCursor(raw);
  return position ? ok(position) : no('is not a cursor of this server: pass the next_cursor of the previous page as it came');
}

/** The code without whitespace (a paste may wrap it), and the txid its location names, if any. */
export function pixCode(raw: string): Parsed<{ code: string; txid: string | null }> {
  const code = raw.replace(/\s+/g, '');
  if (!/^000201/.test(code) || !/6304[0-9A-Fa-f]{4}$/.test(code) || code.length > 512) {
    return no('is not a pix copy-and-paste code: one begins with 000201 and ends with 6304 and four hexadecimal digits');
  }
  return ok({ code, txid: locationTxid(code) });
}

export function tokenCheckout(raw: string): Parsed<string> {
  const value = raw.trim();
  return /^[A-Za-z0-9_-]{1,128}$/.test(value)
    ? ok(value)
    : no("must be a checkout token: the letters and digits of a charge's invoice.token_checkout (the end of its checkout URL)");
}

/** A typeable line (47 digits) or a barcode (44), dots and spaces ignored; answers the barcode, check digits verified. */
export function boletoLine(raw: string): Parsed<string> {
  const digits = raw.replace(/[\s.]/g, '');
  if (/^\d{47}$/.test(digits)) {
    try {
      return ok(digitableLineToBarcode(digits));
    } catch (error) {
      if (error instanceof BoletoError) return no(`is not a valid typeable line (a digit is mistyped?): ${error.message}`);
      throw error;
    }
  }
  if (/^\d{44}$/.test(digits)) {
    const expected = mod11(digits.slice(0, 4) + digits.slice(5));
    if (String(expected) === digits[4]) return ok(digits);
    return no(`is not a valid barcode (a digit is mistyped?): general check digit: expected ${expected}, got ${digits[4]}`);
  }
  return no(`must be a boleto's 47-digit typeable line or its 44-digit barcode (dots and spaces are ignored), not ${/^\d*$/.test(digits) ? `${digits.length} digits` : 'other characters'}`);
}

export function id(raw: string): Parsed<string> {
  return raw.trim() === '' ? no('is required: the integer id or the secureId (INV-…) of a charge') : ok(raw);
}
