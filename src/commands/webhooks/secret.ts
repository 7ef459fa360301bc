// `pinvoice webhooks secret`, and where `listen` and `verify` find the secret they check with.
import { readTextFlag } from '../../base/read-input.js';
import { connect, type CommonFlags } from '../../cli/context.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import type { SecretFlags } from './index.js';

export async function printSecret(flags: SecretFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const { raw, secret } = await client.webhookSecret();
  if (out.json) return out.jsonData(raw);
  out.data(secret);
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
