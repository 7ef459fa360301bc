// `serve --journal-max-bytes` end to end, with the built binary over real HTTP: creates with bodies that
// hardly compress, several times the room, leave the journal's files (SQLite: <db>-requests and its
// -wal) within it, the oldest entries dropped and counted by /api/v2/sandbox/requests; a bad size is
// refused before serve listens, naming the flag (exit 2).
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BATCH_CHARS } from '../../src/server/journal/recorder.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { call, dbFor, killAll, mapLimit, pixBody, removeWorkDirs, startServe, workDir } from '../support/processes.js';
import { eventually } from '../support/receiver.js';

const TOKEN = 'pinv_test_journal_bytes_token_01';

afterAll(async () => {
  await killAll();
  removeWorkDirs();
});

describe(`serve --journal-max-bytes (${ENGINE})`, () => {
  it('keeps the journal within its room under creates many times its size, the oldest dropped and counted', { timeout: 90_000 }, async () => {
    const { dir, env } = workDir('pinvoice-journal-bytes-');
    const db = await dbFor(dir, 'bytes');
    const node = await startServe(['--port', '0', '--db', db, '--token', TOKEN, '--journal-max-bytes', '1MB'], env);
    // each create's request and answer carry 10 items named by 300 random characters: ~6 KB, deflated to ~4.5 KB
    const noisy = () => pixBody({ items: Array.from({ length: 10 }, () => ({ name: randomBytes(120).toString('hex'), description: randomBytes(120).toString('hex'), quantity: 1, unit_price: 199 })) });
    const CREATES = 600;
    const answers = await mapLimit(Array.from({ length: CREATES }), 8, () => call(node.url, TOKEN, 'POST', '/api/v2/invoices', noisy()));
    expect(answers.find((answer) => answer.status !== 200)).toBeUndefined();
    // every create is either kept or counted as dropped, the newest kept (the list's pages read to the end)
    const kept = await eventually(async () => {
      const ids: number[] = [];
      let dropped = 0;
      for (let after = 0; ; ) {
        const page = await call(node.url, TOKEN, 'GET', `/api/v2/sandbox/requests?method=POST&after=${after}&limit=200`);
        dropped = page.body.dropped;
        if (page.body.data.length === 0) break;
        ids.push(...page.body.data.map((entry: { id: number }) => entry.id));
        after = page.body.next_cursor;
      }
      return dropped > 0 && ids.length + dropped === CREATES && ids;
    }, 15_000, 'the creates kept or counted');
    expect(kept.length).toBeLessThan(CREATES / 2);
    expect(kept.at(-1)).toBe(CREATES);
    if (ENGINE === 'sqlite') {
      const size = (suffix: string) => statSync(`${db}-requests${suffix}`, { throwIfNoEntry: false })?.size ?? 0;
      // the room, and its slack: a batch (up to 256 KiB of bodies) is written before the trim that makes room for it,
      // and the log keeps the size of its last transaction until the next one resets it
      expect(size('') + size('-wal')).toBeLessThanOrEqual(1024 ** 2 + 2 * BATCH_CHARS);
    }
  });

  it.runIf(ENGINE === 'sqlite').each([['10'], ['64 parsecs'], ['2TB']])('refuses --journal-max-bytes %s before it listens, naming the flag', (size) => {
    const result = spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--db', ':memory:', '--journal-max-bytes', size], { env: cleanEnv({}), encoding: 'utf8', timeout: 15_000 });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('--journal-max-bytes');
    expect(result.stderr).toContain('e.g. 64MB');
    expect(result.stdout).toBe('');
  });
});
