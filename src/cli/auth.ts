// `pinvoice login`, `logout` and `whoami`: tokens come from a hidden prompt, stdin or a file, never a flag.
import { readFileSync } from 'node:fs';
import { ApiRequestError } from '../client/errors.js';
import { openConfig } from './config.js';
import { baseUrlOf, connect, profileName, type CommonFlags } from './context.js';
import { CliError, EXIT, usageError } from './errors.js';
import { readStdinText } from './invoice-input.js';
import { createOutput } from './output.js';

export interface LoginFlags extends CommonFlags {
  tokenStdin?: boolean;
  tokenFile?: string;
}

async function readToken(flags: LoginFlags): Promise<string> {
  if (flags.tokenStdin && flags.tokenFile) throw usageError('use either --token-stdin or --token-file, not both');
  let token: string;
  if (flags.tokenStdin) token = await readStdinText();
  else if (flags.tokenFile) {
    try {
      token = readFileSync(flags.tokenFile, 'utf8');
    } catch (error) {
      throw usageError(`--token-file ${flags.tokenFile}: ${(error as NodeJS.ErrnoException).code ?? 'cannot be read'}`);
    }
  } else if (process.stdin.isTTY && flags.input !== false) {
    const { inquirerPrompter } = await import('./prompts/prompter.js');
    token = await (await inquirerPrompter()).password({ message: 'Access token:', mask: '*' });
  } else {
    throw new CliError('input needed: no TTY to ask for the token; pass it with --token-stdin or --token-file', EXIT.inputNeeded);
  }
  token = token.trim();
  if (!token || /\s/.test(token)) throw usageError('the token is empty or holds spaces');
  return token;
}

export async function login(flags: LoginFlags): Promise<void> {
  const out = createOutput(flags);
  const config = await openConfig();
  const name = flags.profile ?? (process.env.PINVOICE_PROFILE || undefined) ?? config.current() ?? 'default';
  profileName({ profile: name }, config);
  const baseUrl = baseUrlOf(flags, config.get(name)?.baseUrl);
  const token = await readToken(flags);
  const { createClient } = await import('../client/index.js');
  const debug = flags.debug ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
  let company;
  try {
    company = await createClient({ baseUrl, token, debug }).company();
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) throw new CliError(`${baseUrl} rejected this token: ${error.message}`, EXIT.auth);
    throw error;
  }
  config.set(name, { baseUrl, token });
  config.setCurrent(name);
  if (out.json) out.jsonData({ profile: name, baseUrl, company: { id: company.id, fantasy_name: company.fantasy_name, cnpj: company.cnpj } });
  else out.message(`Logged in to ${baseUrl} as ${company.fantasy_name} (CNPJ ${company.cnpj}); profile "${name}" saved in ${config.path} and now in use.`);
}

export async function logout(flags: CommonFlags): Promise<void> {
  const config = await openConfig();
  const name = profileName(flags, config);
  if (!config.remove(name)) throw new CliError(`no profile "${name}" (see pinvoice profile list)`, EXIT.notFound);
  createOutput(flags).message(`Profile "${name}" and its token removed.`);
}

export async function whoami(flags: CommonFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  const company = await client.company();
  if (out.json) return out.jsonData(company);
  const { renderCompany } = await import('./render/company.js');
  out.message(`profile ${connection.profile} · ${connection.baseUrl}`);
  out.data(renderCompany(company, { palette: out.palette }));
}
