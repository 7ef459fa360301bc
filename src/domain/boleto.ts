// Boleto (FEBRABAN bank slip): the 44-digit barcode and the 47-digit typeable line, with their check digits.

export class BoletoError extends Error {}

/** Modulo 10 of a typeable-line field: weights 2,1,… from the right, digits of products summed. */
export function mod10(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const product = Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

/** Modulo 11 of the barcode (43 digits without the check digit): weights 2..9 from the right; 0, 10, 11 → 1. */
export function mod11(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (2 + (i % 8));
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

const BASE = Date.UTC(1997, 9, 7);
const DAY = 86_400_000;

/** Days since 1997-10-07; after 9999 (2025-02-21) the factor restarts at 1000 (2025-02-22). */
export function dueDateFactor(dueDate: string): string {
  const time = Date.parse(`${dueDate}T00:00:00Z`);
  if (!/^\d{4}-\d\d-\d\d$/.test(dueDate) || Number.isNaN(time)) throw new RangeError(`not a date: ${dueDate}`);
  const days = Math.round((time - BASE) / DAY);
  if (days < 1000) throw new RangeError(`due date ${dueDate} is before 2000-07-03`);
  return String(((days - 1000) % 9000) + 1000);
}

export interface BoletoInput {
  bankCode: string;
  amountCents: number;
  dueDate: string;
  freeField: string;
}

export function buildBarcode(input: BoletoInput): string {
  if (!/^\d{3}$/.test(input.bankCode)) throw new RangeError('bankCode must be 3 digits');
  if (!/^\d{25}$/.test(input.freeField)) throw new RangeError('freeField must be 25 digits');
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > 9_999_999_999) {
    throw new RangeError('amountCents must be an integer from 0 to 9999999999');
  }
  const rest = dueDateFactor(input.dueDate) + String(input.amountCents).padStart(10, '0') + input.freeField;
  const head = `${input.bankCode}9`;
  return head + String(mod11(head + rest)) + rest;
}

export function barcodeToDigitableLine(barcode: string): string {
  if (!/^\d{44}$/.test(barcode)) throw new BoletoError('a barcode has 44 digits');
  const free = barcode.slice(19);
  const f1 = barcode.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode[4]}${barcode.slice(5, 19)}`;
}

/** Checks every check digit of a typeable line (dots and spaces allowed) and answers its barcode. */
export function digitableLineToBarcode(line: string): string {
  const digits = line.replace(/[\s.]/g, '');
  if (!/^\d{47}$/.test(digits)) throw new BoletoError('a typeable line has 47 digits');
  const fields = [digits.slice(0, 9), digits.slice(10, 20), digits.slice(21, 31)];
  const dvs = [digits[9], digits[20], digits[31]];
  fields.forEach((field, i) => {
    if (String(mod10(field)) !== dvs[i]) throw new BoletoError(`field ${i + 1} check digit: expected ${mod10(field)}, got ${dvs[i]}`);
  });
  const [f1 = '', f2 = '', f3 = ''] = fields;
  const barcode = f1.slice(0, 4) + digits[32] + digits.slice(33) + f1.slice(4) + f2 + f3;
  const expected = mod11(barcode.slice(0, 4) + barcode.slice(5));
  if (String(expected) !== barcode[4]) throw new BoletoError(`general check digit: expected ${expected}, got ${barcode[4]}`);
  return barcode;
}

/**
 * A 47-digit typeable line grouped as FEBRABAN prints it, so it can be read out and compared:
 * "00190.50095 40144.816069 06809.350314 3 37370000000100". Anything else is returned as given.
 */
export function formatDigitableLine(line: string): string {
  const d = line.replace(/\D/g, '');
  if (d.length !== 47) return line;
  return `${d.slice(0, 5)}.${d.slice(5, 10)} ${d.slice(10, 15)}.${d.slice(15, 21)} ${d.slice(21, 26)}.${d.slice(26, 32)} ${d[32]} ${d.slice(33)}`;
}

/** The sandbox's free field: agency (4) + account (8) + our number from the invoice id (11) + carteira "17". */
export function sandboxFreeField(invoiceId: number, agency: string, account: string): string {
  const digits = (text: string, size: number) => text.replace(/\D/g, '').slice(-size).padStart(size, '0');
  return digits(agency, 4) + digits(account, 8) + String(invoiceId).padStart(11, '0').slice(-11) + '17';
}
