// The journal's writing side in the proxy: each exchange gets its entry's id when it begins (the
// Pinvoice-Proxy-Entry header names it before the answer is sent), and its entry once it has ended
// and been checked, out of band (after the answer went out, on a later turn of the event loop). The
// store gives ids in the order entries are appended, so entries are handed to serve's recorder in id
// order: one that ends early waits for those begun before it (at most --timeout). With --record, each
// exchange's line is made there too, from its entry, and the drain's lines appended in one write.
import type { JournalRecorder } from '../server/journal/recorder.js';
import { createRecorder } from '../server/journal/recorder.js';
import type { NewJournalEntry } from '../server/store/port.js';
import type { JournalFile } from '../server/store/index.js';
import { PROXY_COMPANY } from './journal.js';
import type { Recording } from './record.js';

/** An exchange's line in the recording (--record), made from its entry; undefined: none. */
export type LineOf = (entry: NewJournalEntry) => string | undefined;

export interface ProxyWriter {
  /** the id the next exchange's entry will have */
  begin(): number;
  /** the entry of exchange `id`, made when it is first needed (off the answer's path); `line`: its recording's line, from the entry */
  end(id: number, make: () => NewJournalEntry, soon: boolean, line?: LineOf): void;
  /** serve's recorder, whose flush first waits for the entries being made */
  readonly recorder: JournalRecorder;
  close(): Promise<void>;
}

const failedEntry = (error: unknown): NewJournalEntry => ({
  company_id: PROXY_COMPANY, at: Date.now(), sandbox_at: Date.now(), direction: 'in', method: '?', path: '?', status: null, invoice_id: null,
  duration_ms: 0, request_body: null, response_body: null, detail: JSON.stringify({ error: `the entry could not be made: ${(error as Error).message}`, upstream: null, findings: [] }),
});

export async function createWriter(store: JournalFile, keep: { entries: number; bytes?: number | undefined }, log: (line: string) => void, recording?: Recording): Promise<ProxyWriter> {
  const recorder = createRecorder({ journal: store }, keep.entries, (error) => log(`journal: ${(error as Error).message}`), log, keep.bytes);
  let next = (await store.last(PROXY_COMPANY)) + 1;
  // (ids given after the newest entry: a clear keeps the count, and an entry lost takes its id)
  const state = await store.state(PROXY_COMPANY);
  next = Math.max(next, state.dropped_upto + 1);
  let toRecord = next;
  const done = new Map<number, { entry: NewJournalEntry; soon: boolean; line: LineOf | undefined }>();
  const making = new Map<number, { make: () => NewJournalEntry; soon: boolean; line: LineOf | undefined }>();
  let scheduled: NodeJS.Immediate | undefined;

  /** Makes the entries of ended exchanges (their checks), then hands those in order to the recorder. */
  function drain(): void {
    scheduled = undefined;
    for (const [id, { make, soon, line }] of making) {
      making.delete(id);
      try {
        done.set(id, { entry: make(), soon, line });
      } catch (error) {
        // its id is still taken, by an entry that says so: the ids after it stay those their headers named
        log(`journal: the entry of exchange ${id} could not be made: ${(error as Error).message}`);
        done.set(id, { entry: failedEntry(error), soon, line: undefined });
      }
    }
    const lines: string[] = [];
    for (let ready = done.get(toRecord); ready; ready = done.get(toRecord)) {
      done.delete(toRecord);
      if (ready.line) recordLine(toRecord, ready.line, ready.entry, lines);
      toRecord++;
      recorder.record(ready.entry, ready.soon);
    }
    if (lines.length > 0) recording?.append(lines);
  }

  function recordLine(id: number, line: LineOf, entry: NewJournalEntry, lines: string[]): void {
    try {
      const text = line(entry);
      if (text !== undefined) lines.push(text);
    } catch (error) {
      log(`recording: the line of exchange ${id} could not be made: ${(error as Error).message}`);
    }
  }

  return {
    begin: () => next++,
    end(id, make, soon, line) {
      making.set(id, { make, soon, line });
      scheduled ??= setImmediate(drain);
    },
    recorder: {
      get keep() {
        return recorder.keep;
      },
      record: recorder.record,
      onWritten: recorder.onWritten,
      close: recorder.close,
      async flush() {
        if (scheduled) {
          clearImmediate(scheduled);
          drain();
        }
        await recorder.flush();
      },
    },
    async close() {
      if (scheduled) clearImmediate(scheduled);
      drain();
      await recording?.close();
      await recorder.close();
      await store.close();
    },
  };
}
