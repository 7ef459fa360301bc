// Idempotency-Key: the same key and body within 24 hours answer the first response again and create nothing.
import { createHash } from 'node:crypto';
import { redactCard } from '../domain/secrets.js';
import { ApiError } from './errors.js';
import type { Store, Writes } from './store/port.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const UNKNOWN_HASH = 'unknown';
const MAX_KEY_LENGTH = 255;

export interface Answer {
  status: number;
  body: unknown;
  replayed?: boolean;
  /** the body is already the JSON text to send */
  json?: true;
  /** the handler answered by itself (a stream): nothing more is sent */
  hijacked?: true;
}

export function checkKey(key: string | string[] | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (Array.isArray(key) || key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError(422, 'validation_failed', 'The Idempotency-Key header is not usable.', [
      { path: 'headers.Idempotency-Key', message: `must be one value of 1 to ${MAX_KEY_LENGTH} printable characters (a UUID is recommended)` },
    ]);
  }
  return key;
}

/**
 * The fingerprint a key's first request is remembered by. The card number (but its first 6 and last 4
 * digits, which the answer shows anyway) and the security code are left out: a hash of them could be
 * reversed by trying every number.
 */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(redactCard(body) ?? null)).digest('hex');
}

/**
 * Runs `create` at most once per (company, operation, key). The key is claimed first, under its unique
 * index, in the transaction that does the work and stores the answer: a request with the same key on
 * any node waits for that transaction, then replays its answer (or, if it rolled back, claims the key).
 */
export function oncePerKey(
  store: Store,
  scope: { companyId: number; operation: string; key: string; body: unknown; now: Date },
  create: (tx: Writes) => Promise<Answer>,
): Promise<Answer> {
  const hash = hashBody(scope.body);
  const now = scope.now.toISOString();
  const staleBefore = new Date(scope.now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  return store.transaction(async (tx) => {
    for (let attempt = 0; ; attempt++) {
      if (await tx.idempotency.claim(scope, hash, now, staleBefore)) {
        const answer = await create(tx);
        await tx.idempotency.answer(scope, answer.status, answer.body);
        return answer;
      }
      const previous = await tx.idempotency.get(scope.companyId, scope.operation, scope.key);
      // gone between the claim and the read (purged past its window): claim it again
      if (!previous && attempt < 2) continue;
      if (!previous) throw new Error(`Idempotency-Key ${scope.key}: neither claimed nor remembered`);
      // 'unknown': remembered before card data was left out of the hash (migration 4); the key alone decides
      if (previous.request_hash !== hash && previous.request_hash !== UNKNOWN_HASH) {
        throw new ApiError(409, 'idempotency_conflict', 'This Idempotency-Key was already used with another request body.');
      }
      return { status: previous.status_code, body: previous.response, replayed: true };
    }
  });
}
