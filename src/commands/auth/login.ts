// `pinvoice login`: checks the token against Company Infos, then stores it in a profile, never over
// the token of another company (it may exist nowhere else) unless --force.
import { readStdinText, readTextFlag } from '../../base/read-input.js';
import { openConfig, type CompanyRef, type ConfigStore, type Profile } from '../../cli/config.js';
import { baseUrlOf, debugWriter, originOf, profileName, timeoutMsOf } from '../../cli/context.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { profileSlug } from '../../cli/profile-name.js';
import { safeText } from '../../cli/render/safe-text.js';
import { ApiRequestError } from '../../client/errors.js';
import type { CompanyView } from '../../client/read/company.js';
import type { LoginFlags } from './index.js';

async function readToken(flags: LoginFlags): Promise<string> {
  if (flags.tokenStdin && flags.tokenFile) throw usageError('use either --token-stdin or --token-file, not both');
  let token: string;
  if (flags.tokenStdin) token = await readStdinText('--token-stdin');
  else if (flags.tokenFile) token = await readTextFlag('--token-file', flags.tokenFile);
  else if (process.stdin.isTTY && flags.input !== false) {
    const { inquirerPrompter } = await import('../../cli/prompts/prompter.js');
    token = await (await inquirerPrompter(flags)).password({ message: 'Access token:', mask: '*' });
  } else {
    throw new CliError('input needed: no TTY to ask for the token; pass it with --token-stdin or --token-file', EXIT.inputNeeded);
  }
  token = token.trim();
  if (!token || /\s/.test(token)) throw usageError('the token is empty or holds spaces');
  return token;
}

type Ask = (baseUrl: string, token: string) => Promise<CompanyView>;

/** The company as the profile records it; a gateway that leaves its id, CNPJ or name out gives a profile without one. */
function companyRef(company: CompanyView): CompanyRef | undefined {
  const id = company.id === undefined || !/^\d{1,15}$/.test(company.id) ? undefined : Number(company.id);
  if (id === undefined || company.cnpj === undefined || company.name === undefined) return undefined;
  return { id, cnpj: company.cnpj, name: company.name };
}
const cnpjKey = (cnpj: string) => cnpj.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
/** The server's text, made safe: it reaches the terminal in messages, whose guard keeps colour codes. */
const described = (company: CompanyRef | undefined) =>
  company === undefined ? 'a company the gateway did not name (its company record has no id, CNPJ or name)' : safeText(`${company.name} (CNPJ ${company.cnpj})`);

/** The same company of the same server: a CNPJ alone can repeat (a sandbox company given the merchant's real one). */
const sameCompany = (a: CompanyRef | undefined, aUrl: string, b: CompanyRef | undefined, bUrl: string) =>
  a !== undefined && b !== undefined && originOf(aUrl) === originOf(bUrl) && a.id === b.id && cnpjKey(a.cnpj) === cnpjKey(b.cnpj);

/** The token being logged in with, and the company it answered for (undefined when the gateway did not say). */
interface Next {
  company: CompanyRef | undefined;
  baseUrl: string;
  token: string;
}

/**
 * Whose token the profile holds, when replacing it would lose it; undefined when nothing is lost: no
 * token, the same company's (a rotated token), or one its server rejects (a reset database). The
 * server is asked unless the recorded company settles it; the record names the company when the
 * server cannot be asked.
 */
async function tokenAtStake(stored: Profile | undefined, next: Next, ask: Ask): Promise<string | undefined> {
  if (!stored?.token || stored.token === next.token) return undefined;
  if (sameCompany(stored.company, stored.baseUrl, next.company, next.baseUrl)) return undefined;
  try {
    const held = companyRef(await ask(stored.baseUrl, stored.token));
    return sameCompany(held, stored.baseUrl, next.company, next.baseUrl) ? undefined : `the token of ${described(held)}`;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return undefined;
    const reason = `${stored.baseUrl} could not be asked: ${(error as Error).message}`;
    return stored.company ? `the token of ${described(stored.company)} (${reason})` : `a token of a company pinvoice cannot tell (${reason})`;
  }
}

/** A profile name for the new company that no profile has yet ("Loja Dois" -> loja-dois, else loja-dois-2, …). */
function suggestedName(company: CompanyRef | undefined, config: ConfigStore): string {
  const base = profileSlug(company?.name ?? 'gateway');
  let name = base;
  for (let n = 2; config.get(name); n++) name = `${base}-${n}`;
  return name;
}

/** Refuses to overwrite a token of another company (it may exist nowhere else) unless --force. */
async function guardToken(name: string, next: Next, config: ConfigStore, flags: LoginFlags, ask: Ask): Promise<void> {
  const holder = flags.force ? undefined : await tokenAtStake(config.get(name), next, ask);
  if (holder === undefined) return;
  throw usageError(
    `profile "${name}" holds ${holder}, and this token is for ${described(next.company)}; nothing was changed.\n` +
      `  to keep both, log in to a new profile instead: --profile ${suggestedName(next.company, config)} --base-url ${next.baseUrl} (any new name will do)\n` +
      `  to replace the old token (it cannot be shown again): add --force`,
  );
}

export async function login(flags: LoginFlags): Promise<void> {
  const out = createOutput(flags);
  // A config file that cannot be read is moved aside by the first write: login is how it is repaired.
  const config = await openConfig(process.env, { repair: true });
  const name = profileName(flags, config);
  const baseUrl = baseUrlOf(flags, config.get(name)?.baseUrl);
  const token = await readToken(flags);
  const { createClient } = await import('../../client/index.js');
  const debug = debugWriter(flags);
  const timeoutMs = timeoutMsOf(flags);
  // its one call (Company Infos) is named in messages as what the person ran
  const ask: Ask = (url, secret) => createClient({ baseUrl: url, token: secret, debug, timeoutMs, nameOperation: () => '`pinvoice login`' }).company();
  let view: CompanyView;
  try {
    view = await ask(baseUrl, token);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) throw new CliError(`${baseUrl} rejected this token: ${error.message}`, EXIT.auth);
    throw error;
  }
  const company = companyRef(view);
  await guardToken(name, { company, baseUrl, token }, config, flags, ask);
  config.set(name, { baseUrl, token, ...(company && { company }) });
  config.setCurrent(name);
  const moved = config.movedAside();
  if (moved) out.message(`The configuration file could not be used (${moved.problem}): it was moved to ${moved.to}, and a new one started.`);
  const json = { id: company?.id ?? null, fantasy_name: company?.name ?? view.name ?? null, cnpj: company?.cnpj ?? view.cnpj ?? null };
  if (out.json) out.jsonData({ profile: name, baseUrl, company: json });
  else out.message(`Logged in to ${baseUrl} as ${company ? described(company) : safeText(view.name ?? 'a company the gateway did not name')}; profile "${name}" saved in ${config.path} and now in use.`);
}
