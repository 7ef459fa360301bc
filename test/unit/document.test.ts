import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  cnpjCheckDigits, cpfCheckDigits, documentType, formatCnpj, formatCpf, formatDocument,
  documentProblem, isValidCnpj, isValidCpf, isValidCpfCnpj, normalizeDocument,
} from '../../src/domain/document.js';

const VALID_CPFS = [
  '123.456.789-09', // the brief's example, worked out at ragfica.pages.dev "como calcular dígitos verificadores do CPF"
  '111.444.777-35', // worked example "111.444.777-XX", trabalhosfeitos.com "Função social do CPF"
  '222.333.666-38', // worked example "222.333.666-XX", trabalhosfeitos.com "Dígitos verificadores do CPF"
  '381.367.125-90', // worked example "381.367.125-XX", studylibpt.com "Como é feito o CPF"
];
const VALID_CNPJS = [
  '12.ABC.345/01DE-35', // Receita Federal / SERPRO official alphanumeric example
  '11.222.333/0001-81', // luancosta/is-cnpj README
  '34028316000103', // luancosta/is-cnpj README (calculateCheckDigits('340283160001') === '03')
  '44.038.188/0001-32', // worked example at masterdaweb.com "algoritmo para generar CNPJ"
  '59.952.259/0001-85', // micdog/cnpj-alfa README demo
  '00.000.000/0001-91', // cnpjcomletras/valida-cnpj-alfanumerico README (Banco do Brasil)
];

describe('normalizeDocument', () => {
  it('strips punctuation and whitespace', () => expect(normalizeDocument(' 12.abc.345/01de-35\t')).toBe('12ABC34501DE35'));
  it('keeps other characters', () => expect(normalizeDocument('12_3')).toBe('12_3'));
});

describe('CPF', () => {
  it.each(VALID_CPFS)('%s is valid', (cpf) => expect(isValidCpf(cpf)).toBe(true));
  it('computes check digits', () => expect(cpfCheckDigits('111444777')).toBe('35'));
  it('computes 0 for remainders below 2', () => expect(cpfCheckDigits('987654321')).toBe('00'));
  it('rejects a wrong second digit', () => expect(isValidCpf('123.456.789-08')).toBe(false));
  it('rejects a wrong first digit', () => expect(isValidCpf('123.456.789-19')).toBe(false));
  // published with wrong check digits at ragfica.pages.dev (the right ones are 35 and 00)
  it.each(['111.444.777-55', '987.654.321-31'])('rejects the mis-published %s', (cpf) => expect(isValidCpf(cpf)).toBe(false));
  it('rejects repeated digits', () => expect(isValidCpf('111.111.111-11')).toBe(false));
  it('rejects 10 digits', () => expect(isValidCpf('1234567890')).toBe(false));
  it('rejects 12 digits', () => expect(isValidCpf('123456789090')).toBe(false));
  it('rejects letters', () => expect(isValidCpf('12A.456.789-09')).toBe(false));
  it('rejects a CNPJ', () => expect(isValidCpf('11222333000181')).toBe(false));
  it('rejects a bad base', () => expect(() => cpfCheckDigits('12345678A')).toThrow(RangeError));
});

describe('CNPJ', () => {
  it.each(VALID_CNPJS)('%s is valid', (cnpj) => expect(isValidCnpj(cnpj)).toBe(true));
  it('computes the official alphanumeric example', () => expect(cnpjCheckDigits('12ABC34501DE')).toBe('35'));
  it('accepts lower case', () => expect(isValidCnpj('12abc34501de35')).toBe(true));
  it('rejects a wrong first digit', () => expect(isValidCnpj('12.ABC.345/01DE-45')).toBe(false));
  it('rejects a wrong second digit', () => expect(isValidCnpj('12.ABC.345/01DE-36')).toBe(false));
  it('rejects letters in the check digits', () => expect(isValidCnpj('12ABC34501DEAB')).toBe(false));
  it('rejects all zeros', () => expect(isValidCnpj('00000000000000')).toBe(false));
  it('rejects all the same letter', () => expect(isValidCnpj('AAAAAAAAAAAAAA')).toBe(false));
  it('rejects 13 characters', () => expect(isValidCnpj('1122233300018')).toBe(false));
  it('rejects 15 characters', () => expect(isValidCnpj('112223330001810')).toBe(false));
  it('rejects other symbols', () => expect(isValidCnpj('12ABC3450_DE35')).toBe(false));
  it('rejects a bad base', () => expect(() => cnpjCheckDigits('12ABC34501D')).toThrow(RangeError));
});

describe('documentType and formatting', () => {
  it('detects a CPF', () => expect(documentType('12345678909')).toBe('cpf'));
  it('detects a CNPJ', () => expect(documentType('12ABC34501DE35')).toBe('cnpj'));
  it('returns null when invalid', () => expect(documentType('12345678900')).toBeNull());
  it('isValidCpfCnpj accepts both', () => expect([isValidCpfCnpj('12345678909'), isValidCpfCnpj('11222333000181')]).toEqual([true, true]));
  it('isValidCpfCnpj rejects garbage', () => expect(isValidCpfCnpj('hello')).toBe(false));
  it('formats a CPF', () => expect(formatCpf('12345678909')).toBe('123.456.789-09'));
  it('formats a CNPJ', () => expect(formatCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35'));
  it('formatCpf throws when invalid', () => expect(() => formatCpf('12345678900')).toThrow(RangeError));
  it('formatCnpj throws when invalid', () => expect(() => formatCnpj('12ABC34501DE36')).toThrow(RangeError));
  it('formatDocument formats a CPF', () => expect(formatDocument('123 456 789 09')).toBe('123.456.789-09'));
  it('formatDocument formats a CNPJ', () => expect(formatDocument('11222333000181')).toBe('11.222.333/0001-81'));
  it('formatDocument leaves invalid input alone', () => expect(formatDocument(' 123.456.789-00 ')).toBe(' 123.456.789-00 '));
});

// Blind spots of the mod-11 rule itself, not of this code: remainders 0 and 1 both give
// check digit 0, CPF's weight 11 is 0 mod 11, and alphanumeric characters whose values
// differ by a multiple of 11 (1 and G = 23, 6 and A = 17) weigh the same.
describe('single substitutions the official rule cannot detect', () => {
  it('CPF: 1 -> 2 in the first digit', () => expect([isValidCpf('10000000108'), isValidCpf('20000000108')]).toEqual([true, true]));
  it('CNPJ: 1 -> 3 in the first digit', () => expect([isValidCnpj('10000000000900'), isValidCnpj('30000000000900')]).toEqual([true, true]));
  it('alphanumeric CNPJ: 1 -> G', () => expect(isValidCnpj('G2ABC34501DE35')).toBe(true));
});

const DIGITS = '0123456789';
const CNPJ_CHARS = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZ`;
const value = (char: string): number => char.charCodeAt(0) - 48;
const notRepeated = (doc: string): boolean => !/^(.)\1*$/.test(doc);
const cpfs = fc.string({ unit: fc.constantFrom(...DIGITS), minLength: 9, maxLength: 9 })
  .map((base) => base + cpfCheckDigits(base)).filter(notRepeated);
const cnpjs = fc.string({ unit: fc.constantFrom(...CNPJ_CHARS), minLength: 12, maxLength: 12 })
  .map((base) => base + cnpjCheckDigits(base)).filter(notRepeated);
const replaceAt = (doc: string, index: number, char: string): string => doc.slice(0, index) + char + doc.slice(index + 1);

describe('properties', () => {
  it('a CPF base plus its check digits is valid', () => fc.assert(fc.property(cpfs, (cpf) => isValidCpf(cpf) && documentType(cpf) === 'cpf')));
  it('a CNPJ base plus its check digits is valid', () => fc.assert(fc.property(cnpjs, (cnpj) => isValidCnpj(cnpj) && documentType(cnpj) === 'cnpj')));
  it('formatting then validating keeps a CNPJ valid', () => fc.assert(fc.property(cnpjs, (cnpj) => isValidCnpj(formatDocument(cnpj)))));
  it('changing a check digit always invalidates', () =>
    fc.assert(fc.property(fc.oneof(cpfs, cnpjs), fc.boolean(), fc.constantFrom(...CNPJ_CHARS), (doc, last, char) => {
      const index = doc.length - (last ? 1 : 2);
      fc.pre(doc[index] !== char);
      return !isValidCpfCnpj(replaceAt(doc, index, char));
    })));
  // Exactly the changes mod 11 can see: first check digit not 0 and a value change that is not a multiple of 11.
  it('changing a base character invalidates when the rule can see it', () =>
    fc.assert(fc.property(fc.oneof(cpfs, cnpjs), fc.nat(), fc.constantFrom(...CNPJ_CHARS), (doc, at, char) => {
      const index = at % (doc.length - 2);
      const old = doc.charAt(index);
      fc.pre(doc.at(-2) !== '0' && old !== char && (value(old) - value(char)) % 11 !== 0 && (doc.length === 14 || DIGITS.includes(char)));
      return !isValidCpfCnpj(replaceAt(doc, index, char));
    }), { numRuns: 1000 }));
});

describe('documentProblem: why a document is refused, in one wording for every caller', () => {
  it.each([
    ['529.982.247-25', null],
    ['12.ABC.345/01DE-35', null],
    ['000.000.000-00', 'repeated'],
    ['00.000.000/0000-00', 'repeated'],
    ['111.111.111-11', 'repeated'],
    ['529.982.247-24', 'check_digits'],
    ['11.222.333/0001-82', 'check_digits'],
    ['1234', 'shape'],
    ['', 'shape'],
  ])('%j → %s', (input, reason) => {
    expect(documentProblem(input)?.reason ?? null).toBe(reason);
  });

  it('says what is wrong, naming the kind of document', () => {
    expect(documentProblem('000.000.000-00')?.message).toBe('not a valid CPF: all its digits are equal (a placeholder, not a real document)');
    expect(documentProblem('11.222.333/0001-82')?.message).toBe('not a valid CNPJ: the check digits do not match');
  });

  it('narrowed to a CNPJ, calls a CPF the wrong shape', () => {
    expect(documentProblem('529.982.247-25', 'cnpj')?.reason).toBe('shape');
    expect(documentProblem('11.222.333/0001-81', 'cnpj')).toBeNull();
  });
});
