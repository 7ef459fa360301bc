// CPF and CNPJ check digits, including the alphanumeric CNPJ (IN RFB nº 2.229/2024,
// issued from July 2026), whose rule reduces to the classic one for numeric CNPJs.

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** A CNPJ as it is written: NN.NNN.NNN/NNNN-NN (the first twelve may be letters, for an alphanumeric CNPJ). */
export const FORMATTED_CNPJ = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;

export function normalizeDocument(input: string): string {
  return input.replace(/[.\-/\s]/g, '').toUpperCase();
}

// Receita's rule: each character weighs its ASCII code minus 48, so '0'..'9' keep
// their value and 'A'..'Z' weigh 17..42.
function checkDigit(chars: string, weights: readonly number[]): string {
  const sum = weights.reduce((total, weight, i) => total + (chars.charCodeAt(i) - 48) * weight, 0);
  const remainder = sum % 11;
  return String(remainder < 2 ? 0 : 11 - remainder);
}

function isRepeated(document: string): boolean {
  return /^(.)\1*$/.test(document);
}

export function cpfCheckDigits(base9: string): string {
  const base = normalizeDocument(base9);
  if (!/^\d{9}$/.test(base)) throw new RangeError('a CPF base must be 9 digits');
  const first = checkDigit(base, CPF_WEIGHTS_1);
  return first + checkDigit(base + first, CPF_WEIGHTS_2);
}

export function cnpjCheckDigits(base12: string): string {
  const base = normalizeDocument(base12);
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new RangeError('a CNPJ base must be 12 digits or letters');
  const first = checkDigit(base, CNPJ_WEIGHTS_1);
  return first + checkDigit(base + first, CNPJ_WEIGHTS_2);
}

export function isValidCpf(input: string): boolean {
  const cpf = normalizeDocument(input);
  if (!/^\d{11}$/.test(cpf) || isRepeated(cpf)) return false;
  return cpfCheckDigits(cpf.slice(0, 9)) === cpf.slice(9);
}

export function isValidCnpj(input: string): boolean {
  const cnpj = normalizeDocument(input);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || isRepeated(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

export function documentType(input: string): 'cpf' | 'cnpj' | null {
  if (isValidCpf(input)) return 'cpf';
  if (isValidCnpj(input)) return 'cnpj';
  return null;
}

export function isValidCpfCnpj(input: string): boolean {
  return documentType(input) !== null;
}

export interface DocumentProblem {
  reason: 'shape' | 'repeated' | 'check_digits';
  /** the end of a sentence: "not a valid CPF: …" */
  message: string;
}

/**
 * Why a document is refused, or null when it is valid: one wording for the server's 422, the prompts
 * and the flags. `accept` narrows it to a CNPJ.
 */
export function documentProblem(input: string, accept: 'cpf_cnpj' | 'cnpj' = 'cpf_cnpj'): DocumentProblem | null {
  const document = normalizeDocument(input);
  const isCpf = accept === 'cpf_cnpj' && /^\d{11}$/.test(document);
  const isCnpj = /^[0-9A-Z]{12}\d{2}$/.test(document);
  if (!isCpf && !isCnpj) {
    const message = accept === 'cnpj'
      ? 'not a CNPJ: it needs 14 characters (12 digits or letters, then 2 digits); punctuation is allowed'
      : 'not a CPF (11 digits) or a CNPJ (14 characters); punctuation is allowed';
    return { reason: 'shape', message };
  }
  const type = isCpf ? 'CPF' : 'CNPJ';
  if (isRepeated(document)) return { reason: 'repeated', message: `not a valid ${type}: all its digits are equal (a placeholder, not a real document)` };
  const valid = isCpf ? isValidCpf(document) : isValidCnpj(document);
  return valid ? null : { reason: 'check_digits', message: `not a valid ${type}: the check digits do not match` };
}

export function formatCpf(input: string): string {
  if (!isValidCpf(input)) throw new RangeError('not a valid CPF');
  return normalizeDocument(input).replace(/^(.{3})(.{3})(.{3})(.{2})$/, '$1.$2.$3-$4');
}

export function formatCnpj(input: string): string {
  if (!isValidCnpj(input)) throw new RangeError('not a valid CNPJ');
  return normalizeDocument(input).replace(/^(.{2})(.{3})(.{3})(.{4})(.{2})$/, '$1.$2.$3/$4-$5');
}

export function formatDocument(input: string): string {
  const type = documentType(input);
  if (type === 'cpf') return formatCpf(input);
  if (type === 'cnpj') return formatCnpj(input);
  return input;
}
