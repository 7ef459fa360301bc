// Postback signatures. Pure functions, shared by the server and the CLI.
// - `Pinvoice-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`: replay-safe, ours; always
//   keyed with the company's webhook secret.
// - `X-Webhook-Signature: <hex HMAC-SHA256 of the body>`: the form production handlers verify; keyed with
//   the webhook secret, or with the company's API token when it chose so (handlers written for
//   production verify it with their API key).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Pinvoice-Signature';
export const BODY_SIGNATURE_HEADER = 'X-Webhook-Signature';

export function signatureOf(secret: string, timestamp: number, body: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return hmac.digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string | Uint8Array): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/** The X-Webhook-Signature value: no timestamp, so it cannot tell a replay. */
export function bodySignature(secret: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export interface ParsedSignature {
  timestamp: number;
  /** every v1 value: more than one while a secret is being rotated */
  signatures: string[];
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;
/** A value pasted from a log may still carry its header name. */
const withoutName = (value: string) => value.trim().replace(/^(pinvoice-signature|x-webhook-signature)\s*:\s*/i, '');

/** Reads `t=…,v1=…[,v1=…]`; a leading `Pinvoice-Signature:` (pasted from a log) is allowed. */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of withoutName(header).split(',')) {
    const [key, item] = part.trim().split('=', 2).map((s) => s.trim());
    if (key === 't' && item !== undefined && /^\d{1,12}$/.test(item)) timestamp = Number(item);
    else if (key === 'v1' && item !== undefined && HEX_SIGNATURE.test(item)) signatures.push(item.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** The signature headers of one request, as received (either may be missing). */
export interface SignatureHeaders {
  /** the Pinvoice-Signature value */
  timestamped?: string;
  /** the X-Webhook-Signature value */
  body?: string;
}

/** A value pasted by a person, in either form, with or without its header name. */
export function pastedSignature(value: string): SignatureHeaders {
  const bare = withoutName(value);
  return HEX_SIGNATURE.test(bare) ? { body: bare } : { timestamped: value };
}

export type VerifyResult =
  | { valid: true; timestamp?: number }
  | { valid: false; reason: 'missing_signature' | 'malformed_header' | 'signature_mismatch' | 'timestamp_outside_tolerance'; timestamp?: number };

export interface VerifyInput {
  secret: string;
  /** the key of X-Webhook-Signature when it is not the secret: the API token of a company that signs with it */
  bodyKey?: string;
  body: string | Uint8Array;
  headers: SignatureHeaders;
  /** reject a Pinvoice-Signature timestamp further than this from `now`, in seconds; undefined checks no time */
  toleranceSeconds?: number;
  now?: Date;
}

const sameHex = (given: string, expected: Buffer) => timingSafeEqual(Buffer.from(given, 'hex'), expected);

function verifyTimestamped(input: VerifyInput, header: string): VerifyResult {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { valid: false, reason: 'malformed_header' };
  const expected = Buffer.from(signatureOf(input.secret, parsed.timestamp, input.body), 'hex');
  if (!parsed.signatures.some((candidate) => sameHex(candidate, expected))) {
    return { valid: false, reason: 'signature_mismatch', timestamp: parsed.timestamp };
  }
  const age = Math.abs(Math.floor((input.now ?? new Date()).getTime() / 1000) - parsed.timestamp);
  if (input.toleranceSeconds !== undefined && age > input.toleranceSeconds) {
    return { valid: false, reason: 'timestamp_outside_tolerance', timestamp: parsed.timestamp };
  }
  return { valid: true, timestamp: parsed.timestamp };
}

function verifyBody(input: VerifyInput, header: string): VerifyResult {
  const given = withoutName(header);
  if (!HEX_SIGNATURE.test(given)) return { valid: false, reason: 'malformed_header' };
  const expected = Buffer.from(bodySignature(input.bodyKey ?? input.secret, input.body), 'hex');
  return sameHex(given, expected) ? { valid: true } : { valid: false, reason: 'signature_mismatch' };
}

/**
 * Checks a received body against whichever signature headers came with it: valid when at least one
 * came and every one that came matches (HMACs compared in constant time; the age only for the
 * timestamped form).
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  const { timestamped, body } = input.headers;
  if (!timestamped && !body) return { valid: false, reason: 'missing_signature' };
  const timed = timestamped ? verifyTimestamped(input, timestamped) : undefined;
  if (timed && !timed.valid) return timed;
  const plain = body ? verifyBody(input, body) : undefined;
  if (plain && !plain.valid) return { ...plain, ...(timed?.timestamp !== undefined && { timestamp: timed.timestamp }) };
  return timed ?? { valid: true };
}

export const VERIFY_REASONS: Record<Exclude<VerifyResult, { valid: true }>['reason'], string> = {
  missing_signature: `no ${SIGNATURE_HEADER} or ${BODY_SIGNATURE_HEADER} header`,
  malformed_header: `the header is neither "t=<unix seconds>,v1=<64 hex digits>" (${SIGNATURE_HEADER}) nor 64 hex digits (${BODY_SIGNATURE_HEADER})`,
  signature_mismatch: 'the signature does not match this body and secret',
  timestamp_outside_tolerance: 'the signature is valid but its timestamp is outside the tolerance (a replay?)',
};
