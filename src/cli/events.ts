// `pinvoice events list|resend` and `pinvoice webhooks secret|verify`.
import { connect, type CommonFlags } from './context.js';
import { CliError, EXIT, usageError } from './errors.js';
import { readFileFlag, readTextFlag } from './invoice-input.js';
import { createOutput } from './output.js';

export async function listEvents(id: string, flags: CommonFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const events = await client.listEvents(id.trim());
  if (out.json) return out.jsonData(events);
  const { renderAttempts, renderEventTable } = await import('./render/events.js');
  const attempts = renderAttempts(events, out.palette);
  out.data([renderEventTable(events, out.palette, `Postbacks of ${id.trim()}`), attempts].filter((s) => s !== null).join('\n\n'));
}

export async function resendEvent(id: string, flags: CommonFlags & { idempotencyKey?: string }): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const event = await client.resendEvent(id.trim(), flags.idempotencyKey);
  if (out.json) return out.jsonData(event);
  const { renderEvent } = await import('./render/events.js');
  out.data(renderEvent(event, out.palette));
  out.message(`queued: ${event.id} goes to ${event.url} now (follow it with \`pinvoice events list ${event.invoice_id}\`)`);
}

export async function printSecret(flags: CommonFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const secret = await client.webhookSecret();
  if (out.json) return out.jsonData(secret);
  out.data(secret.webhook_secret);
}

export interface SecretFlags extends CommonFlags {
  secretFile?: string;
}

/** The webhook secret: --secret-file, else PINVOICE_WEBHOOK_SECRET, else asked of the profile's server. */
export async function resolveSecret(flags: SecretFlags, env = process.env): Promise<string> {
  if (flags.secretFile) {
    const secret = (await readTextFlag('--secret-file', flags.secretFile)).trim();
    if (!secret) throw usageError(`--secret-file ${flags.secretFile} is empty`);
    return secret;
  }
  if (env.PINVOICE_WEBHOOK_SECRET) return env.PINVOICE_WEBHOOK_SECRET.trim();
  try {
    const { client } = await connect(flags);
    return (await client.webhookSecret()).webhook_secret;
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT.auth) {
      throw new CliError(`${error.message}; or give the webhook secret with --secret-file or PINVOICE_WEBHOOK_SECRET`, EXIT.auth);
    }
    throw error;
  }
}

export interface VerifyFlags extends SecretFlags {
  body: string;
  signature: string;
  tolerance?: number;
}

export async function verify(flags: VerifyFlags): Promise<void> {
  if (flags.body === '-' && flags.secretFile === '-') throw usageError('--body and --secret-file cannot both read stdin');
  const body = await readFileFlag('--body', flags.body);
  const out = createOutput(flags);
  const secret = await resolveSecret(flags);
  const { VERIFY_REASONS, pastedSignature, verifySignature } = await import('../domain/signature.js');
  const result = verifySignature({ secret, body, headers: pastedSignature(flags.signature), toleranceSeconds: flags.tolerance });
  const signedAt = result.timestamp === undefined ? null : new Date(result.timestamp * 1000).toISOString();
  if (out.json) out.jsonData({ valid: result.valid, ...(!result.valid && { reason: result.reason }), signed_at: signedAt });
  if (result.valid) {
    if (!out.json) out.data(`${out.palette.ok('valid')}: ${signedAt ? `signed at ${signedAt}` : 'signed'} over ${body.length} bytes`);
    return;
  }
  throw new CliError(`invalid signature: ${VERIFY_REASONS[result.reason]}`, EXIT.invalidSignature);
}
