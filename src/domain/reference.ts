// What a support agent was given to find a charge by: the integer id, the secureId (INV-…), a pix
// copy-and-paste code, a checkout URL or its bare token, a boleto typeable line or barcode, or else
// the merchant's own reference (external_id, such as an order number). Pure: it only reads the text.
import { decodePix, readPastedCode } from './pix-decode.js';

export type Reference =
  | { kind: 'id'; value: string }
  | { kind: 'secureId'; value: string }
  | { kind: 'pix'; value: string; txid: string | null; location: string | null }
  | { kind: 'checkout'; value: string }
  | { kind: 'boleto'; value: string; form: 'line' | 'barcode' }
  | { kind: 'external'; value: string };

/** What each kind is called when pinvoice says what it looked up ("pix code → INV-…"). */
export const REFERENCE_NAMES: Record<Reference['kind'], string> = {
  id: 'id',
  secureId: 'secure id',
  pix: 'pix code',
  checkout: 'checkout token',
  boleto: 'boleto',
  external: 'external_id',
};

/** A token_checkout as pinvoice serve makes them: 32 letters and digits. */
const TOKEN = /^[A-Za-z0-9]{32}$/;
const SECURE_ID = /^INV-[0-9A-Za-z-]+$/i;

function checkoutToken(text: string): string | undefined {
  try {
    const url = new URL(text);
    const match = /\/checkout\/([^/?#]+)\/?$/.exec(url.pathname);
    return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
  } catch {
    return TOKEN.test(text) ? text : undefined;
  }
}

/** What `text` is. Spaces and line breaks a terminal added to a long code are ignored where a code cannot hold them. */
export function classifyReference(text: string): Reference {
  const trimmed = text.trim();
  if (/^000201/.test(trimmed.replace(/\s+/g, ''))) {
    const { code } = readPastedCode(trimmed);
    const { txid, location } = decodePix(code).fields;
    return { kind: 'pix', value: code, txid: txid === '***' ? null : txid, location };
  }
  const digits = trimmed.replace(/[\s.]/g, '');
  if (/^\d{47}$/.test(digits)) return { kind: 'boleto', value: digits, form: 'line' };
  if (/^\d{44}$/.test(digits)) return { kind: 'boleto', value: digits, form: 'barcode' };
  if (/^\d{1,15}$/.test(trimmed)) return { kind: 'id', value: trimmed };
  if (SECURE_ID.test(trimmed)) return { kind: 'secureId', value: trimmed };
  const token = /^https?:\/\//i.test(trimmed) || TOKEN.test(trimmed) ? checkoutToken(trimmed) : undefined;
  if (token !== undefined) return { kind: 'checkout', value: token };
  return { kind: 'external', value: trimmed };
}

/** The ids a pix code names that a gateway's id lookup might know: an INV- id anywhere in it, the txid, the location's last segment. */
export function pixCandidates(reference: Extract<Reference, { kind: 'pix' }>): string[] {
  const inside = /INV-[0-9A-Za-z]+(?:-[0-9A-Za-z]+)*/i.exec(reference.value)?.[0];
  const last = reference.location?.split('/').filter(Boolean).at(-1);
  return [...new Set([inside, reference.txid, last].filter((value): value is string => value !== undefined && value !== null && value !== ''))];
}
