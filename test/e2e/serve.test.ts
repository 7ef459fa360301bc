import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, serve, tempHome } from '../support/cli.js';
import { postgresDatabase } from '../support/engine.js';
import { closedPort } from '../support/receiver.js';
import { ENGINE, validPix } from '../support/server.js';

const TOKEN = 'ci_fixed_token_0123456789';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const postInvoice = (url: string, token: string) =>
  fetch(`${url}/api/v2/invoices`, { method: 'POST', headers: { ...auth(token), 'content-type': 'application/json' }, body: JSON.stringify(validPix()) });
const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

/** The statements a PostgreSQL client sent (simple and extended queries' text), from its bytes after the untyped startup message. */
function statements(sent: Buffer): string[] {
  const found: string[] = [];
  for (let at = sent.length >= 4 ? sent.readInt32BE(0) : sent.length; at + 5 <= sent.length; at += 1 + sent.readInt32BE(at + 1)) {
    const type = String.fromCharCode(sent[at] ?? 0);
    const body = sent.subarray(at + 5, at + 1 + sent.readInt32BE(at + 1));
    // Query: the text; Parse: a statement name, then the text
    if (type === 'Q') found.push(body.toString('utf8').replace(/\0$/, ''));
    if (type === 'P') found.push(body.subarray(body.indexOf(0) + 1, body.indexOf(0, body.indexOf(0) + 1)).toString('utf8'));
  }
  return found;
}

describe('pinvoice serve', () => {
  it('prints one listening line on stdout, and on a new database the token and the command that stores it', async () => {
    const env = tempHome();
    const server = await serve(['--port', '0'], env);
    try {
      expect(server.stdout()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
      await new Promise((r) => setTimeout(r, 100));
      const token = /\n {2}(pinv_test_\w+)\n/.exec(server.stderr())?.[1];
      expect(token).toBeDefined();
      expect(server.stderr()).toContain(`pinvoice login --profile local --base-url ${server.url} --token-stdin`);
      const company = await fetch(`${server.url}/api/v2/company`, { headers: auth(token ?? '') });
      expect(company.status).toBe(200);
      expect(existsSync(join(env.PINVOICE_DATA_DIR ?? '', 'pinvoice.db'))).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const again = await serve(['--port', '0'], env);
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(again.stderr()).not.toContain('pinv_test_');
    } finally {
      await again.stop();
    }
  });

  it('--token and PINVOICE_SERVE_TOKEN fix the seeded company’s token and never print it', async () => {
    for (const [args, env] of [[['--token', TOKEN], {}], [[], { PINVOICE_SERVE_TOKEN: TOKEN }]] as const) {
      const server = await serve(['--port', '0', '--db', ':memory:', ...args], { ...tempHome(), ...env });
      try {
        expect((await fetch(`${server.url}/api/v2/company`, { headers: auth(TOKEN) })).status).toBe(200);
        expect(server.stderr()).not.toContain(TOKEN);
      } finally {
        await server.stop();
      }
    }
  });

  it('a port in use is a clear error with exit code 5, not a stack trace', async () => {
    const first = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
    try {
      const port = new URL(first.url).port;
      const second = await run(['serve', '--port', port, '--db', ':memory:'], { env: tempHome() });
      expect(second.code).toBe(5);
      expect(second.stdout).toBe('');
      expect(second.stderr).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use`));
      noStackTrace(second.stderr);
    } finally {
      await first.stop();
    }
  });

  // The PostgreSQL store's LISTEN connection is taken as the app is made, before the port is bound: a
  // start that could not listen closed the store while that connection was still on its way (a
  // database slow to accept, or a loaded machine), and the pool's end waited for it to be given back,
  // which it never was: the process stayed up. Here the pool's first connection (the LISTEN one: the
  // migrations' own comes before the pool, and the pool opens its connections in the order asked
  // for) takes 1.5 s to open; what each connection then sent says that it was the one on its way.
  it.skipIf(ENGINE !== 'postgres')('a port in use ends serve at once even while a PostgreSQL connection is slow to open', async () => {
    const database = new URL(await postgresDatabase());
    const upstream = { host: database.hostname, port: Number(database.port) };
    const connections: { late: boolean; sent: Buffer[] }[] = [];
    const slow = net.createServer((socket) => {
      socket.pause();
      const connection = { late: connections.length === 1, sent: [] as Buffer[] };
      connections.push(connection);
      setTimeout(() => {
        const backend = net.connect(upstream, () => socket.resume());
        socket.on('data', (chunk: Buffer) => connection.sent.push(chunk));
        socket.pipe(backend).pipe(socket);
        const end = () => (socket.destroy(), backend.destroy());
        socket.on('error', end).on('close', end);
        backend.on('error', end).on('close', end);
      }, connection.late ? 1500 : 20);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as net.AddressInfo).port);
      database.port = String((slow.address() as net.AddressInfo).port);
      const started = Date.now();
      const result = await run(['serve', '--port', port, '--db', database.href], { env: tempHome(), timeoutMs: 10_000 });
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(Date.now() - started).toBeLessThan(8_000);
      // the slow one reached the database after the store had closed, and was given back unused (no
      // statement on it); no connection LISTENed: the LISTEN one was that slow one
      const late = connections.find((connection) => connection.late);
      expect(late, `the slowed connection was never opened (${connections.length} were)`).toBeDefined();
      expect(statements(Buffer.concat(late?.sent ?? [])), 'statements on the slowed connection').toEqual([]);
      for (const connection of connections) expect(statements(Buffer.concat(connection.sent)).filter((text) => /^LISTEN\b/.test(text))).toEqual([]);
      expect(connections.some((connection) => statements(Buffer.concat(connection.sent)).length > 0), 'the other connections did the start\'s work').toBe(true);
    } finally {
      taken.close();
      slow.close();
    }
  });

  it.each([
    [['--port', '70000'], /--port/],
    [['--port', 'abc'], /--port/],
    [['--token', 'short'], /--token/],
    [['--pix-expiry', '0'], /--pix-expiry/],
  ])('rejects bad flags %j with exit code 2', async (args, message) => {
    const result = await run(['serve', '--db', ':memory:', ...args], { env: tempHome() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    noStackTrace(result.stderr);
  });

  it.runIf(ENGINE === 'postgres')('a PostgreSQL server that cannot be reached is a clear error that keeps the password out', async () => {
    const env = tempHome();
    const result = await run(['serve', '--port', '0', '--db', `postgres://alice:s3cret@127.0.0.1:${await closedPort()}/team`], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^pinvoice: cannot open database postgres:\/\/…@127\.0\.0\.1:\d+\/team: connect ECONNREFUSED/);
    expect(result.stderr).not.toContain('s3cret');
    noStackTrace(result.stderr);
  });

  it.runIf(ENGINE === 'sqlite')('a database that cannot be opened is a clear error', async () => {
    const env = tempHome();
    const notADirectory = join(env.HOME ?? '', 'a-file');
    writeFileSync(notADirectory, 'not a directory');
    const result = await run(['serve', '--port', '0', '--db', join(notADirectory, 'nope.db')], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot open database .*a-file\/nope\.db/);
    noStackTrace(result.stderr);
  });

  it('SIGINT and SIGTERM close the server and the database cleanly (exit 0, WAL checkpointed)', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const env = tempHome();
      const db = join(env.HOME ?? '', 'signal.db');
      const server = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
      const inFlight = postInvoice(server.url, TOKEN);
      expect((await inFlight).status).toBe(200);
      expect(await server.stop(signal)).toBe(0);
      expect(server.stderr()).toContain(`${signal}: finishing requests in flight`);
      if (ENGINE === 'sqlite') expect(existsSync(`${db}-wal`)).toBe(false);
    }
  });

  it('a SIGTERM sent the moment "listening on" is read closes cleanly too (a new database: the token is still being announced)', async () => {
    for (let i = 0; i < 8; i++) {
      const env = tempHome();
      const server = await serve(['--port', '0', '--db', join(env.HOME ?? '', `quick-${i}.db`)], env);
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  });

  it('an invoice answered with 200 survives a killed process', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'killed.db');
    const server = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    const { data: created }: any = await (await postInvoice(server.url, TOKEN)).json();
    await server.stop('SIGKILL');
    const again = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    try {
      const found = await fetch(`${again.url}/api/v2/invoices?id=${created.secureId}`, { headers: auth(TOKEN) });
      expect(found.status).toBe(200);
      expect(((await found.json()) as any).id).toBe(created.id);
    } finally {
      await again.stop();
    }
  });

  it('serve company add creates an isolated company with its own token; company list never shows tokens', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'companies.db');
    const server = await serve(['--port', '0', '--db', db, '--token', TOKEN], env);
    try {
      const added = await run(['serve', 'company', 'add', '--db', db, '--name', 'Loja Dois', '--json'], { env });
      expect(added.code).toBe(0);
      const company = JSON.parse(added.stdout);
      expect(company).toMatchObject({ id: 2, fantasy_name: 'Loja Dois' });
      const { data: mine }: any = await (await postInvoice(server.url, TOKEN)).json();
      expect((await fetch(`${server.url}/api/v2/invoices/${mine.id}`, { headers: auth(company.token) })).status).toBe(404);
      expect(((await (await fetch(`${server.url}/api/v2/company`, { headers: auth(company.token) })).json()) as any).fantasy_name).toBe('Loja Dois');
      const list = await run(['serve', 'company', 'list', '--db', db], { env });
      expect(list.stdout).toContain('Loja Dois');
      expect(list.stdout).not.toContain(company.token);
      expect(list.stdout).not.toContain(TOKEN);
      const bad = await run(['serve', 'company', 'add', '--db', db, '--cnpj', '11.222.333/0001-00'], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--cnpj .* is not a valid CNPJ/);
    } finally {
      await server.stop();
    }
  });

  it('pinvoice openapi prints the document the server publishes', async () => {
    const server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
    try {
      const printed = await run(['openapi']);
      expect(printed.code).toBe(0);
      const served = await (await fetch(`${server.url}/openapi.json`)).json();
      expect(JSON.parse(printed.stdout)).toEqual(served);
    } finally {
      await server.stop();
    }
  });
});

describe('pinvoice itself', () => {
  it('--help lists the commands and the exit codes; --version prints the version', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/serve/);
    expect(help.stdout).toMatch(/Exit codes:[\s\S]*130\s+cancelled/);
    const version = await run(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('an unknown command is a usage error (exit 2)', async () => {
    const result = await run(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command/);
  });
});
