// Bearer authentication: the token names the company (and is itself named, perhaps read-only);
// everything after it is scoped to that company. A token's access is kept in memory once looked up,
// under its company's tag (store/changes.ts): a commit that revokes one of the company's tokens or
// changes the company (its clock, chaos, signing) drops it, on every node as soon as the store hears of
// it (cache/kept.ts, docs/team.md). A token added anywhere works at once: a refusal is never kept.
import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { createKept } from './cache/kept.js';
import { unauthorized } from './errors.js';
import { tagOf } from './store/changes.js';
import type { Access, Store } from './store/port.js';

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i;
/** how many tokens' access is kept, the oldest dropped first */
const MAX_KEPT = 1000;

/** The token an Authorization header carries, or undefined when it carries none in the Bearer form. */
export const bearerToken = (header: string | undefined): string | undefined => (header === undefined ? undefined : BEARER.exec(header)?.[1]);

export function createAuthenticator(store: Store, counted: (hit: boolean) => void = () => undefined) {
  const kept = createKept<Access>(store.changes, MAX_KEPT);
  async function authenticate(request: FastifyRequest): Promise<Access> {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('Send the header "Authorization: Bearer <access token>".', false);
    const token = bearerToken(header);
    if (!token) throw unauthorized('The Authorization header must be "Bearer <access token>".', true);
    // kept by its hash: the raw token is not kept beyond the request
    const key = hash('sha256', token, 'base64');
    const hit = kept.get(key);
    counted(hit !== undefined);
    if (hit) return hit;
    const mark = kept.mark();
    const access = await store.companies.authenticate(token).catch((error: unknown) => {
      // the database is away: the request is refused (503) whatever its token; the access last kept for
      // it, stale perhaps, names the company whose journal tells of the refusal (it grants nothing)
      const last = kept.peek(key);
      if (last) request.access = last;
      throw error;
    });
    if (!access) {
      kept.forget(key);
      throw unauthorized('The access token is not valid.', true);
    }
    kept.keep(key, access, [tagOf.company(access.company.id)], mark);
    return access;
  }
  return Object.assign(authenticate, { close: kept.close });
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
