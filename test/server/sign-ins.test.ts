// The dashboard's sign-ins (port.ts SignInStore) on each engine, below the HTTP layer: what a sign-in
// opens, when it no longer does, and a link taken once however many ask at once. On SQLite both ways a
// session is read: on the file's reader connection, and in memory in its turn in the writer's queue.
// The store is opened by itself, without the app: these are the store's answers alone (and, for what it keeps, the
// dashboard's session.ts, which makes the secrets and hands the store their hashes).
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashOf, makeLinkCode, redeemLink } from '../../src/server/dashboard/session.js';
import { addCompany } from '../../src/server/seed.js';
import { openStore, type SqliteStore } from '../../src/server/store/index.js';
import type { NewSignIn, SignInStore } from '../../src/server/store/port.js';
import { openPostgresStore, type PostgresStore } from '../../src/server/store/postgres/index.js';
import { ENGINE, postgresDatabase } from '../support/engine.js';
import { holding, sqliteTexts, storedTexts } from '../support/stored.js';

const ALICE = 'pinv_test_sign_ins_alice_0123456789';
const SUPPORT = 'pinv_test_sign_ins_support_0123456789';
const BOB = 'pinv_test_sign_ins_bob_0123456789';
const HOUR = 3_600_000;

const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex');
/** a new secret and its hash, as the dashboard makes them */
const secret = () => {
  const text = randomBytes(24).toString('base64url');
  return { text, hash: sha256(text) };
};

describe.each(ENGINE === 'sqlite' ? ['a file', 'memory'] : ['a database'])('the dashboard’s sign-ins in %s', (where) => {
  let store: SqliteStore | PostgresStore;
  let signIns: SignInStore;
  let company: number;
  let alice: number;
  let support: number;
  let url = '';
  const dir = where === 'a file' ? mkdtempSync(join(tmpdir(), 'pinvoice-sign-ins-')) : undefined;
  beforeAll(async () => {
    if (ENGINE === 'postgres') store = await openPostgresStore((url = await postgresDatabase()));
    else store = openStore(dir ? join(dir, 'store.db') : ':memory:');
    signIns = store.signIns;
    company = (await addCompany(store, { token: 'pinv_test_sign_ins_first_0123456789' }, (n) => randomBytes(n), new Date())).id;
    const now = new Date().toISOString();
    await store.transaction(async (tx) => {
      alice = (await tx.companies.addToken(company, ALICE, now, { name: 'alice' })).id;
      support = (await tx.companies.addToken(company, SUPPORT, now, { name: 'support', readOnly: true })).id;
    });
  });
  afterAll(async () => {
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** rows of a query on the store's database (`?` placeholders) */
  const sql = async (text: string, ...params: unknown[]): Promise<Record<string, unknown>[]> => {
    if (store.engine === 'sqlite') return store.db.prepare(text).all(...params) as Record<string, unknown>[];
    let n = 0;
    return (await store.pool.query(text.replace(/\?/g, () => `$${++n}`), params)).rows as Record<string, unknown>[];
  };

  /** adds a sign-in of `kind` for the token `token_id` at `now`, answering its hash */
  const signIn = async (kind: NewSignIn['kind'], token_id: number, expires_at = Date.now() + HOUR, now = Date.now()): Promise<string> => {
    const { hash } = secret();
    await signIns.add({ hash, kind, company_id: company, token_id, expires_at }, now);
    return hash;
  };

  it('a session opens what its token does, as authenticate answers it, as long as it lasts', async () => {
    const session = await signIn('session', alice);
    const access = await signIns.take(session, 'session', Date.now());
    expect(access).toEqual(await store.companies.authenticate(ALICE));
    expect(access?.company.id).toBe(company);
    expect(access?.token).toEqual({ id: alice, name: 'alice', read_only: false });
    // a session is not used up by being read
    expect(await signIns.take(session, 'session', Date.now())).toEqual(access);
    const readOnly = await signIn('session', support);
    expect((await signIns.take(readOnly, 'session', Date.now()))?.token).toEqual({ id: support, name: 'support', read_only: true });
    expect(await signIns.take(sha256('never given'), 'session', Date.now())).toBeUndefined();
  });

  it('a sign-in is taken only as its own kind, and taking it as the other leaves it as it was', async () => {
    const session = await signIn('session', alice);
    const link = await signIn('link', alice);
    expect(await signIns.take(session, 'link', Date.now())).toBeUndefined();
    expect(await signIns.take(link, 'session', Date.now())).toBeUndefined();
    expect((await signIns.take(session, 'session', Date.now()))?.token.id).toBe(alice);
    expect((await signIns.take(link, 'link', Date.now()))?.token.id).toBe(alice);
  });

  it('opens nothing once expired (expires_at <= now)', async () => {
    const at = Date.now() + HOUR;
    const session = await signIn('session', alice, at);
    const link = await signIn('link', alice, at);
    expect(await signIns.take(session, 'session', at - 1)).toBeDefined();
    expect(await signIns.take(session, 'session', at)).toBeUndefined();
    expect(await signIns.take(link, 'link', at)).toBeUndefined();
    // an expired link is gone for good once tried
    expect(await signIns.take(link, 'link', at - 1)).toBeUndefined();
  });

  it('a link is taken once: a second take, after it or at the same time, gets nothing', async () => {
    const link = await signIn('link', alice);
    expect((await signIns.take(link, 'link', Date.now()))?.token).toEqual({ id: alice, name: 'alice', read_only: false });
    expect(await signIns.take(link, 'link', Date.now())).toBeUndefined();
    for (let round = 0; round < 5; round++) {
      const raced = await signIn('link', alice);
      const takes = await Promise.all([1, 2, 3].map(() => signIns.take(raced, 'link', Date.now())));
      expect(takes.filter((access) => access !== undefined)).toHaveLength(1);
    }
  });

  it('signing out ends a session; signing out of none is no error', async () => {
    const session = await signIn('session', alice);
    await signIns.remove(session);
    expect(await signIns.take(session, 'session', Date.now())).toBeUndefined();
    await expect(signIns.remove(session)).resolves.toBeUndefined();
    await expect(signIns.remove(sha256('never given'))).resolves.toBeUndefined();
  });

  it('revoking the token ends its sessions and links', async () => {
    const bob = await store.transaction((tx) => tx.companies.addToken(company, BOB, new Date().toISOString(), { name: 'bob' }));
    const session = await signIn('session', bob.id);
    const link = await signIn('link', bob.id);
    expect((await signIns.take(session, 'session', Date.now()))?.token.name).toBe('bob');
    expect(await store.transaction((tx) => tx.companies.revokeToken(company, bob.id, new Date().toISOString()))).toBe(true);
    expect(await signIns.take(session, 'session', Date.now())).toBeUndefined();
    expect(await signIns.take(link, 'link', Date.now())).toBeUndefined();
    // another token's session is not touched
    expect((await signIns.take(await signIn('session', alice), 'session', Date.now()))?.token.name).toBe('alice');
  });

  it('adding a sign-in removes those expired, and keeps the others', async () => {
    const now = Date.now();
    // added an hour ago, when none had expired
    const expired = await signIn('session', alice, now - 1, now - HOUR);
    const ending = await signIn('link', alice, now, now - HOUR);
    const lasting = await signIn('session', alice, now + HOUR, now - HOUR);
    const kept = async () => (await sql('SELECT hash FROM dashboard_sign_ins WHERE hash IN (?, ?, ?)', expired, ending, lasting)).map((row) => row.hash);
    expect((await kept()).sort()).toEqual([expired, ending, lasting].sort());
    await signIns.add({ hash: secret().hash, kind: 'session', company_id: company, token_id: alice, expires_at: now + HOUR }, now);
    expect(await kept()).toEqual([lasting]);
  });

  it('keeps a link\'s code and a session\'s id as their hashes: neither secret is in any byte or row of the store', async () => {
    // the dashboard's own way in (session.ts): it makes the secrets and hands the store their hashes
    const access = await store.companies.authenticate(ALICE);
    if (!access) throw new Error('alice\'s token authenticates');
    const { code } = await makeLinkCode(store, access, Date.now());
    const redeemed = await redeemLink(store, code, Date.now());
    expect(redeemed?.access.token.id).toBe(alice);
    const session = redeemed?.session ?? '';
    expect(await sql('SELECT kind FROM dashboard_sign_ins WHERE hash = ?', hashOf(session))).toEqual([{ kind: 'session' }]);
    const kept = store.engine === 'postgres' ? await storedTexts(url) : dir ? await storedTexts(join(dir, 'store.db')) : sqliteTexts(store.db);
    expect(holding(kept, hashOf(session)).length, 'the session\'s row was read').toBeGreaterThan(0);
    for (const secret of [code, session]) expect(holding(kept, secret), `${secret} in the store`).toEqual([]);
  });

  it('a reset of the charges leaves the sign-ins (they hang off companies and tokens, which it keeps)', async () => {
    const session = await signIn('session', alice);
    await store.transaction((tx) => tx.clearCharges());
    expect((await signIns.take(session, 'session', Date.now()))?.token.id).toBe(alice);
  });
});
