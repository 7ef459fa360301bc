// The journal's room in bytes (serve --journal-max-bytes), on each engine, below the HTTP layer: a noisy
// company's traffic of incompressible bodies, many times the room, leaves the journal within it (SQLite:
// its file and write-ahead log on disk; PostgreSQL: the bytes of what it keeps), its oldest entries
// dropped and counted, and a quiet company's entries kept whole.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/index.js';
import type { JournalRow, JournalStore, NewJournalEntry } from '../../src/server/store/port.js';
import { addTestCompany, ENGINE, request, startTestServer, type TestServer } from '../support/server.js';

const ROOM = 1024 ** 2;
/** per entry: a request and an answer of random hex (deflate keeps half of it), 2 × 1,500 characters */
const BODY = 1500;
const NOISY_BATCHES = 60;
const PER_BATCH = 20;

let clock = 1_700_000_000_000;
function entry(company: number, path: string): NewJournalEntry {
  clock += 10;
  const body = () => JSON.stringify({ noise: randomBytes(BODY / 2 - 6).toString('hex') });
  return { company_id: company, at: clock, sandbox_at: clock, direction: 'in', method: 'POST', path, status: 201, invoice_id: null, duration_ms: 1, request_body: body(), response_body: body(), detail: '{}' };
}
const paths = (rows: JournalRow[]) => rows.map((row) => row.path);
/** an entry's bytes as PostgreSQL's room counts them (postgres/journal.ts ENTRY_OVERHEAD and its texts) */
const counted = (row: JournalRow) => 64 + row.path.length + row.detail.length + (row.request_body?.length ?? 0) + (row.response_body?.length ?? 0);

async function listAll(journal: JournalStore, company: number): Promise<JournalRow[]> {
  const all: JournalRow[] = [];
  for (let after = 0; ; ) {
    const page = await journal.list(company, {}, after, 500);
    if (page.length === 0) return all;
    all.push(...page);
    after = page.at(-1)!.id;
  }
}

/** Writes the quiet company's 20 entries, then the noisy one's 1,200 (some 3.6 MB), in batches, within ROOM. */
async function fill(journal: JournalStore, noisy: number, quiet: number): Promise<void> {
  await journal.append(Array.from({ length: PER_BATCH }, (_, k) => entry(quiet, `/quiet/${k + 1}`)), 10_000, undefined, ROOM);
  for (let b = 0; b < NOISY_BATCHES; b++) {
    await journal.append(Array.from({ length: PER_BATCH }, (_, k) => entry(noisy, `/noisy/${b * PER_BATCH + k + 1}`)), 10_000, undefined, ROOM);
  }
}

/** The noisy company's newest kept, its oldest dropped and counted; the quiet one's all there. */
async function expectTrimmed(journal: JournalStore, noisy: number, quiet: number): Promise<JournalRow[]> {
  const total = NOISY_BATCHES * PER_BATCH;
  const kept = await listAll(journal, noisy);
  const state = await journal.state(noisy);
  expect(kept.length).toBeGreaterThan(50);
  expect(kept.length).toBeLessThan(total / 2);
  expect(state.dropped).toBe(total - kept.length);
  expect(kept.at(-1)?.path).toBe(`/noisy/${total}`);
  expect(kept[0]?.path).toBe(`/noisy/${state.dropped + 1}`);
  expect(paths(await listAll(journal, quiet))).toEqual(Array.from({ length: PER_BATCH }, (_, k) => `/quiet/${k + 1}`));
  expect((await journal.state(quiet)).dropped).toBe(0);
  return kept;
}

/** A SQLite store on a file of a new folder, given its path, closed and removed after `fn`. */
async function withFileStore(fn: (store: ReturnType<typeof openStore>, db: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-journal-bytes-'));
  try {
    const db = join(dir, 'p.db');
    const store = openStore(db);
    try {
      await fn(store, db);
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/** the journal's file and its write-ahead log, as they are on disk now */
const onDisk = (db: string) => statSync(`${db}-requests`).size + (statSync(`${db}-requests-wal`, { throwIfNoEntry: false })?.size ?? 0);

describe.skipIf(ENGINE !== 'sqlite')('the journal file within --journal-max-bytes (SQLite)', () => {
  it('keeps the file and its write-ahead log within the room, the noisy company’s oldest dropped and counted', () => withFileStore(async (store, db) => {
    await fill(store.journal, 1, 2);
    // (the log's slack included: a checkpoint is due at an eighth of the room)
    expect(onDisk(db)).toBeLessThanOrEqual(ROOM * 1.15);
    await expectTrimmed(store.journal, 1, 2);
  }));

  it('rewrites a file left larger than the room once its trim has freed the pages', () => withFileStore(async (store, db) => {
    // kept unbounded first (a pinvoice before --journal-max-bytes), then bounded
    for (let b = 0; b < 60; b++) await store.journal.append(Array.from({ length: PER_BATCH }, (_, k) => entry(1, `/old/${b * PER_BATCH + k}`)), 10_000);
    expect(onDisk(db)).toBeGreaterThan(2 * ROOM);
    await store.journal.append([entry(1, '/bounded')], 10_000, undefined, ROOM);
    expect(onDisk(db)).toBeLessThanOrEqual(ROOM * 1.15);
    expect((await listAll(store.journal, 1)).at(-1)?.path).toBe('/bounded');
  }));
});

describe.skipIf(ENGINE !== 'postgres')('the journal within --journal-max-bytes (PostgreSQL)', () => {
  let server: TestServer;
  let noisy: number;
  let quiet: number;
  beforeAll(async () => {
    server = await startTestServer({ journal: 0 }); // the server records nothing itself: this test writes alone
    noisy = (await request(server, 'GET', '/api/v2/company')).body.id;
    quiet = await addTestCompany(server, 'pinv_test_journal_bytes_quiet', 'Loja Quieta');
  });
  afterAll(() => server.close());

  it('keeps the bytes of what it holds within the room, the noisy company’s oldest dropped and counted', async () => {
    await fill(server.store.journal, noisy, quiet);
    const kept = await expectTrimmed(server.store.journal, noisy, quiet);
    const quietRows = await listAll(server.store.journal, quiet);
    const bytes = [...kept, ...quietRows].reduce((sum, row) => sum + counted(row), 0);
    expect(bytes).toBeLessThanOrEqual(ROOM);
    expect(bytes).toBeGreaterThan(ROOM * 0.8);
  });
});
