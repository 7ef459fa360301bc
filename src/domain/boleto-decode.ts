// A bank boleto's typeable line or barcode read for a person: bank, amount, due date, and each check
// digit verified on its own, so that a digit misheard over the phone is pinned to its field.
import { barcodeToDigitableLine, BoletoError, mod10, mod11 } from './boleto.js';

export type BoletoRule = 'field1' | 'field2' | 'field3' | 'general';
export interface BoletoProblem { rule: BoletoRule; message: string }

/** The banks a support agent meets most; any other is "bank 123". */
export const BANK_NAMES: Readonly<Record<string, string>> = {
  '001': 'Banco do Brasil', '033': 'Santander', '077': 'Banco Inter', '104': 'Caixa Econômica Federal', '212': 'Original',
  '237': 'Bradesco', '260': 'Nu Pagamentos', '336': 'C6', '341': 'Itaú Unibanco', '422': 'Safra', '748': 'Sicredi', '756': 'Sicoob',
};

export interface BoletoDecoding {
  valid: boolean;
  given: 'line' | 'barcode';
  bank: { code: string; name: string | null };
  /** "9": real */
  currency: string;
  /** 0: the amount is not in the barcode (the payer types it) */
  amount_cents: number;
  /** 0: no due date */
  factor: number;
  due_date: string | null;
  free_field: string;
  /** the typeable line, 47 digits without its dots and spaces */
  line: string;
  barcode: string;
  problems: BoletoProblem[];
}

const BASE = Date.UTC(1997, 9, 7);
const DAY = 86_400_000;
const CYCLE = 9000;

/**
 * The due date a factor stands for. Factors count days from 1997-10-07; past 9999 (2025-02-21) they
 * restarted at 1000 (2025-02-22), FEBRABAN's reset, as dueDateFactor (boleto.ts) writes them, and will
 * again every 9000 days: of the dates a factor can stand for, the one nearest `today` (YYYY-MM-DD).
 * Factors under 1000 were used before the reset only. 0: no due date.
 */
export function dueDateOfFactor(factor: number, today: string): string | null {
  const now = Date.parse(`${today}T00:00:00Z`);
  if (!/^\d{4}-\d\d-\d\d$/.test(today) || Number.isNaN(now)) throw new RangeError(`not a date: ${today}`);
  if (factor === 0) return null;
  const cycles = factor < 1000 ? 0 : Math.max(0, Math.round(((now - BASE) / DAY - factor) / CYCLE));
  return new Date(BASE + (factor + cycles * CYCLE) * DAY).toISOString().slice(0, 10);
}

/**
 * The digits of what was typed (dots, blanks and the hyphens of utility slips dropped), as a line or a
 * barcode; a BoletoError says why it is neither.
 */
export function boletoDigits(text: string): { digits: string; given: 'line' | 'barcode' } {
  const digits = text.replace(/[\s.-]/g, '');
  const stray = /\D/.exec(digits);
  if (stray) throw new BoletoError(`not a boleto: a typeable line or a barcode holds digits only (with dots and spaces), and this holds "${stray[0]}"`);
  if (digits.startsWith('8') && (digits.length === 48 || digits.length === 44)) {
    throw new BoletoError('a utility or tax slip (arrecadação: its line starts with 8) is not supported; only bank boletos (cobrança)');
  }
  if (digits.length === 47) return { digits, given: 'line' };
  if (digits.length === 44) return { digits, given: 'barcode' };
  throw new BoletoError(`not a boleto: a typeable line has 47 digits and a barcode 44; this has ${digits.length}`);
}

/** The line's three fields as printed ("00190.00009"), each with its modulo 10 check digit. */
const LINE_FIELDS = [[0, 5, 9], [10, 15, 20], [21, 26, 31]] as const;

function lineProblems(line: string): BoletoProblem[] {
  return LINE_FIELDS.flatMap(([start, dot, dv], i) => {
    const expected = String(mod10(line.slice(start, dv)));
    if (line[dv] === expected) return [];
    const printed = `${line.slice(start, dot)}.${line.slice(dot, dv + 1)}`;
    const message = `field ${i + 1} (${printed}) ends in check digit ${line[dv]}, but modulo 10 of its digits gives ${expected}: a digit of field ${i + 1} was misread`;
    return [{ rule: `field${i + 1}` as BoletoRule, message }];
  });
}

function generalProblem(barcode: string): BoletoProblem[] {
  const expected = String(mod11(barcode.slice(0, 4) + barcode.slice(5)));
  if (barcode[4] === expected) return [];
  const message = `the general check digit (field 4 of the line, position 5 of the barcode) is ${barcode[4]}, but modulo 11 of the barcode gives ${expected}`;
  return [{ rule: 'general', message }];
}

/** The barcode a line stands for (its digits moved, its field check digits left out), whatever they say. */
const lineToBarcode = (line: string) => line.slice(0, 4) + line.slice(32) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);

/** Everything a line or barcode says, and each check digit that does not match; `today` (YYYY-MM-DD) places the due date. */
export function decodeBoleto(text: string, today: string): BoletoDecoding {
  const { digits, given } = boletoDigits(text);
  const barcode = given === 'line' ? lineToBarcode(digits) : digits;
  const line = given === 'line' ? digits : barcodeToDigitableLine(digits);
  const problems = [...(given === 'line' ? lineProblems(line) : []), ...generalProblem(barcode)];
  const code = barcode.slice(0, 3);
  const factor = Number(barcode.slice(5, 9));
  return {
    valid: problems.length === 0,
    given,
    bank: { code, name: BANK_NAMES[code] ?? null },
    currency: barcode.charAt(3),
    amount_cents: Number(barcode.slice(9, 19)),
    factor,
    due_date: dueDateOfFactor(factor, today),
    free_field: barcode.slice(19),
    line,
    barcode,
    problems,
  };
}
