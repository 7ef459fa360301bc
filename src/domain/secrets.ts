// What may be shown or kept of a secret: one rule for bearer tokens, card numbers and security
// codes, shared by the CLI (debug output, profile list) and the server (idempotency records).
import { normalizeCardNumber } from './card.js';

/** Shows enough of a token to recognise it, never enough to use it. */
export function maskToken(token: string): string {
  return token.length <= 12 ? '****' : `${token.slice(0, 8)}…${token.slice(-4)}`;
}

/** "4111 1111 1111 1111" -> "411111******1111": what a receipt shows (first 6, last 4), never enough to pay with. */
export function maskCardNumber(number: string | number): string {
  const digits = normalizeCardNumber(String(number));
  if (digits.length < 13) return '*'.repeat(digits.length);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A create request with its card number masked and its security code blanked: safe to print, and
 * safe to hash (nothing of it lets anyone recover what was masked). Anything else is returned as is.
 */
export function redactCard<T>(body: T): T {
  if (!isObject(body) || !isObject(body.card)) return body;
  const card = { ...body.card };
  if (typeof card.number === 'string' || typeof card.number === 'number') card.number = maskCardNumber(card.number);
  if (card.security_code !== undefined && card.security_code !== null) card.security_code = '***';
  return { ...body, card } as T;
}

/** An answer's text with the secrets it may carry (the webhook secret, a token) masked, for debug output. */
export function redactSecretsInText(text: string): string {
  return text.replace(/("(?:webhook_secret|token)"\s*:\s*")([^"\\]*)"/g, (_, key: string, value: string) => `${key}${maskToken(value)}"`);
}

/** A token or webhook secret a person fixes (serve --token, a fixtures file): 16 or more printable ASCII characters, no spaces. */
export const FIXED_SECRET = /^[\x21-\x7e]{16,}$/;
export const FIXED_SECRET_RULE = 'must be at least 16 printable characters without spaces';

/** Why a token or secret someone chose cannot be used (one rule for serve --token and fixtures), or undefined. */
export const fixedSecretProblem = (value: string): string | undefined => (FIXED_SECRET.test(value) ? undefined : FIXED_SECRET_RULE);
