// The dashboard's cookie and CSRF token (src/server/dashboard/session.ts), below the browser suite: the
// cookie's attributes with and without TLS, the CSRF token checked exactly, a Cookie header read. The
// session ids are the ones the module draws (openSession over a real store, on the run's engine), so a
// change to their length, alphabet or a prefix that the lookup's shape check does not follow fails here.
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieValue, COOKIE, csrfMatches, csrfOf, makeLinkCode, openSession, redeemLink, sessionCookie, sessionOf } from '../../src/server/dashboard/session.js';
import type { Access } from '../../src/server/store/port.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let access: Access;
let ids: string[];
const now = Date.now();

beforeAll(async () => {
  server = await startTestServer();
  const found = await server.store.companies.authenticate(server.token);
  if (!found) throw new Error('the test company does not authenticate');
  access = found;
  ids = await Promise.all(Array.from({ length: 12 }, () => openSession(server.store, access, now)));
});
afterAll(() => server?.close());

const withCookie = (cookie: string) => ({ headers: { cookie } }) as FastifyRequest;
/** The session a Cookie header of this value names, as a request's would be read. */
const sessionNamed = async (value: string) => (await sessionOf(server.store, withCookie(`theme=dark; ${COOKIE}=${value}`), now))?.id;

describe('the session ids the server draws', () => {
  it('are 43 characters of base64url (32 random bytes), each its own, and each found again from its cookie', async () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const cookie = sessionCookie(id, false).split(';')[0] ?? '';
      expect(await sessionNamed(cookieValue(cookie, COOKIE) ?? '')).toBe(id);
    }
    // the whole alphabet comes through the cookie and the lookup: ids with - and _ among them
    expect(ids.join('')).toMatch(/[-_]/);
  });

  it('a near miss is no session: a character more or less, another prefix, standard base64, another id', async () => {
    const id = ids.find((each) => /[-_]/.test(each)) ?? '';
    const misses = [id.slice(1), id.slice(0, -1), `${id}A`, `s_${id}`, id.replace(/-/g, '+').replace(/_/g, '/'), `${id}=`, ` ${id}x`];
    for (const miss of misses) expect(await sessionNamed(miss), miss).toBeUndefined();
    expect(await sessionNamed(ids[1] ?? '')).toBe(ids[1]);
  });

  it("a link's code has the session's shape, signs in once, and is no session itself", async () => {
    const { code } = await makeLinkCode(server.store, access, now);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionNamed(code)).toBeUndefined();
    const redeemed = await redeemLink(server.store, code, now);
    expect(redeemed?.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionNamed(redeemed?.session ?? '')).toBe(redeemed?.session);
    expect(await redeemLink(server.store, code, now)).toBeUndefined();
  });
});

describe('the dashboard session', () => {
  it('sets an HttpOnly, SameSite=Strict cookie on /dashboard, Secure under TLS, and ends it with Max-Age=0', () => {
    const [id] = ids;
    expect(sessionCookie(id, false)).toBe(`pinvoice_dashboard=${id}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200`);
    expect(sessionCookie(id, true)).toBe(`pinvoice_dashboard=${id}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200; Secure`);
    expect(sessionCookie(undefined, true)).toBe('pinvoice_dashboard=; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
  });

  it("accepts only the session's own CSRF token, which does not hold the session id", () => {
    for (const [index, id] of ids.entries()) {
      const csrf = csrfOf(id);
      expect(csrf).not.toContain(id.slice(0, 8));
      expect(csrfMatches(id, csrf)).toBe(true);
      expect(csrfMatches(ids[(index + 1) % ids.length] ?? '', csrf)).toBe(false);
      expect(csrfMatches(id.slice(0, -1), csrf)).toBe(false);
      expect(csrfMatches(id, `${csrf}x`)).toBe(false);
      expect(csrfMatches(id, csrf.slice(0, -1))).toBe(false);
      expect(csrfMatches(id, undefined)).toBe(false);
      expect(csrfMatches(id, [csrf])).toBe(false);
    }
  });

  it('reads its cookie among others', () => {
    const [id] = ids;
    expect(cookieValue(`theme=dark; pinvoice_dashboard=${id}; x=1`, 'pinvoice_dashboard')).toBe(id);
    expect(cookieValue(`pinvoice_dashboard_old=1; pinvoice_dashboard=${id}`, 'pinvoice_dashboard')).toBe(id);
    expect(cookieValue('pinvoice_dashboard_old=1', 'pinvoice_dashboard')).toBeUndefined();
    expect(cookieValue(undefined, 'pinvoice_dashboard')).toBeUndefined();
  });
});
