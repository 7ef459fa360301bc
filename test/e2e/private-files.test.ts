// Files pinvoice writes (docs/serve.md, "Files pinvoice writes"), with the built binary under umask 000:
// a database and its journal left readable by others are made owner-only at the next serve, said once;
// whatever serve, serve ca, login, --write-env and a batch's --out create is 0600, each folder 0700.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, serve, tempHome } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_private_files_token_01';
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
/**
 * The umask a shell's `umask 000` hands down, set before pinvoice's first line runs (a process
 * option, so that the suite's own run and serve start the binary): every mode is then pinvoice's.
 */
const UMASK_000: Record<string, string> = { NODE_OPTIONS: '--import=data:text/javascript,process.umask(0)' };

/** Every file and folder under `root` (not root itself) whose mode is not 0600 (file) or 0700 (folder). */
function notPrivate(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    const path = join(entry.parentPath, entry.name);
    const want = entry.isDirectory() ? '700' : '600';
    return mode(path) === want ? [] : [`${path} is ${mode(path)}`];
  });
}

it('the umask reaches the binary: a file made without a mode is 0666 there', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'pinvoice-umask-')), 'plain');
  const made = spawnSync(process.execPath, ['-e', `require('node:fs').writeFileSync(${JSON.stringify(file)}, '')`], { env: { PATH: process.env.PATH, ...UMASK_000 } });
  expect(made.status).toBe(0);
  expect(mode(file)).toBe('666');
});

// The database's files: SQLite's alone (on PostgreSQL nothing of the database is on this disk)
describe.runIf(ENGINE === 'sqlite')('a database whose files were left 0644', () => {
  it('serve makes the database, its journal and the -wal and -shm of both 0600, and says so in one line', async () => {
    const env = { ...tempHome(), ...UMASK_000 };
    const db = join(env.HOME ?? '', 'earlier.db');
    const args = ['--port', '0', '--db', db, '--token', TOKEN];
    const first = await serve(args, env);
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    expect((await fetch(`${first.url}/api/v2/invoices`, { method: 'POST', headers, body: JSON.stringify(validPix()) })).status).toBe(200);
    await first.stop('SIGKILL'); // as after a crash: the -wal and -shm of both files stay behind
    const files = ['', '-wal', '-shm', '-requests', '-requests-wal', '-requests-shm'].map((suffix) => `${db}${suffix}`);
    for (const file of files) chmodSync(file, 0o644); // restored from a backup, copied by a script

    const again = await serve(args, env);
    expect(files.map(mode)).toEqual(files.map(() => '600'));
    expect(await again.stop()).toBe(0);
    const told = again.stderr().split('\n').filter((line) => files.some((file) => line.includes(file)));
    expect(told).toEqual([`made owner-only, as other users could read them: ${files.map((file) => `${file} (was 644)`).join(', ')}`]);
    expect(notPrivate(env.HOME ?? '')).toEqual([]);
  });

  // only root can hand a file to another user
  it.runIf(process.getuid?.() === 0)("another user's journal left 0644 is refused at start, naming it and the chmod; nothing is changed", async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'shared.db');
    expect((await run(['serve', 'company', 'list', '--db', db], { env })).code).toBe(0);
    const journal = `${db}-requests`;
    chmodSync(journal, 0o644);
    chownSync(journal, 65534, 65534);
    const result = await run(['serve', '--port', '0', '--db', db], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`pinvoice: ${journal} may be read by other users (mode 644) and belongs to another user: make it owner-only (chmod 600 ${journal}) or use another --db\n`);
    expect([mode(journal), statSync(journal).uid]).toEqual(['644', 65534]);
  });

  it('a file that is not a database keeps its mode: it is refused, never made ours', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'notes.txt');
    writeFileSync(db, 'shopping list: milk, eggs\n');
    chmodSync(db, 0o644);
    expect((await run(['serve', 'company', 'list', '--db', db], { env })).code).toBe(1);
    expect(mode(db)).toBe('644');
  });
});

describe('what a fresh start creates under umask 000', () => {
  it('serve, serve ca, login, --write-env and a batch --out: every file 0600, every folder 0700', { timeout: 60_000 }, async () => {
    const env = { ...tempHome(), ...UMASK_000 };
    const home = env.HOME ?? '';
    const db = join(home, 'shop', 'data', 'fresh.db');
    const batch = join(mkdtempSync(join(tmpdir(), 'pinvoice-batch-in-')), 'charges.ndjson');
    writeFileSync(batch, `${JSON.stringify(validPix())}\n`);
    const server = await serve(['--port', '0', '--db', db, '--token', TOKEN, '--write-env', join(home, 'ci.env')], env);
    try {
      const steps = [
        await run(['serve', 'ca', '--db', db], { env }),
        await run(['login', '--profile', 'local', '--base-url', server.url, '--token-stdin'], { env, input: `${TOKEN}\n` }),
        await run(['invoice', 'create', '--batch', batch, '--out', join(home, 'results.ndjson')], { env }),
      ];
      expect(steps.map((step) => [step.code, step.stderr.includes('owner-only')])).toEqual([[0, false], [0, false], [0, false]]);
      const made = [
        'ci.env', 'results.ndjson', 'config/pinvoice/config.json', `data/pinvoice/servers/${server.child.pid}.json`,
        ...(ENGINE === 'sqlite' ? ['shop/data/fresh.db', 'shop/data/fresh.db-requests', 'shop/data/fresh.db.pix-keys/ca.crt', 'shop/data/fresh.db.pix-keys/ca.json'] : []),
      ];
      expect(made.filter((path) => !existsSync(join(home, path)))).toEqual([]);
      if (ENGINE === 'postgres') expect(readdirSync(join(home, 'data/pinvoice/pix-keys'))).toEqual([expect.stringMatching(/^postgres-/)]);
      expect(notPrivate(home)).toEqual([]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.stderr()).not.toContain('owner-only');
    expect(notPrivate(home)).toEqual([]);
  });
});
