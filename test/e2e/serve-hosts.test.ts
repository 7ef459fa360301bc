// `pinvoice serve`'s own names with the built binary (src/server/own-host.ts): `--allowed-host` lets a
// Compose service's name in and refuses a name with a port; a wildcard --host answers at the machine's
// addresses; serve's first sign-in link names --public-host, else the listening address; and no
// Strict-Transport-Security under --tls on loopback. Raw HTTP: fetch cannot set a Host.
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { rawRequest } from '../support/raw-http.js';

const TOKEN = 'ci_fixed_token_0123456789';
const portOf = (server: ServeProcess) => new URL(server.url).port;
const page = (server: ServeProcess, host: string, path = '/dashboard') => rawRequest(`http://127.0.0.1:${portOf(server)}${path}`, { host });
const link = (server: ServeProcess, host: string) =>
  rawRequest(`http://127.0.0.1:${portOf(server)}/api/v2/sandbox/dashboard/links`, { method: 'POST', host, headers: { authorization: `Bearer ${TOKEN}` } });

/** The line of the first start's one-time link, once serve has printed it. */
async function firstLink(server: ServeProcess): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = /^\s+(https?:\/\/\S+\/dashboard\/sign-in\?code=\S+)$/m.exec(server.stderr())?.[1];
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`serve printed no sign-in link: ${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An address of this machine that is not loopback (a wildcard --host answers at it), if it has one. */
const outside = Object.values(networkInterfaces()).flatMap((list) => list ?? []).find((entry) => !entry.internal && entry.family === 'IPv4')?.address;

describe('serve --allowed-host', () => {
  it('--allowed-host pinvoice lets Host: pinvoice:PORT in (its pages and its links); without it, 403 naming the flag', async () => {
    const allowed = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN, '--allowed-host', 'pinvoice'], tempHome());
    const plain = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
    try {
      const host = `pinvoice:${portOf(allowed)}`;
      expect((await page(allowed, host)).status).toBe(200);
      const answer = await link(allowed, host);
      expect(JSON.parse(answer.text).url).toMatch(new RegExp(`^http://pinvoice:${portOf(allowed)}/dashboard/sign-in\\?code=`));
      const refused = await page(plain, `pinvoice:${portOf(plain)}`);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('start it with --allowed-host pinvoice');
      expect(JSON.parse((await link(plain, `pinvoice:${portOf(plain)}`)).text).message).toContain('--allowed-host pinvoice');
    } finally {
      await Promise.all([allowed.stop(), plain.stop()]);
    }
  });

  it('a name with a port, or a URL, is refused at start (exit 2), naming the flag', async () => {
    for (const given of ['pinvoice:4010', 'http://pinvoice']) {
      const refused = await run(['serve', '--port', '0', '--db', ':memory:', '--allowed-host', given], { env: tempHome() });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`--allowed-host "${given}": must be a host name or address without a port`);
    }
  });
});

describe('serve --host 0.0.0.0', () => {
  it('answers its pages at the machine’s addresses and at 0.0.0.0, not at another name; its first link names localhost', async () => {
    const server = await serve(['--host', '0.0.0.0', '--port', '0', '--db', ':memory:'], tempHome());
    try {
      expect(await firstLink(server)).toMatch(new RegExp(`^http://localhost:${portOf(server)}/dashboard/sign-in\\?code=`));
      expect((await page(server, `0.0.0.0:${portOf(server)}`)).status).toBe(200);
      if (outside) expect((await page(server, `${outside}:${portOf(server)}`)).status).toBe(200);
      expect((await page(server, `203.0.113.9:${portOf(server)}`)).status).toBe(403);
      expect((await page(server, `evil.example:${portOf(server)}`)).status).toBe(403);
    } finally {
      await server.stop();
    }
  });
});

describe('serve --public-host', () => {
  it('is one of its names, and the first start’s sign-in link names it', async () => {
    const server = await serve(['--port', '0', '--db', ':memory:', '--public-host', 'pix.example.test'], tempHome());
    try {
      expect(await firstLink(server)).toMatch(/^http:\/\/pix\.example\.test\/dashboard\/sign-in\?code=[A-Za-z0-9_-]{43}$/);
      expect((await page(server, 'pix.example.test')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('serve --tls on loopback', () => {
  it('answers no Strict-Transport-Security (it would pin every port of localhost in the browser)', async () => {
    const env = tempHome();
    const db = join(env.HOME ?? '', 'tls.db');
    const ca = readFileSync((await run(['serve', 'ca', '--db', db], { env })).stdout.trim(), 'utf8');
    const server = await serve(['--tls', '--port', '0', '--db', db, '--token', TOKEN], env);
    try {
      const host = `localhost:${portOf(server)}`;
      for (const [path, headers] of [['/dashboard', {}], ['/api/v2/company', { authorization: `Bearer ${TOKEN}` }], ['/health', {}]] as const) {
        const answer = await rawRequest(`https://127.0.0.1:${portOf(server)}${path}`, { host, headers, ca });
        expect([path, answer.status]).toEqual([path, 200]);
        expect(answer.headers['strict-transport-security'], path).toBeUndefined();
      }
    } finally {
      await server.stop();
    }
  });
});
