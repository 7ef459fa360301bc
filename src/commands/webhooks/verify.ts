// `pinvoice webhooks verify`: a saved postback body checked against its signature header (exit 9 when
// it does not match).
import { readFileFlag } from '../../base/read-input.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import type { VerifyFlags } from './index.js';
import { resolveSecret, resolveSigningToken } from './secret.js';

export async function verify(flags: VerifyFlags): Promise<void> {
  if (flags.body === '-' && flags.secretFile === '-') throw usageError('--body and --secret-file cannot both read stdin');
  const body = await readFileFlag('--body', flags.body);
  const out = createOutput(flags);
  const { VERIFY_REASONS, pastedSignature, verifySignature } = await import('../../domain/signature.js');
  const headers = pastedSignature(flags.signature);
  const bodyKey = flags.signedWith === 'token' ? await resolveSigningToken(flags) : undefined;
  // an X-Webhook-Signature keyed with the token needs no secret: none is looked for
  const secret = bodyKey !== undefined && headers.timestamped === undefined ? bodyKey : await resolveSecret(flags);
  const result = verifySignature({ secret, bodyKey, body, headers, toleranceSeconds: flags.tolerance });
  const signedAt = result.timestamp === undefined ? null : new Date(result.timestamp * 1000).toISOString();
  if (out.json) out.jsonData({ valid: result.valid, ...(!result.valid && { reason: result.reason }), signed_at: signedAt });
  if (result.valid) {
    if (!out.json) out.data(`${out.palette.ok('valid')}: ${signedAt ? `signed at ${signedAt}` : 'signed'} over ${body.length} bytes`);
    return;
  }
  throw new CliError(`invalid signature: ${VERIFY_REASONS[result.reason]}`, EXIT.invalidSignature);
}
