// `pinvoice serve` as a user meets it on disk and on the network: several servers on one database, a busy
// port that creates nothing, owner-only files, files that are not databases, and the login line of
// `serve company add`.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type RunResult } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';

const TOKEN = 'ci_fixed_token_0123456789';
const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const oneLine = (result: RunResult) => {
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  noStackTrace(result.stderr);
};

describe('several serves on one database file', () => {
  it('a second serve on the same file starts and sees what the first wrote; company add and list work alongside', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'one.db');
    const first = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    const second = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    try {
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ method: 'pix', total_price_cents: 1990, payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' }, items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }] });
      const created: any = await (await fetch(`${first.url}/api/v2/invoices`, { method: 'POST', headers, body })).json();
      const seen = await fetch(`${second.url}/api/v2/invoices/${created.data.secureId}`, { headers });
      expect(seen.status).toBe(200);
      expect(((await seen.json()) as any).secureId).toBe(created.data.secureId);
      const added = await run(['serve', 'company', 'add', '--db', db, '--json'], { env });
      expect(added.code).toBe(0);
      const listed = await run(['serve', 'company', 'list', '--db', db, '--json'], { env });
      expect(JSON.parse(listed.stdout)).toHaveLength(2);
      for (const server of [first, second]) {
        expect((await fetch(`${server.url}/api/v2/company`, { headers: { authorization: `Bearer ${JSON.parse(added.stdout).token}` } })).status).toBe(200);
      }
    } finally {
      expect(await first.stop('SIGINT')).toBe(0);
      expect(await second.stop('SIGINT')).toBe(0);
    }
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it('a server killed with SIGKILL leaves nothing that blocks the next start', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'killed.db');
    const first = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    await first.stop('SIGKILL');
    const again = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    await again.stop();
  });

  it(':memory: servers run side by side, each with its own data', async () => {
    const servers = await Promise.all([1, 2].map(() => serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome())));
    await Promise.all(servers.map((server) => server.stop()));
  });
});

describe('a first start on a busy port', () => {
  it('creates no company (no token lost), and the next start shows the token', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'new.db');
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = String((busy.address() as net.AddressInfo).port);
    try {
      const refused = await run(['serve', '--port', port, '--db', db], { env });
      expect(refused.code).toBe(5);
      expect(refused.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(refused.stderr).not.toContain('pinv_test_');
      oneLine(refused);
    } finally {
      busy.close();
    }
    expect(JSON.parse((await run(['serve', 'company', 'list', '--db', db, '--json'], { env })).stdout)).toEqual([]);
    const started = await serve(['--port', '0', '--db', db], env);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(started.stderr()).toMatch(/shown this once:\n\n {2}pinv_test_\w+\n/);
    } finally {
      await started.stop();
    }
  });
});

describe('serve company add', () => {
  it('suggests a login into a new profile named after the company, which leaves the current profile alone', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'login.db');
    const server = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    try {
      expect((await run(['login', '--profile', 'local', '--base-url', server.url, '--token-stdin'], { env, input: TOKEN })).code).toBe(0);
      const added = await run(['serve', 'company', 'add', '--db', db, '--name', 'Loja São João'], { env });
      expect(added.code).toBe(0);
      const token = /token: (\S+)/.exec(added.stdout)?.[1] ?? '';
      expect(added.stderr).toContain(`printf '%s' '${token}' | pinvoice login --profile loja-sao-joao-2 --base-url ${server.url} --token-stdin`);
      expect(added.stderr).not.toMatch(/login (?!--profile loja-sao-joao-2 )/);
      const login = await run(['login', '--profile', 'loja-sao-joao-2', '--base-url', server.url, '--token-stdin'], { env, input: token });
      expect(login.code).toBe(0);
      const mine = await run(['whoami', '--profile', 'local', '--json'], { env });
      expect(JSON.parse(mine.stdout).fantasy_name).toBe('Pinvoice Sandbox');
      const theirs = await run(['whoami', '--profile', 'loja-sao-joao-2', '--json'], { env });
      expect(JSON.parse(theirs.stdout).fantasy_name).toBe('Loja São João');
    } finally {
      await server.stop();
    }
  });

  it('refuses a --name holding control characters (exit 2)', async () => {
    const env = tempHome();
    const result = await run(['serve', 'company', 'add', '--db', join(env.HOME ?? '', 'x.db'), '--name', 'Evil\u001b]0;pwned\u0007'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('pinvoice: --name must not contain control characters (U+001B at position 5)\n');
  });
});

// Files: SQLite's alone (on PostgreSQL the same tests' --db become databases, test/support/engine.ts)
describe.runIf(ENGINE === 'sqlite')('the database file on disk', () => {
  it('makes an existing 644 database and its -wal and -shm owner-only', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'shared.db');
    expect((await run(['serve', 'company', 'list', '--db', db], { env })).code).toBe(0);
    chmodSync(db, 0o644);
    const server = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    try {
      expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`)]).toEqual(['600', '600', '600']);
    } finally {
      await server.stop();
    }
  });

  it.each([[['serve', '--port', '0']], [['serve', 'company', 'list']], [['serve', 'company', 'add']]])(
    '%j --db on a file that is not SQLite: one line naming the path, exit 1', async (args) => {
      const env = tempHome();
      const db = join(env.HOME ?? '', 'notes.txt');
      writeFileSync(db, 'shopping list: milk, eggs\n'.repeat(50));
      const result = await run([...args, '--db', db], { env });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`pinvoice: cannot open database ${db}: the file is not a SQLite database (give --db a pinvoice database, or a new file name)\n`);
      expect(readFileSync(db, 'utf8')).toMatch(/^shopping list/);
    },
  );
});

/** Runs the binary as an unprivileged user when the tests run as root (root writes read-only files). */
function runUnprivileged(args: string[], env: Record<string, string>): Promise<RunResult> {
  const root = process.getuid?.() === 0;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
      ...(root && { uid: 65534, gid: 65534 }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.runIf(ENGINE === 'sqlite')('read-only files and folders', () => {
  const setUp = () => {
    const env = tempHome();
    const home = env.HOME ?? '';
    const folder = join(home, 'ro');
    mkdirSync(folder);
    if (process.getuid?.() === 0) [home, folder].forEach((dir) => chmodSync(dir, 0o777));
    return { env, folder };
  };

  it.each([[['serve', '--port', '0']], [['serve', 'company', 'list']]])('%j --db on a read-only file names it, exit 1', async (args) => {
    const { env, folder } = setUp();
    const db = join(folder, 'ro.db');
    expect((await runUnprivileged(['serve', 'company', 'list', '--db', db], env)).code).toBe(0);
    chmodSync(db, 0o400);
    const result = await runUnprivileged([...args, '--db', db], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^pinvoice: cannot open database ${db}: the file or its folder is read-only \\(SQLite: .*\\)\\n$`));
  });

  it('serve --db in a read-only folder names the path, exit 1', async () => {
    const { env, folder } = setUp();
    chmodSync(folder, 0o555);
    const db = join(folder, 'new.db');
    const result = await runUnprivileged(['serve', '--port', '0', '--db', db], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^pinvoice: cannot open database ${db}: .*\\n$`));
    noStackTrace(result.stderr);
  });
});

describe('a --db that is a URL', () => {
  it.each([
    [['serve', '--port', '0'], 'mysql://user:secret@127.0.0.1:3306/pinvoice', 'is a URL of a kind pinvoice does not know (mysql://)'],
    [['serve', 'company', 'list'], 'sqlite:///tmp/x.db', 'is a URL of a kind pinvoice does not know (sqlite://)'],
    [['serve', 'token', 'list'], 'redis://127.0.0.1/0', 'is a URL of a kind pinvoice does not know (redis://)'],
  ])('%j --db %s is refused, exit 2, and no file named after the URL appears', async (args, url, why) => {
    const env = tempHome();
    const cwd = env.HOME ?? '';
    const result = await new Promise<RunResult>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args, '--db', url], { cwd, env: { PATH: process.env.PATH, NO_COLOR: '1', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.code).toBe(2);
    expect(result.stderr.startsWith(`pinvoice: --db ${url} ${why}`), result.stderr).toBe(true);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(readdirSync(cwd).filter((name) => name.includes(':'))).toEqual([]);
  });

  it('says so when the URL came from PINVOICE_DB', async () => {
    const env = { ...tempHome(), PINVOICE_DB: 'mysql://127.0.0.1/pinvoice' };
    const result = await run(['serve', '--port', '0'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(it came from PINVOICE_DB)');
  });
});

describe("a client's mistakes are not the server's errors", () => {
  it('200 bad sign-ins (not a form, too large, bad JSON) and as many bad checkout forms write no stack trace', async () => {
    const server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
    try {
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ method: 'pix', total_price_cents: 1990, payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' }, items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }] });
      const created: any = await (await fetch(`${server.url}/api/v2/invoices`, { method: 'POST', headers, body })).json();
      const before = server.stderr();
      const bad: [string, number][] = [['text/plain', 415], ['application/x-www-form-urlencoded', 413], ['application/json', 400]];
      const sent = (path: string, [type, status]: [string, number]) => fetch(`${server.url}${path}`, {
        method: 'POST', headers: { 'content-type': type }, body: status === 413 ? `token=${'x'.repeat(64 * 1024)}` : status === 400 ? '{"token":' : 'token=x',
      }).then(async (response) => [status, response.status, await response.text()] as const);
      for (const path of ['/dashboard/sign-in', `/checkout/${created.data.token_checkout}/sandbox/pay`]) {
        for (let i = 0; i < 200; i += 20) {
          for (const [wanted, status] of await Promise.all(Array.from({ length: 20 }, (_, k) => sent(path, bad[(i + k) % 3] as [string, number])))) expect(status, path).toBe(wanted);
        }
      }
      // the server still answers, and has said nothing of any of them
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect(server.stderr().slice(before.length)).toBe('');
    } finally {
      await server.stop();
    }
  });
});
