// What `webhooks listen` makes of a request it received: the record of the event, its JSON line
// (`--json`) and the line a person reads.
import type { IncomingMessage } from 'node:http';
import type { PostbackBody } from '../../api/postbacks.js';
import { spokenDuration } from '../../base/spoken-duration.js';
import type { Output } from '../../cli/output.js';
import { dateTime, money } from '../../cli/render/format.js';
import { safeData } from '../../cli/render/safe-text.js';
import type { VerifyResult } from '../../domain/signature.js';

/** The largest body the receiver reads; a larger one is answered 413. */
export const MAX_BODY = 2 * 1024 * 1024;

export interface Received {
  type: 'event';
  received_at: string;
  path: string;
  signature: 'valid' | 'invalid';
  reason?: string;
  event_id: string | null;
  event: string | null;
  invoice_id: string | null;
  status: string | null;
  total: number | null;
  forward: { url: string; status: number | null; error: string | null; duration_ms: number } | null;
  /** the body exactly as received: JSON spliced in, anything else as a string */
  payload: unknown;
}

export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}

/** The body, or undefined when it is larger than MAX_BODY (the rest is read and dropped). */
export function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The record of a request: what its body says (when it is a postback at all) and how its signature checked. */
export function receivedFrom(request: IncomingMessage, raw: string, check: VerifyResult): Received {
  const parsed = parseJson(raw)?.value;
  const payload = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<Record<keyof PostbackBody, unknown>>;
  return {
    type: 'event', received_at: new Date().toISOString(), path: request.url ?? '/',
    signature: check.valid ? 'valid' : 'invalid', ...(!check.valid && { reason: check.reason }),
    event_id: text(payload.event_id) ?? header(request, 'pinvoice-event-id') ?? null, event: text(payload.event),
    invoice_id: text(payload.invoice_id) ?? text(payload.id), status: text(payload.status),
    total: typeof payload.total === 'number' ? payload.total : null, forward: null, payload: null,
  };
}

/** The JSON line of an event, its body spliced in as received (its line breaks, mere whitespace, made spaces). */
export function receivedLine(received: Received, raw: string): string {
  const line = JSON.stringify({ ...received, payload: null });
  const json = parseJson(raw);
  if (!json) return JSON.stringify({ ...received, payload: raw });
  // JSON has no raw line break inside a string: the breaks are whitespace, and spaces keep every other byte
  const payload = raw.trim().replace(/\r\n?|\n/g, ' ');
  return `${line.slice(0, -'null}'.length)}${payload}}`;
}

/** One line a person reads as events arrive; whatever the sender put in the body is made safe first. */
export function eventLine(received: Received, out: Output): string {
  const r = safeData(received);
  const p = out.palette;
  const signature = r.signature === 'valid' ? p.ok('signature ok') : p.bad(`signature INVALID (${r.reason})`);
  const parts = [
    p.dim(dateTime(r.received_at)),
    p.bold(r.event ?? '(not an event)'),
    r.invoice_id ?? '',
    r.status ? p.status(r.status) : '',
    r.total === null ? '' : money(r.total),
    p.dim(r.event_id ?? ''),
    signature,
  ];
  if (r.forward) {
    const answer = r.forward.status === null ? p.bad(r.forward.error ?? 'no answer') : r.forward.status < 300 ? p.ok(String(r.forward.status)) : p.bad(String(r.forward.status));
    parts.push(`→ ${answer} (${spokenDuration(r.forward.duration_ms)})`);
  }
  return parts.filter((part) => part !== '').join('  ');
}
