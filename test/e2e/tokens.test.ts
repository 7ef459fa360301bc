// `pinvoice serve token add|list|revoke` through the built binary, against a running server on the
// same file: a token per person, read-only ones for support staff, and who made each change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { dbFor } from '../support/processes.js';

const OWNER = 'ci_fixed_token_0123456789';
let server: ServeProcess;
let env: Record<string, string>;
let db: string;

beforeAll(async () => {
  env = tempHome();
  db = await dbFor(env.HOME ?? '', 'team');
  server = await serve(['--port', '0', '--db', db, '--token', OWNER], env);
});
afterAll(async () => {
  await server?.stop();
});

const as = (token: string) => ({ ...env, PINVOICE_TOKEN: token, PINVOICE_BASE_URL: server.url });
const addToken = async (...args: string[]) => {
  const result = await run(['serve', 'token', 'add', '--db', db, '--company', '1', '--json', ...args], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { id: number; name: string; access: string; token: string; hint: string };
};
const CHARGE = ['--method', 'pix', '--payer-name', 'Fulano de Tal', '--payer-email', 'f@example.com', '--payer-document', '529.982.247-25', '--item', 'Camiseta:1:19,90'];

describe('serve token', () => {
  it('adds named tokens (shown once), lists them without the tokens, and the timeline says who did what', async () => {
    const alice = await addToken('--name', 'alice');
    const support = await addToken('--name', 'support', '--read-only');
    expect([alice.access, support.access]).toEqual(['full', 'read-only']);
    const listed = await run(['serve', 'token', 'list', '--db', db, '--json'], { env });
    const tokens = JSON.parse(listed.stdout) as { name: string; access: string }[];
    expect(tokens.map((t) => [t.name, t.access])).toEqual([['token-1', 'full'], ['alice', 'full'], ['support', 'read-only']]);
    expect(listed.stdout).not.toContain(alice.token);
    expect(listed.stdout).not.toContain(support.token);

    const created = await run(['invoice', 'create', ...CHARGE, '--json'], { env: as(alice.token) });
    expect(created.code, created.stderr).toBe(0);
    const id = String(JSON.parse(created.stdout).id);
    expect((await run(['sandbox', 'pay', id], { env: as(OWNER) })).code).toBe(0);
    const shown = await run(['invoice', 'get', id], { env: as(support.token) });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/pending .*alice/);
    expect(shown.stdout).toMatch(/paid .*token-1/);
  });

  it('a read-only token looks up but changes nothing: exit 3 and the server’s reason', async () => {
    const support = await addToken('--name', 'support-2', '--read-only');
    const refused = await run(['invoice', 'create', ...CHARGE], { env: as(support.token) });
    expect(refused.code).toBe(3);
    // the server's words, with its operation named as the command the person ran
    expect(refused.stderr).toContain('This token is read-only: `pinvoice invoice create` is not open to it');
    expect(refused.stderr).toContain('HTTP 403 forbidden');
    expect((await run(['whoami', '--json'], { env: as(support.token) })).code).toBe(0);
  });

  it('revokes by name: the token stops working; an unknown name is exit 4, a taken one exit 2', async () => {
    const bob = await addToken('--name', 'bob');
    expect((await run(['whoami'], { env: as(bob.token) })).code).toBe(0);
    const revoked = await run(['serve', 'token', 'revoke', 'bob', '--company', '1', '--db', db, '--json'], { env });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).toEqual(expect.any(String));
    expect((await run(['whoami'], { env: as(bob.token) })).code).toBe(3);
    const unknown = await run(['serve', 'token', 'revoke', 'nobody', '--company', '1', '--db', db], { env });
    expect(unknown.code).toBe(4);
    const taken = await run(['serve', 'token', 'add', '--company', '1', '--name', 'alice', '--db', db], { env });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toBe('pinvoice: company 1 already has a token named "alice": pick another --name, or revoke that one first\n');
    const badName = await run(['serve', 'token', 'add', '--company', '1', '--name', 'Evil\u001b[2J', '--db', db], { env });
    expect(badName.code).toBe(2);
    const noCompany = await run(['serve', 'token', 'add', '--company', '99', '--name', 'x', '--db', db], { env });
    expect(noCompany.code).toBe(4);
  });
});
