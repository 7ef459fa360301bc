// Which key signs a company's X-Webhook-Signature: its webhook secret (the default), or one of its API
// tokens, as handlers written for production verify that header with their API key. Tokens are kept
// hashed; the one chosen is the exception: a copy the dispatcher signs with, kept in the database until
// the company switches back or the token is revoked, and never shown (the answer names it by name and hint).
import type { SigningKey, WebhookSigning } from '../../api/sandbox.js';
import { BODY_SIGNATURE_HEADER } from '../../domain/signature.js';
import type { ServerContext } from '../invoices/context.js';
import type { Access, Company, Reads } from '../store/port.js';

async function describe(reads: Reads, companyId: number): Promise<WebhookSigning> {
  const tokenId = (await reads.companies.get(companyId))?.signing_token_id ?? null;
  const token = tokenId === null ? undefined : (await reads.companies.tokens(companyId)).find((t) => t.id === tokenId);
  return { key: token ? 'token' : 'secret', token_name: token?.name ?? null, token_hint: token?.hint ?? null, header: BODY_SIGNATURE_HEADER };
}

/** GET reads the store, not the record the request's token remembered (another process may have switched). */
export const showSigning = (ctx: ServerContext, company: Company): Promise<WebhookSigning> => describe(ctx.reads, company.id);

/**
 * PUT: `token` keys the header with the request's own bearer token (`raw`, as it came; the only moment
 * the server holds it in clear); `secret` goes back to the webhook secret and forgets the copy.
 */
export async function putSigning(ctx: ServerContext, company: Company, key: SigningKey, by: Access['token'], raw: string): Promise<WebhookSigning> {
  const answer = await ctx.transaction(async (tx) => {
    await tx.companies.setSigningToken(company.id, key === 'token' ? { tokenId: by.id, token: raw } : null);
    return describe(tx, company.id);
  });
  return answer;
}
