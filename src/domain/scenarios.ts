// Every magic value that decides an outcome in the sandbox, in one list: `GET /api/v2/sandbox/scenarios`,
// `pinvoice sandbox scenarios` and the table in docs/api.md are made from it (a test keeps the
// document in step), and it is made from the rules themselves (the test cards, the 3-D Secure check).
import { SAMPLE_3DS_VALUES, TEST_CARDS, type CardOutcome } from './card-outcome.js';

export interface Scenario {
  kind: 'card' | 'card_token' | '3ds' | 'pix' | 'boleto';
  value: string;
  outcome: string;
}

const groups = (digits: string) => (digits.length === 15 ? `${digits.slice(0, 4)} ${digits.slice(4, 10)} ${digits.slice(10)}` : digits.replace(/(\d{4})(?=\d)/g, '$1 '));

const describe = (outcome: CardOutcome): string => {
  if (outcome.kind === 'approved') return 'paid at once (invoice.created, invoice.paid)';
  if (outcome.kind === 'declined') return `refused, refusedReason ${outcome.reason} (invoice.created, invoice.failed)`;
  return 'waiting_3ds: complete it with Active 3ds (or the checkout page)';
};

export const SCENARIOS: readonly Scenario[] = [
  ...TEST_CARDS.map((card) => ({ kind: 'card' as const, value: groups(card.number), outcome: `${card.description}: ${describe(card.outcome)}` })),
  { kind: 'card', value: 'any other number that passes Luhn', outcome: 'approved: paid at once' },
  { kind: 'card_token', value: 'tok_<a test card number>, e.g. tok_4000000000000002', outcome: 'behaves as that card' },
  { kind: 'card_token', value: 'any other token', outcome: 'approved, brand unknown' },
  { kind: '3ds', value: `eci 05 or 02, version 1.x or 2.x, cavv of 20 bytes (e.g. ${SAMPLE_3DS_VALUES.cavv}), xid and referenceid set`, outcome: 'authenticated: paid' },
  { kind: '3ds', value: 'eci 06 or 01 (attempted), the rest as above', outcome: 'accepted (liability shifts): paid' },
  { kind: '3ds', value: 'eci 07, 00 or any other; a version not 1.x or 2.x; a value missing', outcome: 'refused, refusedReason authentication_failed' },
  { kind: '3ds', value: 'a cavv that is not 28 base64 characters or 40 hex digits', outcome: 'refused, refusedReason invalid_cavv' },
  { kind: 'pix', value: 'any amount', outcome: 'pending until paid (sandbox pay, the checkout page) or expired (serve --pix-expiry, default 1 hour, on the sandbox clock)' },
  { kind: 'boleto', value: 'any amount', outcome: 'pending until paid; payable through its due date and the grace days after it (serve --boleto-due-days, --boleto-grace-days), then expired' },
];

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The table docs/api.md shows (test/unit/scenarios.test.ts keeps it equal to this). */
export function scenariosMarkdown(): string {
  const rows = SCENARIOS.map((s) => `| ${s.kind} | ${cell(s.value)} | ${cell(s.outcome)} |`);
  return ['| kind | send | outcome |', '|---|---|---|', ...rows].join('\n');
}
