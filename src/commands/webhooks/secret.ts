// `pinvoice webhooks secret`, and where `listen` and `verify` find the secret they check with.
import { envText } from '../../base/env-file.js';
import { readTextFlag } from '../../base/read-input.js';
import { connect, resolveConnection, type CommonFlags } from '../../cli/context.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import type { SecretFlags } from './index.js';

export async function printSecret(flags: SecretFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  const { raw, secret } = await client.webhookSecret();
  if (out.json) return out.jsonData(raw);
  // --env: the connection this run used, as a test suite or a script reads it back from the environment
  if (flags.env) return out.data(envText({ PINVOICE_BASE_URL: connection.baseUrl, PINVOICE_TOKEN: connection.token, PINVOICE_WEBHOOK_SECRET: secret }, '--env'));
  out.data(secret);
}

/**
 * The key of X-Webhook-Signature for a company that signs with its API token (--signed-with token): the
 * token of the run (--token-file, PINVOICE_TOKEN, the profile's), read without asking the server.
 */
export async function resolveSigningToken(flags: CommonFlags): Promise<string> {
  return (await resolveConnection(flags)).token;
}

/** The webhook secret: --secret-file, else PINVOICE_WEBHOOK_SECRET, else asked of the profile's server. */
export async function resolveSecret(flags: CommonFlags & { secretFile?: string | undefined }, env = process.env): Promise<string> {
  if (flags.secretFile) {
    const secret = (await readTextFlag('--secret-file', flags.secretFile)).trim();
    if (!secret) throw usageError(`--secret-file ${flags.secretFile} is empty`);
    return secret;
  }
  if (env.PINVOICE_WEBHOOK_SECRET) return env.PINVOICE_WEBHOOK_SECRET.trim();
  try {
    const { client } = await connect(flags);
    return (await client.webhookSecret()).secret;
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT.auth) {
      throw new CliError(`${error.message}; or give the webhook secret with --secret-file or PINVOICE_WEBHOOK_SECRET`, EXIT.auth);
    }
    throw error;
  }
}
