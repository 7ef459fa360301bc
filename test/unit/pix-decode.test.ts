import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPixCode, crc16, parsePixCode, type PixCodeInput } from '../../src/domain/pix.js';
import { decodePix, keyKind, pastedReadings, readPastedCode, type PixRule } from '../../src/domain/pix-decode.js';

// Banco Central, "Manual de Padrões para Iniciação do Pix": static (key, no 01, open amount) and dynamic examples
const BCB_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
const BCB_DYNAMIC =
  '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4';
// the same manual, §2.8.2: key, amount 100.50 and a recurrence template 80
const BCB_COMPOSITE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406100.505802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac12000263042875';
// pypix-static README (a key of 11 digits that is not a valid CPF, amount 12.34, upper-case GUI)
const PYPIX = '00020126330014BR.GOV.BCB.PIX011112345678900520400005303986540512.345802BR5924Hypothetical Receiv Name6013CITY RECEIVER62070503***6304EA64';
// the BR Code manual's multi-arrangement example: pre-pix, its reference label "RP12345678-2019" holds a dash
const BRCODE_MANUAL =
  '00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38';
// gist matheusb-comp/1efa205b: its CRC matches, but field 62 declares 08 for a 7-character value
const GIST_STATIC = '00020126360014BR.GOV.BCB.PIX0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62080503***6304170E';
// Stark Bank's SDK documentation: its CRC is really 28AD, and field 59 declares 13 for "Arya Stark"
const STARK_DOC =
  '00020101021226800014br.gov.bcb.pix2558invoice.starkbank.com/f5333103-3279-4db2-8389-5efe335ba93d5204000053039865802BR5913Arya Stark6009Sao Paulo6220051656565656565656566304A9A0';

const rules = (code: string) => decodePix(code).problems.map((problem) => problem.rule);

type Spec = readonly (readonly [id: string, value: string | Spec])[];
const encode = (spec: Spec): string =>
  spec.map(([id, value]) => {
    const text = typeof value === 'string' ? value : encode(value);
    return `${id}${String(text.length).padStart(2, '0')}${text}`;
  }).join('');
/** A code from its fields, the CRC computed over them: a field broken here breaks only its own rule. */
const code = (spec: Spec) => `${encode(spec)}6304${crc16(`${encode(spec)}6304`)}`;
const ACCOUNT: Spec = [['00', 'br.gov.bcb.pix'], ['01', 'fulano@example.com'], ['02', 'Camiseta']];
const STATIC: Spec = [
  ['00', '01'], ['01', '11'], ['26', ACCOUNT], ['52', '0000'], ['53', '986'], ['54', '19.90'],
  ['58', 'BR'], ['59', 'Fulano de Tal'], ['60', 'BRASILIA'], ['62', [['05', 'PEDIDO42']]],
];
const DYNAMIC: Spec = [
  ['00', '01'], ['01', '12'], ['26', [['00', 'br.gov.bcb.pix'], ['25', 'pix.example.com/qr/v2/ABCDEFGHIJKLMNOPQRSTUVWXYZ']]], ['52', '0000'],
  ['53', '986'], ['54', '19.90'], ['58', 'BR'], ['59', 'Loja'], ['60', 'SAO PAULO'], ['62', [['05', '***']]],
];
/** `spec` with field `id` given another value, or left out (null), or (`after`) a field added after it. */
const withField = (spec: Spec, id: string, value: string | Spec | null): Spec =>
  spec.flatMap(([key, old]) => (key !== id ? [[key, old] as const] : value === null ? [] : [[key, value] as const]));
const account = (...fields: Spec) => withField(STATIC, '26', fields);

describe('decodePix on valid codes', () => {
  it('reads the BCB static example: a random key, no 01, open amount, txid ***', () => {
    const decoded = decodePix(BCB_STATIC);
    expect(decoded).toMatchObject({ valid: true, kind: 'static', problems: [] });
    expect(decoded.fields).toEqual({
      payload_format: '01', point_of_initiation: null, gui: 'br.gov.bcb.pix', key: '123e4567-e12b-12d1-a456-426655440000', key_kind: 'random',
      description: null, location: null, mcc: '0000', currency: '986', amount: null, amount_cents: null, country: 'BR',
      merchant_name: 'Fulano de Tal', merchant_city: 'BRASILIA', postal_code: null, txid: '***', crc: '1D3D',
    });
    expect(decoded.tlv[1]).toMatchObject({ id: '26', length: 58, sub: [{ id: '00', length: 14, value: 'br.gov.bcb.pix' }, { id: '01', length: 36 }] });
  });

  it('reads the BCB dynamic example: a location, 01 = 12', () =>
    expect(decodePix(BCB_DYNAMIC)).toMatchObject({ valid: true, kind: 'dynamic', fields: { point_of_initiation: '12', location: 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441', key: null } }));

  it('reads a static code with 01 = 11, an e-mail key, a description and a short txid', () =>
    expect(decodePix(code(STATIC))).toMatchObject({
      valid: true, kind: 'static',
      fields: { point_of_initiation: '11', key: 'fulano@example.com', key_kind: 'email', description: 'Camiseta', amount: '19.90', amount_cents: 1990, txid: 'PEDIDO42' },
    }));

  it.each([['the composite example (template 80)', BCB_COMPOSITE, 10050], ['pypix (upper-case GUI)', PYPIX, 1234]])('reads %s', (_name, pix, cents) =>
    expect(decodePix(pix)).toMatchObject({ valid: true, fields: { amount_cents: cents } }));

  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const input: fc.Arbitrary<PixCodeInput> = fc.record({
    merchantName: fc.string({ unit: fc.constantFrom(...'abcÇãé -.&'), minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
    merchantCity: fc.string({ unit: fc.constantFrom(...'XYZ São'), minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
    amountCents: fc.integer({ min: 1, max: 999_999_999_999 }),
    target: fc.oneof(
      fc.record({ key: fc.uuid(), txid: fc.string({ unit: fc.constantFrom(...alnum), minLength: 1, maxLength: 25 }) }),
      fc.string({ unit: fc.constantFrom(...alnum), minLength: 26, maxLength: 35 }).map((txid) => ({ url: `pix.example.com/qr/v2/${txid}` })),
    ),
  }).map(({ target, ...rest }) => ({ ...rest, ...target }));

  it('every code buildPixCode makes is valid, and decodes to what parsePixCode reads', () =>
    fc.assert(fc.property(input, (given) => {
      const built = buildPixCode(given);
      const parsed = parsePixCode(built);
      expect(decodePix(built)).toMatchObject({
        valid: true, kind: given.url ? 'dynamic' : 'static', problems: [],
        fields: { merchant_name: parsed.merchantName, merchant_city: parsed.merchantCity, amount_cents: given.amountCents, key: parsed.key, location: parsed.url, txid: parsed.txid, crc: parsed.crc },
      });
    }), { numRuns: 300 }));
});

describe('decodePix names each broken rule on its own', () => {
  const cases: [PixRule, string, Spec, RegExp][] = [
    ['length', 'a template field runs past its template', [], /field 26-02 at offset \d+ declares 9 characters, but only 8 remain of field 26/],
    ['format', 'field 00 is not "01"', withField(STATIC, '00', '02'), /field 00 \(payload format indicator\) must be "01", found "02"/],
    ['initiation', 'field 01 is 13', withField(STATIC, '01', '13'), /must be "11" \(reusable\) or "12" \(one-time\), found "13"/],
    ['gui', 'the GUI is another arrangement’s', account(['00', 'br.gov.bcb.pox'], ['01', 'fulano@example.com']), /field 26-00 \(GUI\) must be br\.gov\.bcb\.pix, found "br\.gov\.bcb\.pox"/],
    ['key-or-location', 'field 26 holds neither a key nor a location', account(['00', 'br.gov.bcb.pix'], ['02', 'Camiseta']), /holds neither a key \(01\) nor a location \(25\)/],
    ['key-or-location', 'field 26 holds both', withField(withField(STATIC, '26', [...ACCOUNT, ['25', 'pix.example.com/x']]), '62', [['05', '***']]), /holds both/],
    ['location', 'the location has a scheme', withField(DYNAMIC, '26', [['00', 'br.gov.bcb.pix'], ['25', 'https://pix.example.com/x']]), /must not start with a scheme \("https:\/\/"\)/],
    ['mcc', 'the MCC is a real one', withField(STATIC, '52', '5812'), /field 52 \(merchant category code\) must be "0000", found "5812"/],
    ['currency', 'the currency is the dollar', withField(STATIC, '53', '840'), /field 53 \(currency\) must be "986", found "840"/],
    ['amount', 'the amount has a comma', withField(STATIC, '54', '19,90'), /digits with an optional "\." and up to 2 decimals/],
    ['amount', 'the amount has 3 decimals', withField(STATIC, '54', '1.999'), /found "1\.999"/],
    ['amount', 'the amount is 0', withField(STATIC, '54', '0.00'), /must be more than 0/],
    ['amount', 'the amount is 14 characters', withField(STATIC, '54', '12345678901.00'), /holds 14 characters, at most 13/],
    ['country', 'the country is not BR', withField(STATIC, '58', 'PT'), /field 58 \(country\) must be "BR", found "PT"/],
    ['name', 'the name is 26 characters', withField(STATIC, '59', 'N'.repeat(26)), /field 59 \(merchant name\) holds 26 characters, at most 25/],
    ['name', 'the name is missing', withField(STATIC, '59', null), /field 59 \(merchant name\) is missing/],
    ['city', 'the city is 16 characters', withField(STATIC, '60', 'C'.repeat(16)), /field 60 \(merchant city\) holds 16 characters, at most 15/],
    ['city', 'the city is missing', withField(STATIC, '60', null), /field 60 \(merchant city\) is missing/],
    ['txid', 'a static txid holds a dash', withField(STATIC, '62', [['05', 'PEDIDO-42']]), /must be "\*\*\*" or 1 to 25 letters and digits, found "PEDIDO-42"/],
    ['txid', 'a static txid is 26 characters', withField(STATIC, '62', [['05', 'T'.repeat(26)]]), /found "T{26}"/],
    ['txid', 'a dynamic code carries a txid in 62-05', withField(DYNAMIC, '62', [['05', 'PEDIDO42']]), /a dynamic code: the txid is read from the location/],
    ['txid', 'field 62 is missing', withField(STATIC, '62', null), /field 62-05 \(txid\) is missing/],
    ['mcc', 'field 52 is missing', withField(STATIC, '52', null), /field 52 \(merchant category code\) is missing; it must be "0000"/],
  ];
  // The length case: the description (26-02) claims one character more than field 26 holds.
  const lengthCode = () => {
    const body = encode(STATIC).replace('0208Camiseta', '0209Camiseta');
    return `${body}6304${crc16(`${body}6304`)}`;
  };

  it.each(cases)('%s: %s', (rule, _situation, spec, message) => {
    const decoded = decodePix(rule === 'length' ? lengthCode() : code(spec));
    expect(decoded.problems.map((problem) => problem.rule)).toEqual([rule]);
    expect(decoded.problems[0]?.message).toMatch(message);
    expect(decoded.valid).toBe(false);
  });

  it('crc: one character changed, the CRC not recomputed; the expected and found values are said', () => {
    const changed = code(STATIC).replace('Fulano', 'Fulana');
    expect(decodePix(changed).problems).toEqual([{ rule: 'crc', message: `field 63 (CRC) is ${code(STATIC).slice(-4)}, but the code's content gives ${crc16(changed.slice(0, -4))}: the code was changed or mistyped` }]);
  });

  it('crc: the right CRC in lower case', () => {
    const lower = BCB_DYNAMIC.replace(/64E4$/, '64e4');
    expect(decodePix(lower).problems).toEqual([{ rule: 'crc', message: 'field 63 (CRC) is 64e4, in lower case: it must be 64E4' }]);
  });

  it('crc-position: a field after the CRC (the CRC itself right for what precedes it)', () => {
    const decoded = decodePix(`${code(STATIC)}610801310100`);
    expect(decoded.problems).toEqual([{ rule: 'crc-position', message: expect.stringMatching(/field 63 \(CRC\) at offset \d+ must be the last field/) }]);
  });

  it('crc-position: a CRC that is not 4 hex characters', () =>
    expect(rules(`${encode(STATIC)}6304ZZZZ`)).toEqual(['crc-position']));

  it('crc-position: no CRC at all', () => expect(rules(encode(STATIC))).toEqual(['crc-position']));

  it('length at the top level: a field running past the end is named with its offset, and what follows it is not called missing', () => {
    const body = encode(STATIC).replace('6008BRASILIA', '6099BRASILIA');
    const decoded = decodePix(`${body}6304${crc16(`${body}6304`)}`);
    expect(decoded.problems).toEqual([{ rule: 'length', message: `field 60 at offset ${body.indexOf('6099')} declares 99 characters, but only ${body.length + 8 - body.indexOf('6099') - 4} remain` }]);
  });

  it('field 26 missing: no GUI, and neither a key nor a location', () => expect(rules(code(withField(STATIC, '26', null)))).toEqual(['gui', 'key-or-location']));

  it('length: a field that appears twice', () => expect(rules(code([...STATIC, ['58', 'BR']]))).toEqual(['length']));

  it('every rule id is exercised above', () =>
    expect(new Set([...cases.map(([rule]) => rule), 'crc', 'crc-position'])).toEqual(new Set<PixRule>([
      'length', 'format', 'initiation', 'gui', 'key-or-location', 'location', 'mcc', 'currency', 'amount', 'country', 'name', 'city', 'txid', 'crc-position', 'crc',
    ])));

  it('several broken rules are all named, in the order of the checklist', () =>
    expect(rules(code(withField(withField(withField(STATIC, '59', 'N'.repeat(30)), '53', '840'), '01', '99')).replace(/.{4}$/, '0000')))
      .toEqual(['initiation', 'currency', 'name', 'crc']));
});

describe('decodePix on published codes that do not check out', () => {
  it('the gist example: its CRC matches, its lengths do not', () => {
    const decoded = decodePix(GIST_STATIC);
    expect(decoded.problems.map((problem) => problem.rule)).toEqual(['length', 'length']);
    expect(decoded.problems[0]?.message).toMatch(/offset \d+ of field 62/);
  });
  it('the Stark Bank documentation example: field 59 claims 13 characters for 10, and the CRC is really 28AD', () =>
    expect(decodePix(STARK_DOC).problems).toEqual([
      { rule: 'length', message: 'no field can start at offset 134, after field 59 (which declares 13 characters): "9Sao" is not an id and a length (4 digits)' },
      { rule: 'crc', message: "field 63 (CRC) is A9A0, but the code's content gives 28AD: the code was changed or mistyped" },
    ]));
  it('the BR Code manual example predates pix: its reference label holds a dash', () => expect(rules(BRCODE_MANUAL)).toEqual(['txid']));
});

describe('text that is not a BR Code', () => {
  it.each([['', /it is empty/], ['hello', /it starts with "hello"/], ['https://pix.example.com/qr', /not a BR Code/]])('%j is not a BR Code', (text, message) => {
    const decoded = decodePix(text);
    expect(decoded).toMatchObject({ valid: false, kind: null, tlv: [] });
    expect(decoded.problems).toEqual([{ rule: 'format', message: expect.stringMatching(message) }]);
  });
  it('a boleto line is told apart', () =>
    expect(decodePix('00190000090281234567200000123174216410000004990').problems[0]?.message).toMatch(/look like a boleto line or barcode/));
});

describe('keyKind', () => {
  it.each([
    ['52998224725', 'cpf'], ['12345678900', null], ['11222333000181', 'cnpj'], ['fulano@example.com', 'email'],
    ['+5511999998888', 'phone'], ['123e4567-e12b-12d1-a456-426655440000', 'random'], ['chave', null],
  ])('%s is %s', (key, kind) => expect(keyKind(key)).toBe(kind));
});

describe('a code as pasted', () => {
  const pasted = code(STATIC);
  const wrap = (text: string, width: number, joint = '\n') => text.match(new RegExp(`.{1,${width}}`, 'g'))?.join(joint) ?? text;

  it('as given: nothing changed, the spaces of the name kept', () => expect(readPastedCode(`  ${pasted}\n`)).toEqual({ code: pasted, changed: false }));

  it.each([10, 13, 40, 80])('wrapped by a terminal every %i characters', (width) =>
    expect(readPastedCode(wrap(pasted, width))).toEqual({ code: pasted, changed: true }));

  it('wrapped with CRLF, and right after a space of the name ("Fulano de \\nTal")', () => {
    const at = pasted.indexOf('Tal');
    expect(readPastedCode(`${pasted.slice(0, at)}\r\n${pasted.slice(at)}`).code).toBe(pasted);
  });

  it('spaces a chat added, beside the name’s own', () => {
    const spaced = `${pasted.slice(0, 20)} ${pasted.slice(20, 50)}  ${pasted.slice(50, 90)} ${pasted.slice(90)}`;
    expect(readPastedCode(spaced)).toEqual({ code: pasted, changed: true });
  });

  it('a space added inside the name: of the readings whose lengths hold, the CRC tells which spaces are the name’s', () =>
    expect(readPastedCode(pasted.replace('Fulano de Tal', 'Fulano de Ta l'))).toEqual({ code: pasted, changed: true }));

  it('a length that is wrong is reported, not mended by dropping the spaces of a name', () => {
    const body = encode(STATIC).replace('5913Fulano de Tal', '5911Fulano de Tal');
    const broken = `${body}6304${crc16(`${body}6304`)}`.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expect(readPastedCode(broken)).toEqual({ code: broken, changed: false });
    expect(rules(broken)).toContain('length');
  });

  it('a corrupted code with line breaks: the breaks dropped, the spaces kept, the CRC named', () => {
    const broken = pasted.replace('Fulano', 'Fulana');
    const read = readPastedCode(wrap(broken, 30));
    expect(read.code).toBe(broken);
    expect(rules(read.code)).toEqual(['crc']);
  });

  it('readings: fewest changes first; past the limit only all kept and all dropped', () => {
    expect(pastedReadings('a b\nc')).toEqual(['a bc', 'abc']);
    expect(pastedReadings('a b c d', 2)).toEqual(['a b c d', 'abcd']);
  });
});
