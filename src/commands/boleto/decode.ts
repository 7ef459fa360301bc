// `pinvoice boleto decode`: a boleto line or barcode read out (bank, amount, due date, the other form),
// each check digit verified (exit 11 naming the field when one fails; 2 when it is not a boleto at all).
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import type { Palette } from '../../cli/render/colour.js';
import { DEFAULT_TIME_ZONE, dueFromToday, todayIn } from '../../cli/render/time.js';
import { formatDigitableLine, BoletoError } from '../../domain/boleto.js';
import { decodeBoleto, type BoletoDecoding } from '../../domain/boleto-decode.js';
import type { BoletoDecodeFlags } from './index.js';

/** A slip falls due by the calendar where it is paid: Brazil's (time.ts's default zone). */
const dueText = (due: string | null, now: number) => (due === null ? 'no due date (factor 0000)' : `${due} (${dueFromToday(due, now) ?? '?'})`);

async function render(decoded: BoletoDecoding, now: number, palette: Palette): Promise<string> {
  const [{ keyValueTable, section }, { formatBRL }, { safeText }] = await Promise.all([
    import('../../cli/render/table.js'), import('../../domain/money.js'), import('../../cli/render/safe-text.js'),
  ]);
  const { bank, given, problems } = decoded;
  const table = keyValueTable([
    ['bank', bank.name === null ? `bank ${bank.code}` : `${bank.code} ${bank.name}`],
    ['currency', decoded.currency === '9' ? '9 (real)' : `${decoded.currency} (not the real)`],
    ['amount', decoded.amount_cents === 0 ? 'amount not in the barcode (the payer types it)' : formatBRL(decoded.amount_cents)],
    ['due date', dueText(decoded.due_date, now)],
    ['factor', String(decoded.factor).padStart(4, '0')],
    ['free field', decoded.free_field],
    // the title says which form was given; the other is made from it
    ['line', formatDigitableLine(decoded.line)],
    ['barcode', decoded.barcode],
  ], palette);
  const verdict = decoded.valid
    ? `${palette.ok('valid')}: every check digit matches`
    : [`${palette.bad('invalid')}: ${problems.length === 1 ? 'a check digit does' : `${problems.length} check digits do`} not match`, ...problems.map((problem) => `  ${problem.rule.padEnd(7)}  ${safeText(problem.message)}`)].join('\n');
  return `${section(`boleto (given as its ${given === 'line' ? 'typeable line' : 'barcode'})`, table, palette)}\n\n${verdict}`;
}

export async function decodeBoletoLine(given: string, flags: BoletoDecodeFlags): Promise<void> {
  if (given.trim() === '') throw usageError('no line or barcode to decode: give the 47-digit typeable line or the 44-digit barcode');
  const out = createOutput(flags);
  const now = Date.now();
  const today = todayIn(DEFAULT_TIME_ZONE, now);
  let decoded: BoletoDecoding;
  try {
    decoded = decodeBoleto(given, today);
  } catch (error) {
    throw error instanceof BoletoError ? usageError(error.message) : error;
  }
  const { valid, bank, currency, amount_cents, due_date, factor, free_field, line, barcode, problems } = decoded;
  if (out.json) out.jsonData({ valid, bank, currency, amount_cents, due_date, factor, free_field, line, barcode, problems });
  else out.data(await render(decoded, now, out.palette));
  if (valid) return;
  throw new CliError(`the boleto's check digits do not match: ${problems.map((problem) => problem.rule).join(', ')}`, EXIT.invalidCode);
}
