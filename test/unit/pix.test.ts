import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { buildPixCode, crc16, isValidPixCode, parsePixCode, PixCodeError, type PixCodeInput } from '../../src/domain/pix.js';

// Banco Central, "Manual de Padrões para Iniciação do Pix", static example (key, no amount)
const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
// Banco Central, "Manual de Padrões para Iniciação do Pix", dynamic example (field 26.25 url), as quoted in the test suites of several open-source pix libraries
const BCB_DYNAMIC =
  '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4';
// Banco Central, "Manual de Padrões para Iniciação do Pix" §2.8.2 composite example: key, amount 100.50 and a recurrence template 80
const BCB_COMPOSITE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406100.505802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac12000263042875';
// Banco Central, "Manual do BR Code" multi-arrangement example, as in the README of naomijub/brcode
const BRCODE_MANUAL =
  '00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38';
// thalesog/pix-utils tests/emvCodes.ts (DYNAMIC_TEST_EMV), built there from merchantCity 'SÃO MIGUÉL DO O'
const PIX_UTILS_DYNAMIC =
  '00020126740014br.gov.bcb.pix2552payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e875204000053039865802BR5914THALES OGLIARI6015SAO MIGUEL DO O62070503***630442C5';
// pypix-static README on PyPI (key is a CPF, amount 12.34)
const PYPIX =
  '00020126330014BR.GOV.BCB.PIX011112345678900520400005303986540512.345802BR5924Hypothetical Receiv Name6013CITY RECEIVER62070503***6304EA64';

const TXID = 'ABCDEFGHIJKLMNOPQRSTUVWXY';
const INPUT: PixCodeInput = { merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', amountCents: 1250, txid: TXID, key: '123e4567-e12b-12d1-a456-426655440000' };
// Golden output of buildPixCode(INPUT); its CRC was cross-checked with Python's binascii.crc_hqx(data, 0xFFFF)
const GOLDEN =
  '00020101021226580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540512.505802BR5913Fulano de Tal6008BRASILIA62290525ABCDEFGHIJKLMNOPQRSTUVWXY63043E70';

const parseError = (code: string): string => {
  try {
    parsePixCode(code);
  } catch (error) {
    if (error instanceof PixCodeError) return error.message;
    throw error;
  }
  return 'no error';
};
const withCrc = (body: string): string => body + '6304' + crc16(body + '6304');
const expectedAscii = (text: string, max: number): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[^ -~]/gu, ' ').slice(0, max);

describe('crc16', () => {
  it('has the CCITT-FALSE check value 29B1', () => expect(crc16('123456789')).toBe('29B1'));
  it('gives 1D3D for the BCB static example', () => expect(crc16(BCB_STATIC.slice(0, -4))).toBe('1D3D'));
  it('is FFFF for the empty string', () => expect(crc16('')).toBe('FFFF'));
  it('pads to 4 hex digits', () => expect(crc16('A')).toMatch(/^[0-9A-F]{4}$/));
  // 7ACB is binascii.crc_hqx(b'\xc3\xa9', 0xFFFF); the Latin-1 byte alone would give 8DF7
  it('hashes UTF-8 bytes', () => expect(crc16('é')).toBe('7ACB'));
});

describe('parsePixCode on published codes', () => {
  it('parses the BCB static example', () =>
    expect(parsePixCode(BCB_STATIC)).toMatchObject({
      payloadFormat: '01', pointOfInitiation: null, gui: 'br.gov.bcb.pix', key: '123e4567-e12b-12d1-a456-426655440000', url: null,
      amountCents: null, currency: '986', country: 'BR', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', txid: '***', crc: '1D3D',
    }));
  it('exposes nested fields', () => expect(parsePixCode(BCB_STATIC).fields[1]).toEqual({
    id: '26', value: '0014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000',
    children: [{ id: '00', value: 'br.gov.bcb.pix' }, { id: '01', value: '123e4567-e12b-12d1-a456-426655440000' }],
  }));
  it('parses the BCB dynamic example', () =>
    expect(parsePixCode(BCB_DYNAMIC)).toMatchObject({ pointOfInitiation: '12', key: null, url: 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441', crc: '64E4' }));
  it('parses the BCB composite example with template 80', () => {
    const parsed = parsePixCode(BCB_COMPOSITE);
    expect(parsed.amountCents).toBe(10050);
    expect(parsed.fields.find((f) => f.id === '80')?.children?.[1]).toEqual({ id: '25', value: 'pix.example.com/rec/2353c790eefb11eaadc10242ac120002' });
  });
  it('parses the BR Code manual example (upper-case GUI, template 27, field 61)', () =>
    expect(parsePixCode(BRCODE_MANUAL)).toMatchObject({ gui: 'BR.GOV.BCB.PIX', amountCents: 12345, merchantName: 'NOME DO RECEBEDOR', txid: 'RP12345678-2019' }));
  it('parses the pix-utils dynamic code', () => expect(parsePixCode(PIX_UTILS_DYNAMIC).url).toBe('payload.psp.com/3ec9d2f9-5f03-4e0e-820d-63a81e769e87'));
  it('parses the pypix code', () => expect(parsePixCode(PYPIX)).toMatchObject({ key: '12345678900', amountCents: 1234 }));
  it.each([BCB_STATIC, BCB_DYNAMIC, BCB_COMPOSITE, BRCODE_MANUAL, PIX_UTILS_DYNAMIC, PYPIX])('accepts %s', (code) =>
    expect(isValidPixCode(code)).toBe(true));
});

describe('published codes that do not check out', () => {
  // docs.lerian.studio "create static QR code" response example: CRC is really 02A4
  it('rejects the Lerian docs example', () =>
    expect(parseError('00020126580014br.gov.bcb.Pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.005802BR5913TESTE ACCOUNT6008BRASILIA62070503***630445C8'))
      .toBe('CRC mismatch: expected 02A4, got 45C8'));
  // starkbank SDK doc comment for Invoice.brcode: CRC is really 28AD
  it('rejects the Stark Bank doc example', () =>
    expect(parseError('00020101021226800014br.gov.bcb.pix2558invoice.starkbank.com/f5333103-3279-4db2-8389-5efe335ba93d5204000053039865802BR5913Arya Stark6009Sao Paulo6220051656565656565656566304A9A0'))
      .toBe('CRC mismatch: expected 28AD, got A9A0'));
  // gist matheusb-comp/1efa205b "Exemplos de formato PIX": CRC 170E matches, but field 62 declares 08 for a 7-character value
  it('rejects the gist static example for its TLV lengths', () =>
    expect(parseError('00020126360014BR.GOV.BCB.PIX0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62080503***6304170E'))
      .toMatch(/malformed TLV|invalid length/));
});

describe('buildPixCode', () => {
  it('produces the golden code', () => expect(buildPixCode(INPUT)).toBe(GOLDEN));
  it('matches the BCB static example in every field it can express', () => {
    const fields = parsePixCode(buildPixCode(INPUT)).fields;
    for (const id of ['00', '26', '52', '53', '58', '59', '60']) expect(fields.find((f) => f.id === id)).toEqual(parsePixCode(BCB_STATIC).fields.find((f) => f.id === id));
  });
  it('matches the BCB dynamic example in every field it can express', () => {
    const built = buildPixCode({ ...INPUT, key: undefined, txid: undefined, url: 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441' });
    const fields = parsePixCode(built).fields;
    for (const id of ['00', '01', '26', '52', '53', '58', '59', '60']) expect(fields.find((f) => f.id === id)).toEqual(parsePixCode(BCB_DYNAMIC).fields.find((f) => f.id === id));
  });
  it('transliterates the city like pix-utils', () =>
    expect(parsePixCode(buildPixCode({ ...INPUT, merchantCity: 'SÃO MIGUÉL DO O' })).merchantCity).toBe(parsePixCode(PIX_UTILS_DYNAMIC).merchantCity));
  it('formats amounts without floating point', () => {
    expect(parsePixCode(buildPixCode({ ...INPUT, amountCents: 1 })).fields.find((f) => f.id === '54')?.value).toBe('0.01');
    expect(parsePixCode(buildPixCode({ ...INPUT, amountCents: 999_999_999_999 })).fields.find((f) => f.id === '54')?.value).toBe('9999999999.99');
  });
  it('replaces non-ASCII that is not an accent with a space', () =>
    expect(parsePixCode(buildPixCode({ ...INPUT, merchantName: 'Açaí—Ç ß 😀' })).merchantName).toBe('Acai C    '));
  it('truncates name to 25 and city to 15', () =>
    expect(parsePixCode(buildPixCode({ ...INPUT, merchantName: 'x'.repeat(30), merchantCity: 'y'.repeat(20) }))).toMatchObject({ merchantName: 'x'.repeat(25), merchantCity: 'y'.repeat(15) }));
  it.each([
    ['a txid over 25 characters (field 62.05)', { txid: 'A'.repeat(26) }],
    ['a txid beside a url', { key: undefined, url: 'pix.example.com/x' }],
    ['a txid with a dash', { txid: `${'A'.repeat(10)}-` }],
    ['zero amount', { amountCents: 0 }],
    ['fractional amount', { amountCents: 12.5 }],
    ['negative amount', { amountCents: -100 }],
    ['unsafe amount', { amountCents: 2 ** 53 }],
    ['an amount over 13 characters', { amountCents: 1_000_000_000_000 }],
    ['both key and url', { url: 'pix.example.com/x' }],
    ['neither key nor url', { key: undefined }],
    ['a url with a scheme', { key: undefined, url: 'https://pix.example.com/x' }],
    ['a key over 77 characters (template 26 over 99)', { key: 'k'.repeat(78) }],
    ['an empty key', { key: '' }],
    ['a non-ASCII key', { key: 'joão@example.com' }],
    ['an empty name', { merchantName: '' }],
    ['a city of combining marks only', { merchantCity: '\u0301' }],
  ])('rejects %s with RangeError', (_label, patch) => expect(() => buildPixCode({ ...INPUT, ...patch })).toThrow(RangeError));
  it('accepts a key of 77 characters', () => expect(isValidPixCode(buildPixCode({ ...INPUT, key: 'k'.repeat(77) }))).toBe(true));
});

describe('parsePixCode errors', () => {
  const body = GOLDEN.slice(0, -8);
  it('reports a CRC mismatch', () => expect(parseError(GOLDEN.slice(0, -4) + '0000')).toBe('CRC mismatch: expected 3E70, got 0000'));
  it('accepts a lower-case CRC', () => expect(parsePixCode(GOLDEN.slice(0, -4) + '3e70').crc).toBe('3E70'));
  it('requires the CRC field at the end', () => expect(parseError(body)).toMatch(/does not end with a CRC field/));
  it('rejects a CRC field hidden inside field 62', () => {
    const prefix = `${body.slice(0, body.indexOf('6229'))}62150503ABC6304`;
    expect(parseError(prefix + crc16(prefix))).toBe('field 63 (CRC) is not the last field');
  });
  it('rejects a field longer than the data left', () => expect(parseError(withCrc(`${body}6199`))).toBe('field 61 has an invalid length 99'));
  it('rejects a non-numeric header', () => expect(parseError(withCrc(`${body}6A01x`))).toMatch(/malformed TLV header "6A01"/));
  it('rejects a zero length', () => expect(parseError(withCrc(`${body}6100`))).toBe('field 61 has an invalid length 0'));
  it('rejects a repeated field', () => expect(parseError(withCrc(`${body}5802BR`))).toBe('field 58 appears more than once'));
  it('rejects a bad nested length', () => expect(parseError(withCrc(body.replace('62290525', '62290599')))).toBe('field 62.05 has an invalid length 99'));
  it('rejects a foreign GUI', () => expect(parseError(withCrc(body.replace('0014br.gov.bcb.pix', '0014br.gov.bcb.xyz')))).toMatch(/GUI br\.gov\.bcb\.pix/));
  it('rejects a missing merchant name', () => expect(parseError(withCrc(body.replace('5913Fulano de Tal', '')))).toBe('field 59 is missing'));
  it('rejects a foreign currency', () => expect(parseError(withCrc(body.replace('5303986', '5303840')))).toBe('field 53 must be "986", got "840"'));
  it('rejects an unknown point of initiation', () => expect(parseError(withCrc(body.replace('010212', '010213')))).toMatch(/field 01 must be "11" or "12"/));
  it('rejects field 00 out of place', () => expect(parseError(withCrc(body.slice(6) + '000201'))).toMatch(/field 00/));
  it.each(['12,50', '.5', '1.234', '1e3', '123456789012.5'])('rejects the amount %s', (amount) =>
    expect(parseError(withCrc(body.replace('540512.50', `54${String(amount.length).padStart(2, '0')}${amount}`)))).toBe('field 54 is not a valid amount'));
  it.each([['12.5', 1250], ['12.50', 1250], ['12', 1200], ['0.01', 1], ['9999999999.99', 999_999_999_999]])('parses the amount %s', (amount, cents) =>
    expect(parsePixCode(withCrc(body.replace('540512.50', `54${String(amount.length).padStart(2, '0')}${amount}`))).amountCents).toBe(cents));
  it('isValidPixCode is false on garbage', () => expect(isValidPixCode('hello')).toBe(false));
});

const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'aeiouçãõáéíóúâêôàüñ ÇÃÕÁÉÍÓÚ-.&'), minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
).filter((s) => expectedAscii(s, 99).length > 0);
const pixInput: fc.Arbitrary<PixCodeInput> = fc.record({
  merchantName: text,
  merchantCity: text,
  amountCents: fc.integer({ min: 1, max: 100_000_000 }),
  target: fc.oneof(
    fc.record({ key: fc.uuid(), txid: fc.string({ unit: fc.constantFrom(...alnum), minLength: 1, maxLength: 25 }) }),
    fc.string({ unit: fc.constantFrom(...alnum), minLength: 26, maxLength: 35 }).map((txid) => ({ url: `pix.example.com/qr/v2/${txid}` })),
  ),
}).map(({ target, ...rest }) => ({ ...rest, ...target }));

describe('properties', () => {
  it('build then parse gives back the inputs', () =>
    fc.assert(fc.property(pixInput, (input) => {
      const parsed = parsePixCode(buildPixCode(input));
      expect(parsed).toMatchObject({
        merchantName: expectedAscii(input.merchantName, 25), merchantCity: expectedAscii(input.merchantCity, 15),
        amountCents: input.amountCents, txid: input.txid ?? '***', key: input.key ?? null, url: input.url ?? null, pointOfInitiation: '12',
      });
    })));
  it('a changed character makes the CRC check fail', () =>
    fc.assert(fc.property(pixInput, fc.nat(), fc.integer({ min: 0x20, max: 0x7e }), (input, at, charCode) => {
      const code = buildPixCode(input);
      const index = at % code.length;
      const inCrc = index >= code.length - 4;
      // the CRC value itself can only mismatch when replaced by another hex digit
      const char = inCrc ? '0123456789ABCDEF'.charAt(charCode % 16) : String.fromCharCode(charCode);
      fc.pre(code[index] !== char);
      const mutated = code.slice(0, index) + char + code.slice(index + 1);
      const inHeader = index >= code.length - 8 && !inCrc;
      expect(parseError(mutated)).toMatch(inHeader ? /does not end with a CRC field/ : /^CRC mismatch/);
    }), { numRuns: 500 }));
});
