// `pinvoice dashboard` end to end: the built binary against `pinvoice serve` (SQLite, and PostgreSQL in
// that project's run). The link it prints signs in once, on the profile's own origin, and the journal
// keeps the request with the link's code masked. (The pages themselves: test/browser/dashboard.test.ts;
// against production's stand-in, exit 4: test/production/cli-write.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';

const TOKEN = 'pinv_test_e2e_dashboard_link_01';
let server: ServeProcess;
let env: Record<string, string>;

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
});
afterAll(() => server?.stop());

const signIn = (url: string) => fetch(url, { redirect: 'manual' });

describe('pinvoice dashboard', () => {
  it('prints a one-time link (--print, no browser) that signs in once; the journal keeps the request with the code masked', async () => {
    const printed = await run(['dashboard', '--print'], { env });
    expect(printed.code, printed.stderr).toBe(0);
    const url = printed.stdout.trim();
    expect(url).toMatch(new RegExp(`^${server.url}/dashboard/sign-in\\?code=[A-Za-z0-9_-]{43}$`));
    expect(url).not.toContain(TOKEN);
    const first = await signIn(url);
    expect([first.status, first.headers.get('location')]).toEqual([303, '/dashboard/requests']);
    expect(first.headers.get('set-cookie')).toMatch(/^pinvoice_dashboard=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect((await signIn(url)).status).toBe(401);

    const code = new URL(url).searchParams.get('code') ?? '';
    const journal = await fetch(`${server.url}/api/v2/sandbox/requests?path=/api/v2/sandbox/dashboard/links`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const entries = ((await journal.json()) as { data: { response_body: { url: string } }[] }).data;
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries)).not.toContain(code);
    expect(entries[0]?.response_body.url).toBe(`${server.url}/dashboard/sign-in?code=[redacted]`);
  });

  it('--json answers the link and when it ends; with no browser to open it says so on stderr, the link on stdout', async () => {
    const json = await run(['dashboard', '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout);
    expect(Object.keys(answer)).toEqual(['url', 'expires_at']);
    const minutes = (Date.parse(answer.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    const plain = await run(['dashboard'], { env: { ...env, DISPLAY: '', WAYLAND_DISPLAY: '' } });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout.trim()).toMatch(/\/dashboard\/sign-in\?code=/);
    expect(plain.stderr).toContain('no browser to open here');
  });
});
