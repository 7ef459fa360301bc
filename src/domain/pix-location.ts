// The charge a dynamic pix code's location answers (the API Pix "cob" payload), held against the code,
// as a payer's bank does before showing the amount: the same txid, the same amount, still open.
// Pure: the fetching and the signature are the client's (src/client/pix-location/).
import type { PixFields } from './pix-decode.js';

/** The one status a bank pays; the others, in the payer's words. */
export const PAYABLE_STATUS = 'ATIVA';
const STATUS_MEANING: Readonly<Record<string, string>> = {
  CONCLUIDA: 'already paid',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'removed by the merchant',
  REMOVIDA_PELO_PSP: 'removed by the PSP (expired or canceled)',
};

export interface PayloadCheck { ok: boolean; message: string }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textAt = (value: unknown, ...path: string[]): string | undefined => {
  const found = path.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value);
  return typeof found === 'string' ? found : undefined;
};

/**
 * "159.90" → 15990: the API Pix writes `valor.original` as digits, a point and exactly two decimals
 * (`\d{1,10}\.\d{2}`); read as text, so no float ever rounds an amount. null for anything else.
 */
export function decimalCents(text: string): number | null {
  const match = /^(\d{1,10})\.(\d{2})$/.exec(text);
  return match ? Number(match[1]) * 100 + Number(match[2]) : null;
}

const centsText = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** The code's txid (field 62-05) against the payload's; a dynamic code's "***" leaves it to the location. */
export function checkTxid(code: PixFields, payload: unknown): PayloadCheck {
  const txid = textAt(payload, 'txid');
  if (txid === undefined) return { ok: false, message: 'the payload has no txid' };
  if (!/^[A-Za-z0-9]{26,35}$/.test(txid)) return { ok: false, message: `the payload's txid "${txid}" is not 26 to 35 letters and digits` };
  if (code.txid === null || code.txid === '***') return { ok: true, message: `${txid} (the code leaves the txid to the location)` };
  return code.txid === txid ? { ok: true, message: `${txid}, as in the code` } : { ok: false, message: `the payload's txid ${txid} is not the code's ${code.txid}` };
}

/** `valor.original` against the code's amount (field 54), compared in whole cents. */
export function checkAmount(code: PixFields, payload: unknown): PayloadCheck & { cents?: number } {
  const original = textAt(payload, 'valor', 'original');
  if (original === undefined) return { ok: false, message: 'the payload has no valor.original' };
  const cents = decimalCents(original);
  if (cents === null) return { ok: false, message: `the payload's valor.original "${original}" is not an amount (digits, a point and two decimals, like 159.90)` };
  if (code.amount === null) return { ok: true, cents, message: `${original} (the code carries no amount of its own)` };
  if (code.amount_cents === cents) return { ok: true, cents, message: `${original}, as in the code` };
  const coded = code.amount_cents === null ? `"${code.amount}"` : centsText(code.amount_cents);
  return { ok: false, cents, message: `the payload's valor.original ${original} is not the code's amount ${coded}` };
}

/** ATIVA, or the status named with what it means for the payer (CONCLUIDA: already paid). */
export function checkStatus(payload: unknown): PayloadCheck & { status?: string } {
  const status = textAt(payload, 'status');
  if (status === undefined) return { ok: false, message: 'the payload has no status' };
  if (status === PAYABLE_STATUS) return { ok: true, status, message: `${status}: open to payment` };
  return { ok: false, status, message: `${status}: ${STATUS_MEANING[status] ?? 'not open to payment'}` };
}
