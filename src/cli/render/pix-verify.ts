// `pix verify` for a person: one line a step (✓ held, ✗ failed, · not run), then what the location
// says of the charge (merchant from the code, amount in reais, txid, status), then the verdict.
// Every string from the code or the location is made safe first.
import type { PixDecoding } from '../../domain/pix-decode.js';
import { formatBRL } from '../../domain/money.js';
import type { Verification } from '../../client/pix-location/verify-location.js';
import { STEPS } from '../../client/pix-location/verify-location.js';
import type { Palette } from './colour.js';
import { DASH } from './format.js';
import { safeData, safeText } from './safe-text.js';
import { keyValueTable, section } from './table.js';

const mark = (ok: boolean | null, palette: Palette) => (ok === null ? palette.dim('·') : ok ? palette.ok('✓') : palette.bad('✗'));

export function renderChecklist(given: Verification, palette: Palette): string {
  const verification = safeData(given);
  const width = Math.max(...verification.steps.map((step) => STEPS[step.id].length));
  const lines = verification.steps.map((step) => {
    const text = `${mark(step.ok, palette)} ${STEPS[step.id].padEnd(width)}  ${step.ok === null ? palette.dim(step.message) : step.message}`;
    return text.trimEnd();
  });
  return section(`pix verify${verification.url ? `: ${verification.url}` : ''}`, lines.join('\n'), palette);
}

/** Merchant and city as the code names them, the location's amount and txid: what a bank app shows before paying. */
export function chargeRows(decoded: PixDecoding, verification: Verification): [string, string][] {
  const f = decoded.fields;
  const txid = (verification.payload as { txid?: unknown } | undefined)?.txid;
  return [
    ['merchant', `${f.merchant_name ?? DASH}${f.merchant_city ? ` (${f.merchant_city})` : ''}`],
    ['amount', verification.amountCents === undefined ? DASH : formatBRL(verification.amountCents)],
    ['txid', typeof txid === 'string' ? txid : DASH],
    ['status', verification.status ?? DASH],
  ].map(([name, value]) => [name!, safeText(value!)]);
}

export function renderVerification(decoded: PixDecoding, verification: Verification, palette: Palette): string {
  const failed = verification.steps.filter((step) => step.ok === false).length;
  const verdict = failed === 0 ? `${palette.ok('verified')}: every step holds` : `${palette.bad('not verified')}: ${failed === 1 ? 'a step fails' : `${failed} steps fail`}`;
  const charge = verification.payload === undefined ? '' : `\n\n${section('Charge', keyValueTable(chargeRows(decoded, verification), palette), palette)}`;
  return `${renderChecklist(verification, palette)}${charge}\n\n${verdict}`;
}
