// Is the file whole? SQLite's quick_check, on a read-only connection (a damaged file is never written
// to): before the server listens for a file up to 256 MiB, in a worker right after start for a larger
// one, so that start-up does not wait on reading the whole file.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** Files up to this size are checked before the server listens; larger ones right after, while it answers. */
export const CHECK_BEFORE_START_BYTES = 256 * 1024 * 1024;

const QUICK_CHECK = 'PRAGMA quick_check(1)';

/** quick_check's report on one line, without its "*** in database main ***" heading. */
export const oneLine = (report: string) => report.replace(/^\*\*\* in database \w+ \*\*\*\s*/, '').replace(/\s+/g, ' ').trim();

/** The first problem quick_check reports, or undefined when the file holds together. */
export function firstProblem(db: Database.Database): string | undefined {
  try {
    const first = db.prepare(QUICK_CHECK).pluck().get() as string | undefined;
    return first === 'ok' ? undefined : oneLine(first ?? 'quick_check answered nothing');
  } catch (error) {
    // a page too broken to walk is reported as an error rather than as a row
    if (String((error as { code?: unknown }).code).startsWith('SQLITE_CORRUPT')) return oneLine((error as Error).message);
    throw error;
  }
}

// The worker's code, self-contained: it runs as a script, in a thread of its own.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let answer;
try {
  const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  try {
    const first = db.prepare(${JSON.stringify(QUICK_CHECK)}).pluck().get();
    answer = { problem: first === 'ok' ? null : String(first) };
  } finally {
    db.close();
  }
} catch (error) {
  answer = { problem: String(error.message), code: String(error.code) };
}
parentPort.postMessage(answer);
`;

export interface BackgroundCheck {
  /** the first problem, or undefined when the file holds together */
  result: Promise<string | undefined>;
  /** ends the check unfinished (the server is stopping) */
  stop(): Promise<void>;
}

/** quick_check in a worker thread. */
export function checkInWorker(path: string): BackgroundCheck {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, path } });
  const result = new Promise<string | undefined>((resolve, reject) => {
    worker.once('message', (answer: { problem: string | null; code?: string }) => {
      const damaged = answer.code === undefined || answer.code.startsWith('SQLITE_CORRUPT') || answer.code === 'SQLITE_NOTADB';
      if (damaged) resolve(answer.problem === null ? undefined : oneLine(answer.problem));
      else reject(Object.assign(new Error(answer.problem ?? 'the check failed'), { code: answer.code }));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`the check of ${path} stopped (exit ${code})`)));
  });
  return { result, stop: async () => void (await worker.terminate()) };
}
