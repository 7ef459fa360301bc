// `pinvoice pix verify`: what a payer's bank does with a dynamic pix code before it shows the amount,
// each step named: the code's checklist (pix decode's), the location fetched over https, its JWS
// verified against the jku's keys and their certificates, the charge held against the code.
// Exit 0 only when every step holds; else the code of the gravest failure (11, 13, 12, then 14).
import { CliError, EXIT, type ExitCode } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import type { PixDecoding } from '../../domain/pix-decode.js';
import { brokenRules, readCodeArgument } from './decode.js';
import type { PixVerifyFlags } from './index.js';
import { STEPS, verifyLocation, type Failure, type Verification } from '../../client/pix-location/verify-location.js';

/** Seconds each fetch (the location, its JWKS) may take, unless --timeout. */
export const DEFAULT_TIMEOUT_S = 10;
/** codMun when none is given: São Paulo's IBGE code (a bank sends its payer's). */
export const DEFAULT_COD_MUN = '3550308';

const EXIT_OF: Readonly<Record<Failure, ExitCode>> = {
  'invalid-code': EXIT.invalidCode, unreachable: EXIT.locationUnreachable, unverified: EXIT.locationUnverified, 'not-payable': EXIT.notPayable,
};
const GRAVITY: readonly Failure[] = ['invalid-code', 'unreachable', 'unverified', 'not-payable'];

export async function verifyCode(decoded: PixDecoding, flags: { ca?: string | undefined; timeout?: number | undefined; codMun?: string | undefined }): Promise<Verification> {
  const [{ trustedRoots }, { packageVersion }] = await Promise.all([import('../../client/pix-location/trust.js'), import('../../version.js')]);
  return verifyLocation(decoded, {
    roots: await trustedRoots(flags.ca),
    timeoutMs: (flags.timeout ?? DEFAULT_TIMEOUT_S) * 1000,
    codMun: flags.codMun ?? DEFAULT_COD_MUN,
    now: new Date(),
    userAgent: `pinvoice/${packageVersion()}`,
  });
}

/** The error for a verification that did not hold: its gravest failure's exit code, the failed steps named. */
export function verificationError(decoded: PixDecoding, verification: Verification): CliError | undefined {
  const failed = verification.steps.filter((step) => step.ok === false);
  const gravest = GRAVITY.find((failure) => failed.some((step) => step.failure === failure));
  if (gravest === undefined) return undefined;
  const first = failed.find((step) => step.failure === gravest)!;
  const message = gravest === 'invalid-code' ? (decoded.valid ? first.message : brokenRules(decoded))
    : gravest === 'unreachable' ? `could not fetch the ${first.id === 'jwks' ? "location's keys (jku)" : 'location'}: ${first.message}`
      : gravest === 'not-payable' ? `the charge is not open to payment: ${first.message}`
        : `the location's answer does not hold: ${failed.map((step) => `${step.id} (${STEPS[step.id]})`).join(', ')}`;
  return new CliError(message, EXIT_OF[gravest]);
}

export async function printVerification(out: Output, decoded: PixDecoding, verification: Verification): Promise<void> {
  if (out.json) {
    const { url, steps, payload, verified } = verification;
    out.jsonData({ ok: steps.every((step) => step.ok), location: url ?? null, steps: steps.map(({ id, ok, message }) => ({ step: id, ok, message })), verified, payload: payload ?? null });
    return;
  }
  const { renderVerification } = await import('../../cli/render/pix-verify.js');
  out.data(renderVerification(decoded, verification, out.palette));
}

export async function verifyPixCode(given: string, flags: PixVerifyFlags): Promise<void> {
  const out = createOutput(flags);
  const { decoded } = await readCodeArgument(given, out, 'verify');
  const verification = await verifyCode(decoded, flags);
  await printVerification(out, decoded, verification);
  const error = verificationError(decoded, verification);
  if (error) throw error;
}
