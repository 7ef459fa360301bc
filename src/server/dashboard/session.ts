// The dashboard's sign-in: one-time links and sessions. A link's code and a session's id are 32 random
// bytes; the store keeps only their SHA-256 (port.ts SignInStore), shared by every node of a team, so
// a link made by one node signs in on another and a sign-out ends the session everywhere. The
// session's id lives in an HttpOnly cookie the page's script cannot read; the API token a session was
// made with is never in the cookie, a URL, the page or the journal. Each form carries a CSRF token
// derived from the session's id (an HMAC: any node can check it, and it tells nothing of the id).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Access, Store } from '../store/port.js';

export const COOKIE = 'pinvoice_dashboard';
/** How long a session lasts from its sign-in, and a link from its making (serve's first link: a day, a `pinvoice dashboard` link: 10 minutes). */
export const SESSION_MS = 12 * 3600_000;
export const LINK_MS = 10 * 60_000;
export const FIRST_LINK_MS = 24 * 3600_000;

export const secret = () => randomBytes(32).toString('base64url');
export const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');
/** A code or session id as made here: anything else is not looked up. */
export const SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Makes a one-time sign-in link's code for the token's company; the link is `/dashboard/sign-in?code=<code>`. */
export async function makeLinkCode(store: Store, access: Access, now: number, ttlMs = LINK_MS): Promise<{ code: string; expiresAt: number }> {
  const code = secret();
  const expiresAt = now + ttlMs;
  await store.signIns.add({ hash: hashOf(code), kind: 'link', company_id: access.company.id, token_id: access.token.id, expires_at: expiresAt }, now);
  return { code, expiresAt };
}

/** Takes a link's code (once) and opens a session in its place; undefined when the code is unknown, used or expired. */
export async function redeemLink(store: Store, code: string, now: number): Promise<{ session: string; access: Access } | undefined> {
  if (!SHAPE.test(code)) return undefined;
  const access = await store.signIns.take(hashOf(code), 'link', now);
  return access && { session: await openSession(store, access, now), access };
}

/** Opens a session as the token's access; answers the session's id (the cookie's value). */
export async function openSession(store: Store, access: Access, now: number): Promise<string> {
  const session = secret();
  await store.signIns.add({ hash: hashOf(session), kind: 'session', company_id: access.company.id, token_id: access.token.id, expires_at: now + SESSION_MS }, now);
  return session;
}

/** The session a request's cookie names, read afresh (the company's clock and chaos as they are now), or undefined. */
export async function sessionOf(store: Store, request: FastifyRequest, now: number): Promise<{ id: string; access: Access } | undefined> {
  const id = cookieValue(request.headers.cookie, COOKIE);
  if (id === undefined || !SHAPE.test(id)) return undefined;
  const access = await store.signIns.take(hashOf(id), 'session', now);
  return access && { id, access };
}

export const closeSession = (store: Store, id: string) => store.signIns.remove(hashOf(id));

/** Ends the session a request's cookie names, if any: a new sign-in in a browser replaces the one it had. */
export async function closeReplaced(store: Store, request: FastifyRequest): Promise<void> {
  const id = cookieValue(request.headers.cookie, COOKIE);
  if (id !== undefined && SHAPE.test(id)) await closeSession(store, id);
}

/** The CSRF token of a session: its forms carry it, and a POST without it is refused. */
export const csrfOf = (session: string) => createHmac('sha256', session).update('pinvoice dashboard csrf').digest('base64url');

export function csrfMatches(session: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(csrfOf(session));
  const got = Buffer.from(given);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie of a session (or of its end: `undefined`): HttpOnly, SameSite=Strict, the dashboard's path only (`path`), Secure under TLS. */
export function sessionCookie(value: string | undefined, secure: boolean, path = '/dashboard'): string {
  const attributes = [`Path=${path}`, 'HttpOnly', 'SameSite=Strict', value === undefined ? 'Max-Age=0' : `Max-Age=${SESSION_MS / 1000}`];
  if (secure) attributes.push('Secure');
  return [`${COOKIE}=${value ?? ''}`, ...attributes].join('; ');
}
