// The journal's writer thread (journal-file.ts): it owns the one connection that writes the journal's
// file, so the main thread spends nothing on a batch but handing it over. Each message is one call,
// answered with its id.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createJournalWrites, openJournalFile, type JournalWrites } from './journal.js';

export type JournalCall =
  | { id: number; op: 'append'; args: Parameters<JournalWrites['append']> }
  | { id: number; op: 'clear'; args: [number] }
  | { id: number; op: 'clearAll'; args: [] }
  | { id: number; op: 'close'; args: [] };

export type JournalAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code?: string };

/**
 * The journal is background work: this thread gives way to the one answering requests (and, on a
 * small machine, to the clients making them). Linux only (a thread is named by its id under
 * /proc/thread-self); elsewhere it runs at the process's priority.
 */
function yieldToRequests(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
  } catch {
    // not Linux, or not allowed: the default priority
  }
}

yieldToRequests();
const { db } = openJournalFile((workerData as { file: string }).file);
const writes = createJournalWrites(db);
const port = parentPort;
port?.on('message', (call: JournalCall) => {
  try {
    let value: unknown;
    if (call.op === 'append') writes.append(...call.args);
    else if (call.op === 'clear') value = writes.clear(...call.args);
    else if (call.op === 'clearAll') writes.clearAll();
    else db.close();
    port.postMessage({ id: call.id, ok: true, value } satisfies JournalAnswer);
    if (call.op === 'close') port.close();
  } catch (error) {
    const { message, code } = error as { message?: string; code?: unknown };
    port.postMessage({ id: call.id, ok: false, message: message ?? String(error), ...(typeof code === 'string' && { code }) } satisfies JournalAnswer);
  }
});
