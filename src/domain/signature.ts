// Postback signatures: `Pinvoice-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`,
// keyed with the company's webhook secret. Pure functions, shared by the server and the CLI.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Pinvoice-Signature';

export function signatureOf(secret: string, timestamp: number, body: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return hmac.digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string | Uint8Array): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

export interface ParsedSignature {
  timestamp: number;
  /** every v1 value: more than one while a secret is being rotated */
  signatures: string[];
}

/** Reads `t=…,v1=…[,v1=…]`; a leading `Pinvoice-Signature:` (pasted from a log) is allowed. */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  const value = header.trim().replace(/^pinvoice-signature\s*:\s*/i, '');
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const [key, item] = part.trim().split('=', 2).map((s) => s.trim());
    if (key === 't' && item !== undefined && /^\d{1,12}$/.test(item)) timestamp = Number(item);
    else if (key === 'v1' && item !== undefined && /^[0-9a-f]{64}$/i.test(item)) signatures.push(item.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

export type VerifyResult =
  | { valid: true; timestamp: number }
  | { valid: false; reason: 'malformed_header' | 'signature_mismatch' | 'timestamp_outside_tolerance'; timestamp?: number };

export interface VerifyInput {
  secret: string;
  body: string | Uint8Array;
  header: string;
  /** reject a timestamp further than this from `now`, in seconds; undefined checks no time */
  toleranceSeconds?: number;
  now?: Date;
}

/** Checks a received body against its header: the HMAC first (constant time), then the age. */
export function verifySignature({ secret, body, header, toleranceSeconds, now = new Date() }: VerifyInput): VerifyResult {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { valid: false, reason: 'malformed_header' };
  const expected = Buffer.from(signatureOf(secret, parsed.timestamp, body), 'hex');
  const matches = parsed.signatures.some((candidate) => timingSafeEqual(Buffer.from(candidate, 'hex'), expected));
  if (!matches) return { valid: false, reason: 'signature_mismatch', timestamp: parsed.timestamp };
  const age = Math.abs(Math.floor(now.getTime() / 1000) - parsed.timestamp);
  if (toleranceSeconds !== undefined && age > toleranceSeconds) return { valid: false, reason: 'timestamp_outside_tolerance', timestamp: parsed.timestamp };
  return { valid: true, timestamp: parsed.timestamp };
}

export const VERIFY_REASONS: Record<Exclude<VerifyResult, { valid: true }>['reason'], string> = {
  malformed_header: 'the header is not "t=<unix seconds>,v1=<64 hex digits>"',
  signature_mismatch: 'the signature does not match this body, timestamp and secret',
  timestamp_outside_tolerance: 'the signature is valid but its timestamp is outside the tolerance (a replay?)',
};
