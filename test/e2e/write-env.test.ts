// `serve --write-env PATH` and `webhooks secret --env`: what a CI job sources to reach the server it
// started (PINVOICE_BASE_URL, PINVOICE_TOKEN when known, PINVOICE_WEBHOOK_SECRET), owner-only.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, serve, tempHome } from '../support/cli.js';

const NAMES = ['PINVOICE_BASE_URL', 'PINVOICE_TOKEN', 'PINVOICE_WEBHOOK_SECRET'] as const;

/** The PINVOICE_ variables a bash that sources the file exports (`set -a; . file`), nothing else set. */
function sourced(file: string): Record<string, string> {
  const env = execFileSync('bash', ['--norc', '--noprofile', '-c', 'set -a; . "$1"; env -0', 'bash', file], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
  return Object.fromEntries(env.split('\0').filter((line) => line.startsWith('PINVOICE_')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

const folder = () => mkdtempSync(join(tmpdir(), 'pinvoice-env-'));
const modeOf = (file: string) => statSync(file).mode & 0o777;
async function secretOf(url: string, token: string): Promise<string> {
  const answer = (await (await fetch(`${url}/api/v2/webhooks/secret`, { headers: { authorization: `Bearer ${token}` } })).json()) as { webhook_secret: string };
  return answer.webhook_secret;
}

describe('serve --write-env', () => {
  it('writes the three variables owner-only before the listening line; sourced, they are what the CLI runs with', async () => {
    const dir = folder();
    const file = join(dir, 'ci.env');
    writeFileSync(file, 'OLD=1\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const server = await serve(['--port', '0', '--db', ':memory:', '--write-env', file], tempHome());
    try {
      // the file is there, whole, when the line is read
      expect(modeOf(file)).toBe(0o600);
      const vars = sourced(file);
      expect(Object.keys(vars).sort()).toEqual([...NAMES]);
      expect(vars.PINVOICE_BASE_URL).toBe(server.url);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.stderr()).toContain(`  ${vars.PINVOICE_TOKEN}\n`);
      expect(vars.PINVOICE_WEBHOOK_SECRET).toBe(await secretOf(server.url, vars.PINVOICE_TOKEN ?? ''));
      expect(readFileSync(file, 'utf8')).not.toContain('OLD');

      // no profile, no flags: the environment alone reaches the server
      const created = await run(
        ['invoice', 'create', '--method', 'pix', '--payer-name', 'Fulano de Tal', '--payer-email', 'f@example.com', '--payer-document', '529.982.247-25', '--item', 'Camiseta:1:19,90', '--no-input', '--json'],
        { env: { ...tempHome(), ...vars } },
      );
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout).status).toBe('pending');

      // `webhooks secret --env` prints the same lines, for the connection of the run
      const printed = await run(['webhooks', 'secret', '--env'], { env: { ...tempHome(), ...vars } });
      expect(printed.code).toBe(0);
      expect(printed.stdout).toBe(readFileSync(file, 'utf8'));
      const both = await run(['webhooks', 'secret', '--env', '--json'], { env: { ...tempHome(), ...vars } });
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/--env.*--json|--json.*--env/);
    } finally {
      await server.stop();
    }
  });

  it('webhooks secret --env for a profile: sourced, it gives the profile’s server, token and secret', async () => {
    const dir = folder();
    const home = tempHome();
    const server = await serve(['--port', '0', '--db', ':memory:', '--token', 'ci_fixed_token_0123456789'], tempHome());
    try {
      const login = await run(['login', '--profile', 'local', '--base-url', server.url, '--token-stdin'], { env: home, input: 'ci_fixed_token_0123456789' });
      expect(login.code).toBe(0);
      const printed = await run(['webhooks', 'secret', '--env', '--profile', 'local'], { env: home });
      expect(printed.code).toBe(0);
      writeFileSync(join(dir, 'printed.env'), printed.stdout);
      expect(sourced(join(dir, 'printed.env'))).toEqual({
        PINVOICE_BASE_URL: server.url,
        PINVOICE_TOKEN: 'ci_fixed_token_0123456789',
        PINVOICE_WEBHOOK_SECRET: await secretOf(server.url, 'ci_fixed_token_0123456789'),
      });
    } finally {
      await server.stop();
    }
  });

  it('a restart writes the token only when it knows it (--token); odd characters are quoted for bash', async () => {
    const dir = folder();
    const db = join(dir, 'dev.db');
    const file = join(dir, 'ci.env');
    const first = await serve(['--port', '0', '--db', db], tempHome());
    await first.stop();
    const again = await serve(['--port', '0', '--db', db, '--write-env', file], tempHome());
    try {
      expect(Object.keys(sourced(file)).sort()).toEqual(['PINVOICE_BASE_URL', 'PINVOICE_WEBHOOK_SECRET']);
      expect(again.stderr()).toContain(`--write-env: PINVOICE_TOKEN left out of ${file}`);
    } finally {
      await again.stop();
    }
    const odd = 'ci$HOME~tok#en:"x"`1`';
    const fixed = await serve(['--port', '0', '--db', db, '--token', odd, '--write-env', file], tempHome());
    try {
      expect(sourced(file).PINVOICE_TOKEN).toBe(odd);
      expect((await fetch(`${fixed.url}/api/v2/company`, { headers: { authorization: `Bearer ${odd}` } })).status).toBe(200);
    } finally {
      await fixed.stop();
    }
  }, 60_000); // three starts of serve, one after the other: on PostgreSQL under a full run's load one took 20 s

  it.each([
    [['--write-env', '/nonexistent-folder/ci.env'], '--write-env /nonexistent-folder/ci.env: the folder /nonexistent-folder does not exist'],
    [['--write-env', tmpdir()], `--write-env ${tmpdir()} is a folder, not a file`],
    [['--write-env', join(tmpdir(), 'never.env'), '--token', "it's_a_quoted_token"], '--write-env: PINVOICE_TOKEN holds a single quote'],
  ])('refuses %j before starting (exit 2)', async (args, message) => {
    const result = await run(['serve', '--port', '0', '--db', ':memory:', ...args], { env: tempHome() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });
});
