// Bearer authentication: the token names the company (and is itself named, perhaps read-only);
// everything after it is scoped to that company. A token's access is looked up in the store at
// most once a second per process (a lookup and its decoding were an eighth of a GET's work): a
// token added in another process works at once, one revoked stops within a second.
import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.js';
import type { Access, Store } from './store/port.js';

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i;
/** how long a token's access is remembered */
export const TOKEN_CACHE_MS = 1000;
const MAX_REMEMBERED = 1000;

/** The token an Authorization header carries, or undefined when it carries none in the Bearer form. */
export const bearerToken = (header: string | undefined): string | undefined => (header === undefined ? undefined : BEARER.exec(header)?.[1]);

export function createAuthenticator(store: Store, now: () => number = Date.now) {
  const remembered = new Map<string, { access: Access; until: number }>();
  async function authenticate(request: FastifyRequest): Promise<Access> {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Send the header "Authorization: Bearer <access token>".', false);
    const token = bearerToken(header);
    if (!token) throw unauthorized('The Authorization header must be "Bearer <access token>".', true);
    // remembered by its hash: the raw token is not kept beyond the request
    const key = hash('sha256', token, 'base64');
    const hit = remembered.get(key);
    const at = now();
    if (hit && hit.until > at) return hit.access;
    const access = await store.companies.authenticate(token);
    if (!access) {
      remembered.delete(key);
      throw unauthorized('The access token is not valid.', true);
    }
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(key, { access, until: at + TOKEN_CACHE_MS });
    return access;
  }
  /** A company's record changed in this process (its sandbox clock, its chaos rule): its tokens are looked up again. */
  function forgetCompany(companyId: number): void {
    for (const [key, hit] of remembered) if (hit.access.company.id === companyId) remembered.delete(key);
  }
  return Object.assign(authenticate, { forgetCompany });
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
