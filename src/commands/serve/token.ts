// `pinvoice serve token add|list|revoke`: a token per person, each named, some read-only (support
// staff: they look up charges and their events, and change nothing). Shown once, when added; stored
// hashed; revoked tokens are refused at once on every server of the database (docs/team.md).
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { defaultDbPath } from '../../cli/paths.js';
import { profileSlug } from '../../cli/profile-name.js';
import { controlCharacterProblem } from '../../domain/text.js';
import { pooledRandomBytes } from '../../base/random-pool.js';
import { generateToken } from '../../server/seed.js';
import { TokenNameTaken, type ApiToken, type Store } from '../../server/store/port.js';
import type { TokenAddFlags, TokenListFlags, TokenRevokeFlags } from './index.js';
import { loginAdvice } from './registry.js';
import { checkedDb, withStore } from './with-store.js';

const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

function checkName(name: string): string {
  const problem = controlCharacterProblem(name);
  if (problem) throw usageError(`--name ${problem}`);
  if (!TOKEN_NAME.test(name)) throw usageError(`--name "${name}" must be 1 to 64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit`);
  return name;
}

async function companyOf(store: Store, id: number): Promise<void> {
  if (!(await store.companies.get(id))) throw new CliError(`no company ${id} in this database (see pinvoice serve company list)`, EXIT.notFound);
}

const view = (t: ApiToken) => ({
  id: t.id, company: t.company_id, name: t.name, access: t.read_only ? 'read-only' : 'full', hint: t.hint, created_at: t.created_at, revoked_at: t.revoked_at,
});

export async function tokenAdd(flags: TokenAddFlags): Promise<void> {
  const name = checkName(flags.name);
  const token = generateToken(pooledRandomBytes);
  const added = await withStore(flags.db, async (store) => {
    await companyOf(store, flags.company);
    try {
      return await store.transaction((tx) => tx.companies.addToken(flags.company, token, new Date().toISOString(), { name, readOnly: flags.readOnly }));
    } catch (error) {
      if (error instanceof TokenNameTaken) throw usageError(`company ${flags.company} already has a token named "${name}": pick another --name, or revoke that one first`);
      throw error;
    }
  });
  const out = createOutput(flags);
  if (out.json) return out.jsonLine(JSON.stringify({ ...view(added), token }));
  out.data(`token ${added.id} "${added.name}" (${view(added).access}) for company ${added.company_id}\ntoken: ${token}`);
  out.message(
    'The token is shown this once. Store it in a CLI profile with:\n\n' +
      loginAdvice(token, profileSlug(added.name), checkedDb(flags.db ?? defaultDbPath())),
  );
}

export async function tokenList(flags: TokenListFlags): Promise<void> {
  const rows = await withStore(flags.db, async (store) => {
    if (flags.company !== undefined) await companyOf(store, flags.company);
    return (await store.companies.tokens(flags.company)).map(view);
  });
  const out = createOutput(flags);
  if (out.json) return out.jsonLine(JSON.stringify(rows));
  out.records(rows.map((t) => [t.id, `company ${t.company}`, t.name, t.access, t.hint, t.revoked_at ? `revoked ${t.revoked_at}` : `since ${t.created_at}`]));
}

export async function tokenRevoke(ref: string, flags: TokenRevokeFlags): Promise<void> {
  const revoked = await withStore(flags.db, async (store) => {
    await companyOf(store, flags.company);
    const token = (await store.companies.tokens(flags.company)).find((t) => t.name === ref || String(t.id) === ref);
    if (!token) throw new CliError(`company ${flags.company} has no token named or numbered "${ref}" (see pinvoice serve token list)`, EXIT.notFound);
    if (token.revoked_at) return token;
    await store.transaction((tx) => tx.companies.revokeToken(flags.company, token.id, new Date().toISOString()));
    return (await store.companies.tokens(flags.company)).find((t) => t.id === token.id) ?? token;
  });
  const out = createOutput(flags);
  if (out.json) return out.jsonLine(JSON.stringify(view(revoked)));
  out.data(`token ${revoked.id} "${revoked.name}" of company ${revoked.company_id} revoked at ${revoked.revoked_at}`);
}
