// The dashboard's cookie and CSRF token (src/server/dashboard/session.ts), below the browser suite: the
// cookie's attributes with and without TLS, the CSRF token checked exactly, a Cookie header read.
import { describe, expect, it } from 'vitest';
import { cookieValue, csrfMatches, csrfOf, sessionCookie } from '../../src/server/dashboard/session.js';

const SESSION = 'a'.repeat(43);

describe('the dashboard session', () => {
  it('sets an HttpOnly, SameSite=Strict cookie on /dashboard, Secure under TLS, and ends it with Max-Age=0', () => {
    expect(sessionCookie(SESSION, false)).toBe(`pinvoice_dashboard=${SESSION}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200`);
    expect(sessionCookie(SESSION, true)).toBe(`pinvoice_dashboard=${SESSION}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=43200; Secure`);
    expect(sessionCookie(undefined, true)).toBe('pinvoice_dashboard=; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=0; Secure');
  });

  it("accepts only the session's own CSRF token, which does not hold the session id", () => {
    const csrf = csrfOf(SESSION);
    expect(csrf).not.toContain(SESSION.slice(0, 8));
    expect(csrfMatches(SESSION, csrf)).toBe(true);
    expect(csrfMatches('b'.repeat(43), csrf)).toBe(false);
    expect(csrfMatches(SESSION, `${csrf}x`)).toBe(false);
    expect(csrfMatches(SESSION, undefined)).toBe(false);
    expect(csrfMatches(SESSION, [csrf])).toBe(false);
  });

  it('reads its cookie among others', () => {
    expect(cookieValue(`theme=dark; pinvoice_dashboard=${SESSION}; x=1`, 'pinvoice_dashboard')).toBe(SESSION);
    expect(cookieValue('pinvoice_dashboard_old=1', 'pinvoice_dashboard')).toBeUndefined();
    expect(cookieValue(undefined, 'pinvoice_dashboard')).toBeUndefined();
  });
});
