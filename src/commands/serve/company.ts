// `pinvoice serve company add|list`: companies added to and listed from the database file directly
// (also while a server runs on it); tokens are shown once, when added, and never listed.
import { randomBytes } from 'node:crypto';
import { controlCharacterProblem } from '../../domain/text.js';
import { DEFAULT_BASE_URL } from '../../cli/config.js';
import { usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { profileSlug } from '../../cli/profile-name.js';
import { documentProblem, formatCnpj } from '../../domain/document.js';
import { addCompany } from '../../server/seed.js';
import type { CompanyAddFlags, CompanyListFlags } from './index.js';
import { loginLine } from './login-line.js';
import { withStore } from './with-store.js';

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
  const options = { fantasyName: flags.name, corporateReason: flags.corporateReason, cnpj: flags.cnpj };
  const created = await withStore(flags.db, (store) => addCompany(store, options, (n) => randomBytes(n), new Date()));
  const company = { id: created.id, fantasy_name: created.fantasyName, cnpj: formatCnpj(created.cnpj), token: created.token };
  const out = createOutput(flags);
  if (out.json) return out.jsonLine(JSON.stringify(company));
  out.data(`company ${company.id}: ${company.fantasy_name} (CNPJ ${company.cnpj})\ntoken: ${company.token}`);
  // A profile of its own ("loja-dois-2"), so the current profile keeps its token.
  const profile = `${profileSlug(created.fantasyName)}-${created.id}`;
  out.message(
    'The token is shown this once. Store it in a new CLI profile (your current profile keeps its token) with:\n\n' +
      `  ${loginLine(company.token, profile, DEFAULT_BASE_URL)}\n\n` +
      `(with the server's URL after --base-url if it does not listen on ${DEFAULT_BASE_URL})\n`,
  );
}

export async function companyList(flags: CompanyListFlags): Promise<void> {
  const rows = await withStore(flags.db, async (store) =>
    (await store.companies.list()).map((c) => ({ id: c.id, fantasy_name: c.fantasy_name, cnpj: formatCnpj(c.cnpj), tokens: c.tokens })),
  );
  const out = createOutput(flags);
  if (out.json) return out.jsonLine(JSON.stringify(rows));
  out.records(rows.map((r) => [r.id, r.fantasy_name, r.cnpj, `${r.tokens} token(s)`]));
}
