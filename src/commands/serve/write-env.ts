// `serve --write-env PATH`: what a CI job sources to reach the server it started (base URL, token,
// webhook secret), written once the server listens and its company exists, before the `listening on`
// line: a script that waits for that line (or for the file) finds the file whole. The format and its
// quoting: src/base/env-file.ts.
import { envText, writeOwnerOnly } from '../../base/env-file.js';
import type { Notify } from '../../base/private-file.js';
import type { RunningServer } from '../../server/serve.js';
import type { Company } from '../../server/store/port.js';

export const FLAG = '--write-env';

/** The company the file speaks for: the token's, else the first (the one a first start creates). */
async function companyOf(server: RunningServer, token: string | undefined): Promise<Company | undefined> {
  if (token) return (await server.store.companies.authenticate(token))?.company;
  return (await server.store.companies.list())[0];
}

/** The variables, PINVOICE_TOKEN only when this start knows the token (it created the company, or --token). */
export async function serverEnv(server: RunningServer, token: string | undefined): Promise<Record<string, string>> {
  const company = await companyOf(server, token);
  return {
    PINVOICE_BASE_URL: server.url,
    ...(token && { PINVOICE_TOKEN: token }),
    ...(company && { PINVOICE_WEBHOOK_SECRET: company.webhook_secret }),
  };
}

/** Refuses before the server starts what would be refused after: a token the file cannot spell. */
export function checkEnvToken(token: string | undefined): void {
  if (token) envText({ PINVOICE_TOKEN: token }, FLAG);
}

export async function writeServerEnv(path: string, server: RunningServer, token: string | undefined, notify: Notify): Promise<Record<string, string>> {
  const vars = await serverEnv(server, token);
  writeOwnerOnly(path, envText(vars, FLAG), FLAG, notify);
  return vars;
}
