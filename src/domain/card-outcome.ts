// The sandbox's card decisions: brand detection, the documented test cards, tokens, and 3-D Secure.
import { passesLuhn } from './card.js';

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'elo' | 'hipercard' | 'diners' | 'discover' | 'jcb' | 'unknown';
export type DeclineReason = 'insufficient_funds' | 'stolen_card' | 'generic_decline' | 'expired_card' | 'authentication_failed';
export type CardOutcome = { kind: 'approved' } | { kind: 'declined'; reason: DeclineReason } | { kind: 'requires_3ds' };

const ELO_PREFIXES = ['401178', '401179', '431274', '438935', '451416', '457393', '457631', '457632', '504175', '627780', '636297', '636368'];
const ELO_RANGES: [number, number][] = [
  [506699, 506778], [509000, 509999], [650031, 650033], [650035, 650051], [650405, 650439], [650485, 650538],
  [650541, 650598], [650700, 650718], [650720, 650727], [650901, 650920], [651652, 651679], [655000, 655019], [655021, 655058],
];

/** Elo and Hipercard first: some of their ranges sit inside Visa's, Mastercard's and Discover's. */
export function detectBrand(digits: string): CardBrand {
  const six = Number(digits.slice(0, 6));
  if (ELO_PREFIXES.includes(digits.slice(0, 6)) || ELO_RANGES.some(([lo, hi]) => six >= lo && six <= hi)) return 'elo';
  if (/^(606282|3841(00|40|60))/.test(digits)) return 'hipercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(30[0-5]|36|38|39)/.test(digits)) return 'diners';
  if (/^(6011|64[4-9]|65)/.test(digits)) return 'discover';
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'jcb';
  const four = Number(digits.slice(0, 4));
  if (/^5[1-5]/.test(digits) || (four >= 2221 && four <= 2720)) return 'mastercard';
  if (/^4/.test(digits)) return 'visa';
  return 'unknown';
}

export const TEST_CARDS: readonly { number: string; outcome: CardOutcome; description: string }[] = [
  { number: '4111111111111111', outcome: { kind: 'approved' }, description: 'Visa, approved' },
  { number: '5555555555554444', outcome: { kind: 'approved' }, description: 'Mastercard, approved' },
  { number: '378282246310005', outcome: { kind: 'approved' }, description: 'Amex, approved' },
  { number: '4000000000000002', outcome: { kind: 'declined', reason: 'generic_decline' }, description: 'declined: generic_decline' },
  { number: '4000000000009995', outcome: { kind: 'declined', reason: 'insufficient_funds' }, description: 'declined: insufficient_funds' },
  { number: '4000000000009979', outcome: { kind: 'declined', reason: 'stolen_card' }, description: 'declined: stolen_card' },
  { number: '4000000000000069', outcome: { kind: 'declined', reason: 'expired_card' }, description: 'declined: expired_card' },
  { number: '4000000000003220', outcome: { kind: 'requires_3ds' }, description: '3-D Secure required' },
];

/** A test card's outcome; any other valid number is approved. */
export function cardOutcome(digits: string): CardOutcome {
  return TEST_CARDS.find((card) => card.number === digits)?.outcome ?? { kind: 'approved' };
}

export function maskCard(digits: string): { firstDigits: string; lastDigits: string } {
  return { firstDigits: digits.slice(0, 6), lastDigits: digits.length >= 10 ? digits.slice(-4) : '' };
}

/** `tok_<test card number>` behaves like that card; any other token is an approved card of unknown brand. */
export function tokenOutcome(token: string): { outcome: CardOutcome; brand: CardBrand; firstDigits: string; lastDigits: string } {
  const digits = token.startsWith('tok_') ? token.slice(4) : '';
  if (passesLuhn(digits)) return { outcome: cardOutcome(digits), brand: detectBrand(digits), ...maskCard(digits) };
  return { outcome: { kind: 'approved' }, brand: 'unknown', firstDigits: '', lastDigits: '' };
}

export interface ThreeDSValues {
  cavv: string;
  xid: string;
  eci: string;
  version: string;
  referenceid: string;
}

export const SAMPLE_3DS_VALUES: ThreeDSValues = {
  cavv: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
  xid: '0f6d2c5e-3b1f-4c55-9e1e-5a8a3c2b7d10',
  eci: '05',
  version: '2.2.0',
  referenceid: 'b7f1a6c4-2d0e-4f0a-8c8e-0b5d9e3f1a22',
};

const AUTHENTICATED_ECI = new Set(['05', '06', '02', '01']);

/**
 * ECI 05 (Visa, Amex, Elo…) and 02 (Mastercard) are full authentication; 06 and 01 are attempts, which
 * shift liability too, so they are accepted; anything else (07, 00…) fails. The CAVV is 20 bytes.
 */
export function check3ds(values: ThreeDSValues, _brand: CardBrand): { authenticated: boolean; reason?: string } {
  if (Object.values(values).some((value) => typeof value !== 'string' || value.trim() === '')) return { authenticated: false, reason: 'authentication_failed' };
  if (!/^[12]\./.test(values.version)) return { authenticated: false, reason: 'authentication_failed' };
  if (!/^[A-Za-z0-9+/]{27}=$/.test(values.cavv) && !/^[0-9a-fA-F]{40}$/.test(values.cavv)) return { authenticated: false, reason: 'invalid_cavv' };
  if (!AUTHENTICATED_ECI.has(values.eci.trim())) return { authenticated: false, reason: 'authentication_failed' };
  return { authenticated: true };
}
