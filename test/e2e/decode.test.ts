// A support agent is pasted a pix code, or read a boleto line over the phone: `pix decode` and
// `boleto decode` on what `pinvoice serve` issued, on that text damaged, and on what is not a code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boletoCharge } from '../support/charges.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_decode_token_0123456';
let server: ServeProcess;
let pix: { qrCode: string };
let boleto: { digitableLine: string; barcode: string; dueDate: string };

async function create(body: unknown): Promise<any> {
  const response = await fetch(`${server.url}/api/v2/invoices`, {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: unknown }).data;
}

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
  pix = (await create(validPix())).pix;
  boleto = (await create(boletoCharge({ total_price_cents: 4990, items: [{ name: 'Camiseta', quantity: 1, unit_price: 4990 }] }))).boleto;
});
afterAll(() => server.stop());

const cli = (args: string[], input?: string) => run(args, { env: tempHome(), input });
const json = (text: string) => JSON.parse(text);
/** `text` with the digit at `at` changed to the next one. */
const bump = (text: string, at: number) => text.slice(0, at) + String((Number(text[at]) + 1) % 10) + text.slice(at + 1);

describe('pix decode', () => {
  it("the code serve issued is valid: exit 0, every field shown, the merchant's name and the amount among them", async () => {
    const result = await cli(['pix', 'decode', pix.qrCode]);
    expect(result.code, result.stderr).toBe(0);
    for (const text of ['pix code (dynamic)', 'merchant name (59)', 'PINVOICE SANDBOX', 'R$ 19,90', 'br.gov.bcb.pix', 'txid (62-05)', 'valid: the code keeps every rule']) {
      expect(result.stdout).toContain(text);
    }
    expect(result.stderr).toBe('');
  });

  it('- reads the code from stdin, a line break inside it (a terminal wrapped it), and says so on stderr', async () => {
    const wrapped = `${pix.qrCode.slice(0, 60)}\n${pix.qrCode.slice(60)}\n`;
    const result = await cli(['pix', 'decode', '-'], wrapped);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('the code held spaces or line breaks; read without them\n');
    expect(result.stdout).toContain('PINVOICE SANDBOX');
  });

  it('a corrupted code exits 11, the fields still printed, the broken rule named with what was expected and found', async () => {
    const corrupted = pix.qrCode.replace('PINVOICE', 'PINVOIZE');
    const result = await cli(['pix', 'decode', corrupted]);
    expect(result.code).toBe(11);
    expect(result.stdout).toContain('PINVOIZE SANDBOX');
    expect(result.stdout).toMatch(new RegExp(`^  crc  field 63 \\(CRC\\) is ${pix.qrCode.slice(-4)}, but the code's content gives [0-9A-F]{4}`, 'm'));
    expect(result.stderr).toBe('pinvoice: the pix code breaks a rule: crc\n');
  });

  it('--json: valid, kind, the named fields, the TLV tree and the problems', async () => {
    const valid = json((await cli(['pix', 'decode', pix.qrCode, '--json'])).stdout);
    expect(valid).toMatchObject({ valid: true, kind: 'dynamic', problems: [], fields: { merchant_name: 'PINVOICE SANDBOX', amount_cents: 1990, amount: '19.90', txid: '***', key: null } });
    expect(Object.keys(valid)).toEqual(['valid', 'kind', 'fields', 'tlv', 'problems']);
    expect(valid.tlv[0]).toEqual({ id: '00', length: 2, value: '01' });
    expect(valid.tlv.find((field: any) => field.id === '26').sub.map((field: any) => field.id)).toEqual(['00', '25']);
    const broken = await cli(['pix', 'decode', pix.qrCode.replace('5303986', '5303840').slice(0, -4) + '0000', '--json']);
    expect(broken.code).toBe(11);
    expect(json(broken.stdout)).toMatchObject({ valid: false, problems: [{ rule: 'currency' }, { rule: 'crc' }] });
  });

  it('text that is not a BR Code gets a verdict (exit 11); nothing at all is a usage error (exit 2)', async () => {
    const other = await cli(['pix', 'decode', 'hello']);
    expect(other.code).toBe(11);
    expect(other.stdout).toMatch(/invalid: not a BR Code\n {2}format {2}not a BR Code/);
    const nothing = await cli(['pix', 'decode', '-'], '\n');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe('pinvoice: stdin held no code to decode\n');
    expect((await cli(['pix', 'decode', ''])).code).toBe(2);
  });
});

describe('boleto decode', () => {
  const due = () => boleto.dueDate;

  it('the line serve issued is valid: exit 0, the bank, the amount, the due date and the barcode', async () => {
    const result = await cli(['boleto', 'decode', boleto.digitableLine]);
    expect(result.code, result.stderr).toBe(0);
    for (const text of ['001 Banco do Brasil', 'R$ 49,90', `${due()} (due in `, boleto.barcode, 'valid: every check digit matches']) expect(result.stdout).toContain(text);
  });

  it('the barcode, and the line as printed (dots and spaces), read the same', async () => {
    const fromBarcode = json((await cli(['boleto', 'decode', boleto.barcode, '--json'])).stdout);
    const printed = boleto.digitableLine.replace(/^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/, '$1.$2 $3.$4 $5.$6 $7 $8');
    const fromLine = json((await cli(['boleto', 'decode', printed, '--json'])).stdout);
    expect(fromBarcode).toEqual(fromLine);
    expect(fromLine).toEqual({
      valid: true, bank: { code: '001', name: 'Banco do Brasil' }, currency: '9', amount_cents: 4990, due_date: due(),
      factor: expect.any(Number), free_field: boleto.barcode.slice(19), line: boleto.digitableLine, barcode: boleto.barcode, problems: [],
    });
  });

  it('a digit misheard in field 2 exits 11 naming field 2 (and the general check digit it also breaks)', async () => {
    const result = await cli(['boleto', 'decode', bump(boleto.digitableLine, 12)]);
    expect(result.code).toBe(11);
    expect(result.stdout).toMatch(/^ {2}field2 {3}field 2 \(\d{5}\.\d{6}\) ends in check digit \d, but modulo 10 of its digits gives \d/m);
    expect(result.stdout).toMatch(/^ {2}general {2}the general check digit/m);
    expect(result.stderr).toBe("pinvoice: the boleto's check digits do not match: field2, general\n");
  });

  it('--json names the rule of a check digit broken alone', async () => {
    const result = await cli(['boleto', 'decode', bump(boleto.digitableLine, 31), '--json']);
    expect(result.code).toBe(11);
    expect(json(result.stdout)).toMatchObject({ valid: false, amount_cents: 4990, problems: [{ rule: 'field3', message: expect.stringContaining('field 3') }] });
  });

  it.each([
    [['12345'], /not a boleto: a typeable line has 47 digits and a barcode 44; this has 5/],
    [['858200000007572503282030560708202107539591904460'], /utility or tax slip \(arrecadação.*not supported/],
    [['0019x'], /holds digits only/],
  ])('%j is not a bank boleto: exit 2', async (args, message) => {
    const result = await cli(['boleto', 'decode', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

it('--help documents exit code 11', async () => expect((await cli(['--help'])).stdout).toContain('11   pix decode / boleto decode: the code breaks a rule (each is named)'));
