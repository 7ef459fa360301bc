// The support desk on `pinvoice serve`, both engines: a charge found from whatever the customer has
// (each form of reference finds the same charge), the company's charges listed and exported, and
// times shown where the user lives.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDigitableLine } from '../../src/domain/boleto.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_find_token_012345678';
const work = mkdtempSync(join(tmpdir(), 'pinvoice-find-'));
let server: ServeProcess;
let env: Record<string, string>;
const created: Record<string, any> = {};

const cli = (args: string[], extra: Record<string, string | undefined> = {}) => run(args, { env: { ...env, ...extra } });

async function create(body: Record<string, unknown>): Promise<any> {
  const file = join(work, `charge-${Object.keys(created).length}.json`);
  writeFileSync(file, JSON.stringify(body));
  const result = await cli(['invoice', 'create', '--file', file, '--json', '--no-input']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

const boletoPayer = { address_zip: '01310-100', address_line: 'Avenida Paulista', address_number: '1000', address_city: 'São Paulo', address_state: 'SP', address_neighborhood: 'Bela Vista' };

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', join(work, 'find.db'), '--token', TOKEN], tempHome());
  env = { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
  created.pix = await create({ ...validPix(), external_id: 'pedido-1042' });
  created.boleto = await create({ ...validPix({ method: 'boleto' }), payer: { ...validPix().payer, ...boletoPayer }, external_id: 'pedido-2077' });
  created.digits = await create({ ...validPix(), external_id: '987654' });
  created.twice = [await create({ ...validPix(), external_id: 'pedido-dup' }), await create({ ...validPix(), external_id: 'pedido-dup' })];
}, 60_000);
afterAll(() => server?.stop());

describe('invoice get finds a charge from whatever the customer has', () => {
  const refs = (): [string, string, string][] => [
    ['its integer id', String(created.pix.id), ''],
    ['its secureId', created.pix.secureId, ''],
    ['the merchant\'s external_id', 'pedido-1042', 'external_id → '],
    ['the pix copy-and-paste code', created.pix.pix.qrCode, 'pix code → '],
    ['the pix code as a terminal wrapped it', `${created.pix.pix.qrCode.slice(0, 50)}\n${created.pix.pix.qrCode.slice(50)}`, 'pix code → '],
    ['the checkout URL', `${server.url}/checkout/${created.pix.invoice.token_checkout}`, 'checkout token → '],
    ['the bare checkout token', created.pix.invoice.token_checkout, 'checkout token → '],
  ];
  it.each([0, 1, 2, 3, 4, 5, 6])('reference %i: the same pix charge, and stderr says what was looked up', async (index) => {
    const [, ref, said] = refs()[index]!;
    const result = await cli(['invoice', 'get', ref, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).secureId).toBe(created.pix.secureId);
    if (said) expect(result.stderr).toContain(`${said}${created.pix.secureId}`);
  });

  it.each([
    ['its typeable line with dots and spaces', () => formatDigitableLine(created.boleto.boleto.digitableLine)],
    ['its typeable line as digits', () => created.boleto.boleto.digitableLine],
    ['its barcode', () => created.boleto.boleto.barcode],
  ])('a boleto by %s', async (_name, ref) => {
    const result = await cli(['invoice', 'get', ref(), '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).secureId).toBe(created.boleto.secureId);
    expect(result.stderr).toContain(`boleto → ${created.boleto.secureId}`);
  });

  it('an order number of digits that is no id is found as the external_id', async () => {
    const result = await cli(['invoice', 'get', '987654', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).secureId).toBe(created.digits.secureId);
  });

  it('an external_id two charges share is exit 2, listing both', async () => {
    const result = await cli(['invoice', 'get', 'pedido-dup']);
    expect(result.code).toBe(2);
    for (const charge of created.twice) expect(result.stderr).toContain(charge.secureId);
  });

  it('nothing found names the reference, the server and the token\'s source', async () => {
    const result = await cli(['invoice', 'get', 'pedido-9999']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`no charge with this external_id at ${server.url} for the token in PINVOICE_TOKEN`);
    const id = await cli(['invoice', 'get', '424242']);
    expect(id.code).toBe(4);
    expect(id.stderr).toContain(`no charge "424242" at ${server.url}`);
  });
});

describe('invoice list', () => {
  it('a table of the newest charges first, times in São Paulo by default', async () => {
    const result = await cli(['invoice', 'list']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('5 charges; times in America/Sao_Paulo');
    expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    const order = [created.twice[1], created.twice[0], created.digits, created.boleto, created.pix].map((c) => result.stdout.indexOf(c.secureId));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
  });

  it.each([
    [['--method', 'boleto'], ['boleto']],
    [['--external-id', 'pedido-1042'], ['pix']],
    [['--status', 'pending', '--method', 'pix', '--limit', '1'], ['dup1']],
    [['--method', 'pix', '--payer', 'fulano@example.com', '--since', '2020-01-01', '--min', '19,90', '--max', '19.90', '--external-id', '987654'], ['digits']],
    [['--payer', '529.982.247-25', '--until', '2020-01-01'], []],
    [['--method', 'boleto', '--max', '19,89'], []],
  ])('filters %j', async (flags, expected) => {
    const result = await cli(['invoice', 'list', ...flags, '--format', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    const ids = result.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line).secureId);
    const want = expected.map((name) => (name === 'dup1' ? created.twice[1] : created[name]).secureId);
    expect(ids).toEqual(want);
  });

  it('--all walks every page (2 charges a page) and each charge comes once; CSV for a spreadsheet', async () => {
    const result = await cli(['invoice', 'list', '--all', '--page-size', '2', '--format', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = result.stdout.trim().split('\n');
    expect(header).toBe('id,secure_id,created_at,status,method,amount_brl,refunded_brl,paid_at,payer_name,payer_document,payer_email,external_id');
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((row) => row.split(',')[1])).size).toBe(5);
    expect(rows.find((row) => row.includes(created.pix.secureId))).toContain(',19.90,0.00,');
  });

  it('--json is the records as the server sent them', async () => {
    const result = await cli(['invoice', 'list', '--json', '--external-id', 'pedido-1042']);
    expect(result.code, result.stderr).toBe(0);
    // the record as Search answers it now (the payer's client.updated_at moved as later charges named them)
    const record = JSON.parse((await cli(['invoice', 'get', created.pix.secureId, '--json'])).stdout);
    expect(JSON.parse(result.stdout)).toEqual([record]);
  });

  it('a bad flag is named', async () => {
    const result = await cli(['invoice', 'list', '--status', 'payed']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--status: "payed" is not one of');
  });
});

describe('times where the user lives', () => {
  it('TZ decides the zone of every time shown; --utc shows UTC; --json keeps the API\'s strings', async () => {
    const tokyo = await cli(['invoice', 'get', String(created.pix.id)], { TZ: 'Asia/Tokyo' });
    expect(tokyo.stdout).toMatch(/created +│ \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+09:00/);
    expect(tokyo.stdout).toMatch(/expires +│ .* \+09:00 \(in (59|60) min|1 h\)/);
    const utc = await cli(['invoice', 'get', String(created.pix.id), '--utc']);
    expect(utc.stdout).toMatch(/created +│ \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    const saoPaulo = await cli(['invoice', 'get', String(created.pix.id)]);
    expect(saoPaulo.stdout).toMatch(/created +│ \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} -03:00/);
    const raw = JSON.parse((await cli(['invoice', 'get', String(created.pix.id), '--json'], { TZ: 'Asia/Tokyo' })).stdout);
    expect(raw.createdAt).toBe(created.pix.createdAt);
  });

  it('a boleto\'s due date says how far it is; a TZ Node does not know is refused', async () => {
    const boleto = await cli(['invoice', 'get', String(created.boleto.id)]);
    expect(boleto.stdout).toMatch(/due date +│ \d{4}-\d{2}-\d{2} \(due in 3 days\)/);
    const mars = await cli(['invoice', 'get', String(created.pix.id)], { TZ: 'Mars/Olympus' });
    expect(mars.code).toBe(2);
    expect(mars.stderr).toContain('TZ "Mars/Olympus" is not a time zone Node knows');
  });
});
