// `pinvoice serve company add|list`: companies added to and listed from the database file directly
// (also while a server runs on it); tokens are shown once, when added, and never listed.
import { randomBytes } from 'node:crypto';
import { controlCharacterProblem } from '../../domain/text.js';
import { usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { defaultDbPath } from '../../cli/paths.js';
import { profileSlug } from '../../cli/profile-name.js';
import { documentProblem, formatCnpj } from '../../domain/document.js';
import { addCompany } from '../../server/seed.js';
import type { CompanyAddFlags, CompanyListFlags } from './index.js';
import { loginAdvice } from './registry.js';
import { checkedDb, withStore } from './with-store.js';

function checkNames(flags: CompanyAddFlags): void {
  if (flags.name.trim() === '') throw usageError('--name must not be empty');
  for (const [flag, value] of [['--name', flags.name], ['--corporate-reason', flags.corporateReason]] as const) {
    const problem = value === undefined ? undefined : controlCharacterProblem(value);
    if (problem) throw usageError(`${flag} ${problem}`);
  }
}

export async function companyAdd(flags: CompanyAddFlags): Promise<void> {
  const cnpjProblem = flags.cnpj === undefined ? null : documentProblem(flags.cnpj, 'cnpj');
  if (cnpjProblem) throw usageError(`--cnpj ${flags.cnpj} is ${cnpjProblem.message}`);
  checkNames(flags);
  const options = { fantasyName: flags.name, corporateReason: flags.corporateReason, cnpj: flags.cnpj, signWith: flags.signWith };
  const created = await withStore(flags.db, (store) => addCompany(store, options, (n) => randomBytes(n), new Date()));
  const company = { id: created.id, fantasy_name: created.fantasyName, cnpj: formatCnpj(created.cnpj), token: created.token, sign_with: flags.signWith };
  const out = createOutput(flags);
  if (out.json) return out.jsonLine(JSON.stringify(company));
  out.data(`company ${company.id}: ${company.fantasy_name} (CNPJ ${company.cnpj})\ntoken: ${company.token}`);
  if (flags.signWith === 'token') out.message("Its postbacks' X-Webhook-Signature is keyed with this token (Pinvoice-Signature with its webhook secret); pinvoice sandbox webhook-signing secret switches back.");
  // A profile of its own ("loja-dois-2"), so the current profile keeps its token.
  const profile = `${profileSlug(created.fantasyName)}-${created.id}`;
  out.message(
    'The token is shown this once. Store it in a new CLI profile (your current profile keeps its token) with:\n\n' +
      loginAdvice(company.token, profile, checkedDb(flags.db ?? defaultDbPath())),
  );
}

export async function companyList(flags: CompanyListFlags): Promise<void> {
  const rows = await withStore(flags.db, async (store) =>
    (await store.companies.list()).map((c) => ({
      id: c.id, fantasy_name: c.fantasy_name, cnpj: formatCnpj(c.cnpj), tokens: c.tokens, sign_with: c.signing_token_id === null ? 'secret' : 'token',
    })),
  );
  const out = createOutput(flags);
  if (out.json) return out.jsonLine(JSON.stringify(rows));
  out.records(rows.map((r) => [r.id, r.fantasy_name, r.cnpj, `${r.tokens} token(s)`, `signs with its ${r.sign_with === 'token' ? 'token' : 'webhook secret'}`]));
}
