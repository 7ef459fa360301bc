// sandbox.requests: the inspector's journal (contract, "The inspector") asked from a test. find and wait
// go to the server's find, which matches and explains a miss; a wait is cut into server waits of at most
// 10 s each, so that no request outlives the client's 20 s. A wait that times out rejects with
// RequestNotFoundError (request-not-found.ts).
import type { FindAnswer, JournalEntry, JournalPage } from '../api/journal.js';
import { ApiRequestError } from '../client/errors.js';
import type { Client } from './api.js';
import { describeMiss, RequestNotFoundError } from './request-not-found.js';
import type { RequestPattern, RequestWaitOptions, SandboxRequests } from './types.js';

/** Less than the 5 s a test gets in vitest and jest, so that a miss fails with its own message, not the runner's timeout. */
export const DEFAULT_WAIT_TIMEOUT_MS = 4000;
/** The longest one server wait lasts (the client gives a request 20 s, its retries included). */
const SERVER_WAIT_MS = 10_000;
/** The server's largest page. */
const PAGE = 500;

/** A pattern the server refuses (422) is the caller's mistake: a TypeError naming each member at fault. */
async function checked<T>(name: string, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 422) throw new TypeError(`${name}.${what}: the server refused the pattern: ${error.describe()}`);
    throw error;
  }
}

function waitTimeout(name: string, options: RequestWaitOptions): number {
  const timeout = options.timeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  if (!(Number.isFinite(timeout) && timeout >= 0)) throw new RangeError(`${name}.wait: timeout must be a number of ms, 0 or more, not ${JSON.stringify(timeout)}`);
  return timeout;
}

/**
 * `keep`: the entries the journal keeps, for the message of an eviction; `name`: what messages call it
 * (`proxy.requests` for a proxy's journal, connectProxy).
 */
export function requestsControl(client: Client, keep: number, name = 'sandbox.requests', keepOption = 'startSandbox({ journal })'): SandboxRequests {
  const find = (pattern: RequestPattern, what: string, waitMs?: number) =>
    checked(name, what, async () => (await client.journalFind(pattern, waitMs === undefined ? undefined : Number((waitMs / 1000).toFixed(3)))) as FindAnswer);

  return {
    find: async (pattern) => (await find(pattern, 'find')).data,
    count: async (pattern) => (await find(pattern, 'count')).matched,
    async wait(pattern, options = {}) {
      const timeout = waitTimeout(name, options);
      const deadline = Date.now() + timeout;
      for (;;) {
        const left = Math.max(0, deadline - Date.now());
        const answer = await find(pattern, 'wait', Math.min(left, SERVER_WAIT_MS));
        const [first] = answer.data;
        if (first) return first;
        if (Date.now() >= deadline) throw new RequestNotFoundError(describeMiss(pattern, answer, timeout, keep, name, keepOption), pattern, answer.near_misses, answer.dropped);
      }
    },
    async all() {
      const entries: JournalEntry[] = [];
      for (let after = 0; ;) {
        const page = (await client.journalList({ after: String(after), limit: String(PAGE) })) as JournalPage;
        entries.push(...page.data);
        if (page.data.length < PAGE) return entries;
        after = page.next_cursor;
      }
    },
    async clear() {
      await client.journalClear();
    },
  };
}
