// The journal's writer: entries are buffered and written in batches, off the charges' transactions, so
// that a request pays for its entry with an object in an array, not a commit. A batch goes 100 ms after
// its first entry, or at once when its bodies reach BATCH_CHARS; while somebody here waits for entries (a long poll, a stream, `logs tail`), 10 ms
// after a request that changed something, so that they hear of it at once. Nobody waiting, a run of
// creates is one commit every 100 ms rather than one every 10: a tenth of the commits, and the journal's
// thread does a quarter less work an entry (a batch of 15 creates: 50 CPU-µs an entry; of 180: 36).
// A read of the journal writes what is buffered first, so it sees every request answered before it.
// A crash loses what was not yet written: at most the last 100 ms of entries, never a charge (those
// commit in their own transactions, before their answers).
import { StoreFault } from '../store/faults.js';
import type { JournalStore, NewJournalEntry } from '../store/port.js';

/** How long an entry of a read waits for its batch. */
export const FLUSH_MS = 100;
/** How long an entry of a change waits for its batch while somebody waits for entries (onWritten). */
export const SOON_MS = 10;
/**
 * A batch goes at once when its entries' own bodies (not the answers shared by ref) reach this many
 * characters: a batch is handed to the journal's thread as one message, made in a buffer of the
 * serving thread's that grows to the batch's size, and those buffers are what the process keeps of
 * its memory afterwards. 100 ms of creates at full speed was 1–2 MB a message, and serve's RSS after
 * 30,000 creates 216 MB; a batch every 20 ms, 172 MB (with the journal off, 137 MB).
 */
export const BATCH_CHARS = 256 * 1024;
/** While the store is away, at most this many entries wait; older ones are dropped and counted. */
const MAX_BUFFERED = 20_000;

export interface JournalRecorder {
  /** entries per company kept (0: the journal is off and nothing is recorded) */
  readonly keep: number;
  /** entries buffered now, not yet written (serve's /metrics; a recorder of the proxy's may not tell) */
  readonly queued?: number;
  /** buffers an entry; `soon` (a change): write it after SOON_MS, not after FLUSH_MS, while a listener waits */
  record(entry: NewJournalEntry, soon?: boolean): void;
  /** writes what is buffered now (and waits for a write under way) */
  flush(): Promise<void>;
  /** calls listener after each batch of this process is written, with the companies it held */
  onWritten(listener: (companies: ReadonlySet<number>) => void): () => void;
  close(): Promise<void>;
}

/**
 * maxBytes bounds the journal's room too (the store drops the oldest of the company that keeps the most).
 * logError hears an error the store refuses a batch for; tell hears, a line each, that entries began to wait
 * for a store fault (a full disk) and that they are saved again: once each, not per batch.
 */
export function createRecorder(
  store: { readonly journal: JournalStore },
  keep: number,
  logError: (error: unknown) => void,
  tell: (line: string) => void = () => undefined,
  maxBytes?: number,
): JournalRecorder {
  let buffer: NewJournalEntry[] = [];
  /** the characters of the buffered entries' own bodies (BATCH_CHARS) */
  let chars = 0;
  let waiting: StoreFault | undefined;
  const lost = new Map<number, number>();
  const listeners = new Set<(companies: ReadonlySet<number>) => void>();
  let timer: NodeJS.Timeout | undefined;
  let soonTimer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let closed = false;
  /** the buffer holds a change's entry (written soon once somebody listens) */
  let changes = false;

  async function write(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    clearTimeout(soonTimer);
    soonTimer = undefined;
    changes = false;
    if (buffer.length === 0 && lost.size === 0) return;
    const batch = buffer;
    const missing = new Map(lost);
    buffer = [];
    chars = 0;
    lost.clear();
    try {
      await store.journal.append(batch, keep, missing, maxBytes);
    } catch (error) {
      for (const [company, n] of missing) lost.set(company, (lost.get(company) ?? 0) + n);
      if (error instanceof StoreFault) {
        // the store is away (or full): the batch waits for the next one, within a bound
        if (!waiting) tell(`journal: entries wait in memory (the newest ${MAX_BUFFERED.toLocaleString('en')}) until they can be saved: ${error.message}`);
        waiting = error;
        buffer = batch.concat(buffer);
        trimBuffer();
      } else {
        // a batch the store refuses for itself would be refused for ever: it is dropped, counted, and the error told
        for (const entry of batch) lost.set(entry.company_id, (lost.get(entry.company_id) ?? 0) + 1);
      }
      if (!closed) timer = setTimeout(background, 1000).unref();
      throw error;
    }
    if (waiting) tell('journal: entries are saved again');
    waiting = undefined;
    const companies = new Set(batch.map((entry) => entry.company_id));
    for (const listener of listeners) listener(companies);
  }

  function trimBuffer(): void {
    const excess = buffer.length - MAX_BUFFERED;
    if (excess <= 0) return;
    for (const entry of buffer.slice(0, excess)) lost.set(entry.company_id, (lost.get(entry.company_id) ?? 0) + 1);
    buffer = buffer.slice(excess);
  }

  /** One write at a time, in order; a flush during a write waits for it, then writes what came meanwhile. */
  function flush(): Promise<void> {
    const run = (writing ?? Promise.resolve()).then(write);
    const settled = run.then(() => undefined, () => undefined);
    writing = settled;
    void settled.then(() => {
      if (writing === settled) writing = undefined;
      if (!writing && chars >= BATCH_CHARS && !waiting && !closed) background();
    });
    return run;
  }

  const background = () => void flush().catch(logError);
  const soonAfter = () => {
    if (soonTimer !== undefined) return;
    soonTimer = setTimeout(background, SOON_MS);
    soonTimer.unref();
  };

  return {
    keep,
    get queued() {
      return buffer.length;
    },
    record(entry, soon = false) {
      if (keep <= 0 || closed) return;
      buffer.push(entry);
      if (buffer.length > MAX_BUFFERED) trimBuffer();
      chars += (entry.request_body?.length ?? 0) + (typeof entry.response_body === 'string' ? entry.response_body.length : 0);
      if (chars >= BATCH_CHARS && !waiting) {
        // (one write at a time: a write under way goes on to this batch when it ends, in flush)
        if (!writing) background();
        return;
      }
      if (soon) changes = true;
      if (soon && listeners.size > 0) soonAfter();
      else if (timer === undefined) {
        timer = setTimeout(background, FLUSH_MS);
        timer.unref();
      }
    },
    flush,
    onWritten(listener) {
      listeners.add(listener);
      // a change that came while nobody listened goes out soon now
      if (changes && !closed) soonAfter();
      return () => listeners.delete(listener);
    },
    async close() {
      await flush().catch(logError);
      closed = true;
      clearTimeout(timer);
      clearTimeout(soonTimer);
    },
  };
}
