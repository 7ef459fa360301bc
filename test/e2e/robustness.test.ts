// Everyday mistakes and hostile surroundings, through the built binary: a token of another company
// about to be overwritten, a broken config file, a closed pipe, bytes that are not UTF-8, a stale token.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { closedPort } from '../support/receiver.js';

const TOKEN = 'pinv_test_e2e_robustness_token_01';
const ROOT = new URL('../..', import.meta.url).pathname;
const CHARGE = join(ROOT, 'examples', 'charge.json');
const work = mkdtempSync(join(tmpdir(), 'pinvoice-robust-'));
const db = join(work, 'robust.db');
let server: ServeProcess;
beforeAll(async () => {
  server = await serve(['--port', '0', '--db', db, '--token', TOKEN], tempHome());
});
afterAll(() => server.stop());

const json = (text: string) => JSON.parse(text);
const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
/** A user of their own: an empty home and config folder. */
function user(): Record<string, string> {
  const home = tempHome();
  return { ...home, PINVOICE_CONFIG_DIR: join(home.HOME ?? '', 'cfg') };
}
const configOf = (env: Record<string, string>) => join(env.PINVOICE_CONFIG_DIR ?? '', 'config.json');
const storedToken = (env: Record<string, string>, profile: string) => json(readFileSync(configOf(env), 'utf8')).profiles[profile]?.token;
const login = (env: Record<string, string>, profile: string, token: string, extra: string[] = [], baseUrl = server.url) =>
  run(['login', '--profile', profile, '--base-url', baseUrl, '--token-stdin', ...extra], { env, input: token });
const file = (name: string, content: string | Buffer) => {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
};

describe('login never loses the token of another company', () => {
  it('refuses without --force, naming both companies and both ways out; --profile <new> keeps both; --force replaces', async () => {
    const env = user();
    expect((await login(env, 'local', TOKEN)).code).toBe(0);
    const added = await run(['serve', 'company', 'add', '--db', db, '--name', 'Loja Dois', '--json'], { env });
    expect(added.code, added.stderr).toBe(0);
    const other = json(added.stdout);
    const refused = await login(env, 'local', other.token);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('profile "local" holds the token of Pinvoice Sandbox (CNPJ');
    expect(refused.stderr).toContain(`this token is for Loja Dois (CNPJ ${other.cnpj}); nothing was changed`);
    expect(refused.stderr).toContain(`--profile loja-dois --base-url ${server.url}`);
    expect(refused.stderr).toContain('add --force');
    expect(storedToken(env, 'local')).toBe(TOKEN);
    expect((await login(env, 'loja-dois', other.token)).code).toBe(0);
    expect([storedToken(env, 'local'), storedToken(env, 'loja-dois')]).toEqual([TOKEN, other.token]);
    const forced = await login(env, 'local', other.token, ['--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(storedToken(env, 'local')).toBe(other.token);
  });

  it('a company of another server with the same CNPJ is another company: refused without --force', async () => {
    const env = user();
    expect((await login(env, 'prod', TOKEN)).code).toBe(0);
    const cnpj = json((await run(['whoami', '--profile', 'prod', '--json'], { env })).stdout).cnpj;
    const otherDb = join(work, `same-cnpj-${Date.now()}.db`);
    const other = await serve(['--port', '0', '--db', otherDb, '--token', 'pinv_test_other_server_token_0001'], tempHome());
    try {
      const twin = json((await run(['serve', 'company', 'add', '--db', otherDb, '--cnpj', cnpj, '--json'], { env })).stdout);
      const refused = await login(env, 'prod', twin.token, [], other.url);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('nothing was changed');
      expect(storedToken(env, 'prod')).toBe(TOKEN);
    } finally {
      await other.stop();
    }
  });

  it("a token its server no longer accepts (a reset database) is replaced without --force; an unrecorded one's server is asked", async () => {
    const env = user();
    mkdirSync(env.PINVOICE_CONFIG_DIR ?? '', { recursive: true });
    const write = (profile: Record<string, unknown>) => writeFileSync(configOf(env), JSON.stringify({ current: 'p', profiles: { p: { baseUrl: server.url, ...profile } } }));
    const other = json((await run(['serve', 'company', 'add', '--db', db, '--name', 'Loja Três', '--json'], { env })).stdout);
    // saved before companies were recorded: the server says whose the token is
    write({ token: TOKEN });
    const refused = await login(env, 'p', other.token);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('profile "p" holds the token of Pinvoice Sandbox');
    // recorded as another company, but the server has forgotten the token: nothing to lose
    write({ token: 'pinv_test_forgotten_by_the_server', company: { id: 1, cnpj: '11.222.333/0001-81', name: 'Gone' } });
    const replaced = await login(env, 'p', other.token);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(storedToken(env, 'p')).toBe(other.token);
    // recorded as another company, and its server cannot be asked: refused, naming the recorded company
    write({ baseUrl: `http://127.0.0.1:${await closedPort()}`, token: TOKEN, company: { id: 1, cnpj: '11.222.333/0001-81', name: 'Elsewhere' } });
    const unreachable = await login(env, 'p', other.token);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/holds the token of Elsewhere \(CNPJ 11\.222\.333\/0001-81\) \(http:\/\/127\.0\.0\.1:\d+ could not be asked: cannot connect/);
  });

  it("a rotated token of the same company replaces the profile's silently", async () => {
    const own = join(work, 'rotated.db');
    const first = await serve(['--port', '0', '--db', own, '--token', 'pinv_test_rotation_first_0001'], tempHome());
    const env = user();
    expect((await login(env, 'shop', 'pinv_test_rotation_first_0001', [], first.url)).code).toBe(0);
    await first.stop();
    // The same server (database and address), started with another token for its company: the new one is the same company's.
    const port = new URL(first.url).port;
    const again = await serve(['--port', port, '--db', own, '--token', 'pinv_test_rotation_second_002'], tempHome());
    try {
      const rotated = await login(env, 'shop', 'pinv_test_rotation_second_002', [], again.url);
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(storedToken(env, 'shop')).toBe('pinv_test_rotation_second_002');
    } finally {
      await again.stop();
    }
  });
});

describe('a config file that cannot be used', () => {
  it.each([
    ['garbage', 'garbage {', /it is not valid JSON/],
    ['empty', '', /it is empty/],
    ['profiles of the wrong type', '{"profiles": 5}', /"profiles" is not an object/],
    ['a profile of the wrong shape', '{"profiles": {"x": {"baseUrl": "http://a", "token": 7}}}', /the "token" of profile "x" is not a string/],
    ['cut short, a token in it', '{"profiles": {"x": {"baseUrl": "http://a", "token": "pinv_test_secret_never_shown"', /it is not valid JSON/],
  ])('%s: every command names the file and the way out, exit 1, no stack trace, never its content', async (_name, content, problem) => {
    const env = user();
    mkdirSync(env.PINVOICE_CONFIG_DIR ?? '', { recursive: true });
    writeFileSync(configOf(env), content);
    for (const args of [['profile', 'list'], ['logout', '--profile', 'x'], ['whoami'], ['profile', 'use', 'x']]) {
      const result = await run(args, { env });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(`the configuration file ${configOf(env)} cannot be used`);
      expect(result.stderr).toMatch(problem);
      expect(result.stderr).toContain('`pinvoice login` moves it aside');
      expect(result.stderr).not.toMatch(/unexpected error|pinv_test_secret_never_shown/);
      noStackTrace(result.stderr);
    }
    expect(readFileSync(configOf(env), 'utf8')).toBe(content);
  });

  it('login moves the broken file aside (owner-only) and starts a new one, saying so', async () => {
    const env = user();
    mkdirSync(env.PINVOICE_CONFIG_DIR ?? '', { recursive: true });
    writeFileSync(configOf(env), '{"profiles": 5}', { mode: 0o644 });
    const result = await login(env, 'local', TOKEN);
    expect(result.code, result.stderr).toBe(0);
    const aside = readdirSync(env.PINVOICE_CONFIG_DIR ?? '').find((name) => /^config\.json\.broken-\d{8}T\d{6}Z$/.test(name));
    expect(aside).toBeDefined();
    const asidePath = join(env.PINVOICE_CONFIG_DIR ?? '', aside ?? '');
    expect(result.stderr).toContain(`The configuration file could not be used ("profiles" is not an object): it was moved to ${asidePath}, and a new one started.`);
    expect(readFileSync(asidePath, 'utf8')).toBe('{"profiles": 5}');
    expect(statSync(asidePath).mode & 0o777).toBe(0o600);
    expect(statSync(configOf(env)).mode & 0o777).toBe(0o600);
    expect(json((await run(['profile', 'list', '--json'], { env })).stdout).map((p: { name: string }) => p.name)).toEqual(['local']);
  });

  it('a failed login leaves the broken file where it is', async () => {
    const env = user();
    mkdirSync(env.PINVOICE_CONFIG_DIR ?? '', { recursive: true });
    writeFileSync(configOf(env), 'garbage');
    expect((await login(env, 'local', 'pinv_test_not_a_known_token_000')).code).toBe(3);
    expect(readFileSync(configOf(env), 'utf8')).toBe('garbage');
  });
});

/** Runs the binary with its stdout's reader gone before it writes: every write meets a closed pipe. */
function runWithClosedStdout(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('output into a pipe its reader closed early', () => {
  let env: Record<string, string>;
  let id: number;
  beforeAll(async () => {
    env = { ...user(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
    id = json((await run(['invoice', 'create', '--file', CHARGE, '--json'], { env })).stdout).id;
  });

  it.each([[['--help']], [['openapi']], [['serve', 'company', 'list', '--db', db]], [['invoice', 'get', 'ID']], [['invoice', 'get', 'ID', '--json']]])(
    '%j ends quietly with exit 0',
    async (args) => {
      const result = await runWithClosedStdout(args.map((arg) => (arg === 'ID' ? String(id) : arg)), env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    },
  );

  it('`pinvoice openapi | head -1` prints one line, nothing on stderr, and pinvoice exits 0', () => {
    const script = `set -o pipefail; "${process.execPath}" "${BIN}" openapi 2>"${join(work, 'head.err')}" | head -1`;
    const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
    expect(result.stdout).toBe('{\n');
    expect(result.status).toBe(0);
    expect(readFileSync(join(work, 'head.err'), 'utf8')).toBe('');
  });
});

describe('bytes that are not UTF-8', () => {
  const env = () => ({ ...user(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url });
  // "Camiseta de algodão" in Latin-1: ã is the single byte 0xE3.
  const latin1 = Buffer.from('{"method":"pix","items":[{"name":"Camiseta de algod\u00e3o","quantity":1,"unit_price":100}]}', 'latin1');
  const offset = latin1.indexOf(0xe3);

  it('a Latin-1 --file, --body, --secret-file, --token-file or --token-stdin is refused naming the flag, the file and the byte', async () => {
    const bad = file('latin1.json', latin1);
    const good = file('good-body.json', '{"ok":true}');
    const cases: [string[], string, string?][] = [
      [['invoice', 'create', '--file', bad, '--dry-run'], `--file ${bad}`],
      [['invoice', 'create', '--file', '-', '--dry-run'], '--file - (stdin)', 'stdin'],
      [['webhooks', 'verify', '--body', bad, '--signature', 't=1,v1=00', '--secret-file', good], `--body ${bad}`],
      [['webhooks', 'verify', '--body', good, '--signature', 't=1,v1=00', '--secret-file', bad], `--secret-file ${bad}`],
      [['login', '--profile', 'x', '--base-url', server.url, '--token-file', bad], `--token-file ${bad}`],
      [['login', '--profile', 'x', '--base-url', server.url, '--token-stdin'], '--token-stdin (stdin)', 'stdin'],
    ];
    for (const [args, source, viaStdin] of cases) {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env() } });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stderr }));
        child.stdin.end(viaStdin ? latin1 : '');
      });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`${source}: not UTF-8 text (byte 0xE3 at offset ${offset}); convert it to UTF-8`);
    }
  });

  it('a flag value or an argument holding such bytes is refused naming it; nothing is sent', () => {
    const sh = (args: string) =>
      spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" ${args}`], { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1', ...env() } });
    const name = sh(`invoice create --method pix --payer-name "$(printf 'Jo\\343o')" --payer-email a@b.co --payer-document 52998224725 --item X:1:1 --json`);
    expect(name.status).toBe(2);
    expect(name.stderr).toMatch(/^pinvoice: --payer-name: the value holds bytes that are not UTF-8/);
    expect(name.stdout).toBe('');
    const item = sh(`invoice create --file ${CHARGE} --item "$(printf 'Camiseta \\343:1:1')" --dry-run`);
    expect(item.stderr).toMatch(/--item: the value holds bytes that are not UTF-8/);
    const argument = sh(`invoice get "$(printf '4\\343')"`);
    expect(argument.status).toBe(2);
    expect(argument.stderr).toMatch(/argument <ref>: the value holds bytes that are not UTF-8/);
  });
});

describe('messages that say what to do next', () => {
  it("a token the server no longer accepts names the profile and the login that fixes it (exit 3)", async () => {
    const env = user();
    expect((await login(env, 'stale', TOKEN)).code).toBe(0);
    const config = json(readFileSync(configOf(env), 'utf8'));
    config.profiles.stale.token = 'pinv_test_revoked_or_reset_00000';
    writeFileSync(configOf(env), JSON.stringify(config));
    for (const args of [['invoice', 'get', '1'], ['whoami'], ['events', 'list', '1']]) {
      const result = await run(args, { env });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`${server.url} rejected the token of profile "stale"`);
      expect(result.stderr).toContain(`log in again with \`pinvoice login --profile stale --base-url ${server.url}\``);
    }
    const fromEnv = await run(['whoami'], { env: { ...env, PINVOICE_TOKEN: 'pinv_test_wrong_env_token_00000' } });
    expect(fromEnv.code).toBe(3);
    expect(fromEnv.stderr).toContain('rejected the token in PINVOICE_TOKEN');
    expect(fromEnv.stderr).toContain('or unset it to use profile "stale"');
  });

  it('logout of the current profile points to `profile use` (naming the others) or `login`', async () => {
    const env = user();
    await login(env, 'first', TOKEN);
    await login(env, 'second', TOKEN);
    const out = await run(['logout'], { env });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('Profile "second" and its token removed. No profile is current now: choose one with `pinvoice profile use <name>` (first), or run `pinvoice login`.');
    const after = await run(['whoami'], { env });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('not logged in: no profile is current; choose one with `pinvoice profile use <name>` (first)');
    const last = await run(['logout', '--profile', 'first'], { env });
    expect(last.stderr).toContain('No profiles are left: run `pinvoice login` to add one.');
  });
});

describe('invoice create and events resend', () => {
  let env: Record<string, string>;
  beforeAll(() => {
    env = { ...user(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
  });

  it('invoice create shows the postbacks section, as invoice get does', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/postbacks`;
    const created = await run(['invoice', 'create', '--file', CHARGE, '--postback-url', url, '--no-qr'], { env });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^Postbacks$/m);
    expect(created.stdout).toContain('invoice.created');
  });

  it("events resend labels the status as the event's, not as the charge's current one", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/postbacks`;
    const charge = json((await run(['invoice', 'create', '--file', CHARGE, '--postback-url', url, '--json'], { env })).stdout);
    expect((await run(['sandbox', 'pay', String(charge.id), '--json'], { env })).code).toBe(0);
    expect((await run(['invoice', 'refund', String(charge.id), '--yes', '--json'], { env })).code).toBe(0);
    const events = json((await run(['events', 'list', String(charge.id), '--json'], { env })).stdout);
    const paid = events.find((event: { event: string }) => event.event === 'invoice.paid');
    const resent = await run(['events', 'resend', paid.id], { env });
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stdout).toMatch(/status in event\s+│?\s*paid \(the charge's status when the event was recorded\)/);
    expect(resent.stdout).toMatch(new RegExp(`charge\\s+│?\\s*${charge.secureId}\\s`));
    expect(resent.stdout).not.toMatch(/\(paid\)/);
  });
});

describe('README examples and the examples/ folder', () => {
  const root = ROOT;
  /** README.md and every page of docs/: commands moved from one to another are still run. */
  const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];
  const pagesText = () => pages.map((page) => readFileSync(join(root, page), 'utf8')).join('\n');

  /** Each command of the pages' sh blocks that names a file in examples/, continuation lines joined. */
  function readmeCommands(): string[] {
    const blocks = [...pagesText().matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    return blocks.flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n')).filter((line) => /examples\//.test(line) && /^\S*\s*pinvoice|\|\s*pinvoice|=\$\(pinvoice/.test(line));
  }

  it('every file the README and docs name is shipped, and every shipped file is in the README or docs', () => {
    const named = new Set([...pagesText().matchAll(/examples\/([\w.-]+)/g)].map((match) => match[1]));
    const shipped = readdirSync(join(root, 'examples'));
    expect([...named].sort()).toEqual([...shipped].sort());
    for (const name of shipped) expect(existsSync(join(root, 'examples', name))).toBe(true);
  });

  it('README.md and docs/*.md link and point only to files in the repository', () => {
    for (const page of pages) {
      const text = readFileSync(join(root, page), 'utf8');
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '').filter((target) => !/^(https?:|mailto:|#)/.test(target));
      const paths = [...text.matchAll(/(?:^|[\s`(])((?:\.\.\/)+[\w./-]+)/g)].map((match) => match[1] ?? '');
      for (const target of [...links, ...paths]) {
        const resolved = join(root, page, '..', target.split('#')[0] ?? '');
        expect(resolved.startsWith(root), `${page}: ${target} leaves the repository`).toBe(true);
        expect(existsSync(resolved), `${page}: ${target} does not exist`).toBe(true);
      }
    }
  });

  it('every README and docs command with an examples/ file works (create with --dry-run)', async () => {
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...user(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
    const card = { ...json(readFileSync(join(root, 'examples/card.json'), 'utf8')) };
    card.card = { ...card.card, number: '4000 0000 0000 3220' };
    const waiting = json((await run(['invoice', 'create', '--file', file('3ds-card.json', JSON.stringify(card)), '--json'], { env })).stdout);
    expect(waiting.status).toBe('waiting_3ds');
    const commands = readmeCommands();
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const line of commands) {
      const command = line.replace('invoice create', 'invoice create --dry-run').replace(/ 42\b/, ` ${waiting.id}`);
      const script = `set -o pipefail; pinvoice() { "${process.execPath}" "${BIN}" "$@"; }; npx() { "$@"; }; ${command}`;
      const result = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', env });
      expect(result.status, `${line}\n${result.stderr}`).toBe(0);
      expect(result.stderr, line).not.toMatch(/pinvoice: /);
    }
  });
});
