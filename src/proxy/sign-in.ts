// The proxy dashboard's sign-ins, in this process's memory (the proxy has no store for them: a restart
// signs everyone out, and the link printed at start-up is the only way in besides the inspector token).
// As serve's (src/server/dashboard/session.ts, whose shapes, hashing, CSRF and cookie it uses): a
// link's code and a session's id are 32 random bytes, kept only as their SHA-256; a code is taken once
// and lasts 10 minutes, a session 12 hours. Loaded at start-up (the link is printed then): crypto only.
import { timingSafeEqual } from 'node:crypto';
import { hashOf, LINK_MS, secret, SESSION_MS, SHAPE } from '../server/dashboard/session.js';

export interface ProxySignIns {
  /** a new one-time code (the link is `<base>/sign-in?code=<code>`) */
  makeCode(now: number): { code: string; expiresAt: number };
  /** takes a code (once): a new session's id, or undefined when unknown, used or expired */
  redeem(code: string, now: number): string | undefined;
  /** a new session for whoever pasted the inspector token; undefined when it is not the token */
  signInWithToken(token: string, now: number): string | undefined;
  /** whether the session is open now */
  isOpen(id: string | undefined, now: number): boolean;
  close(id: string | undefined): void;
}

export function createSignIns(inspectorToken: string): ProxySignIns {
  const codes = new Map<string, number>();
  const sessions = new Map<string, number>();
  const expected = Buffer.from(inspectorToken);
  const open = (now: number) => {
    for (const [hash, until] of sessions) if (until <= now) sessions.delete(hash);
    const id = secret();
    sessions.set(hashOf(id), now + SESSION_MS);
    return id;
  };
  return {
    makeCode(now) {
      const code = secret();
      const expiresAt = now + LINK_MS;
      codes.set(hashOf(code), expiresAt);
      return { code, expiresAt };
    },
    redeem(code, now) {
      if (!SHAPE.test(code)) return undefined;
      const hash = hashOf(code);
      const until = codes.get(hash);
      codes.delete(hash);
      return until !== undefined && until > now ? open(now) : undefined;
    },
    signInWithToken(token, now) {
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected) ? open(now) : undefined;
    },
    isOpen(id, now) {
      if (id === undefined || !SHAPE.test(id)) return false;
      const until = sessions.get(hashOf(id));
      return until !== undefined && until > now;
    },
    close(id) {
      if (id !== undefined && SHAPE.test(id)) sessions.delete(hashOf(id));
    },
  };
}
