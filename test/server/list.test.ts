// Finding charges on `pinvoice serve`: GET /api/v2/invoices without `id` lists the company's charges,
// newest first, filtered and paged by a cursor, or finds one by its pix code, checkout token or boleto
// line. Each record is checked against what Search answers for it; every answer against src/api.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barcodeToDigitableLine, buildBarcode, formatDigitableLine } from '../../src/domain/boleto.js';
import { buildPixCode } from '../../src/domain/pix.js';
import { boletoCharge, cardCharge, CARDS, create, refund, sandbox } from '../support/charges.js';
import { addTestCompany, request, startTestServer, validPix, type TestServer } from '../support/server.js';

const SECOND_TOKEN = 'pinv_test_list_second_company_token';
const P1 = { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' };
const P2 = { name: 'Empresa Ltda', email: 'Compras@Empresa.com.br', cpf_cnpj: '11.222.333/0001-81' };
const P3 = { name: 'Beltrana', email: 'beltrana@example.com', cpf_cnpj: '123.456.789-09' };
const ADDRESS = { address_zip: '01310-100', address_line: 'Avenida Paulista', address_number: '1000', address_city: 'São Paulo', address_state: 'SP' };
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
const MINUTE = 60_000;

/** A valid slip of no charge here. */
const OTHER_BARCODE = buildBarcode({ bankCode: '001', amountCents: 1990, dueDate: '2026-03-13', freeField: '9'.repeat(25) });
const priced = (amount: number) => ({ total_price_cents: amount, items: [{ name: 'Item', quantity: 1, unit_price: amount }] });

async function list(server: TestServer, query = '', token?: string) {
  const reply = await request(server, 'GET', `/api/v2/invoices${query}`, token ? { token } : {});
  if (reply.status !== 200) throw new Error(`GET ${query} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body as { data: any[]; next_cursor: string | null };
}
const idsOf = (page: { data: any[] }) => page.data.map((record) => record.id);
const newestFirst = (records: any[]) => [...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);

describe('listing and finding charges', () => {
  let server: TestServer;
  let now = T0;
  /** every charge of the first company, as Search answers it once the fixtures are made */
  let records: any[];
  const made: Record<string, any> = {};
  let theirs: any[];

  const at = async (minutes: number, make: () => Promise<any>) => {
    now = T0 + minutes * MINUTE;
    return make();
  };

  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(now), expiryCheckMs: 0, pixExpirySeconds: 86_400 });
    made.pix = await at(0, () => create(server, validPix({ payer: P1, external_id: 'order-1', ...priced(1990) })));
    await sandbox(server, made.pix.id, 'pay');
    made.boleto = await at(1, () => create(server, boletoCharge({ payer: { ...P2, ...ADDRESS }, external_id: 'order-2', ...priced(5000) })));
    made.card = await at(2, () => create(server, cardCharge(CARDS.approved, { payer: P1, ...priced(12000) })));
    await refund(server, made.card.id);
    made.refused = await at(3, () => create(server, cardCharge(CARDS.declined, { payer: P2, external_id: '  order-4 ', ...priced(300) })));
    // two in the same millisecond, the next day (1:30 UTC: a date is its midnight UTC, not São Paulo's): the later id comes first
    made.tomorrow = await at(13.5 * 60, () => create(server, validPix({ payer: P3, ...priced(700) })));
    made.sameMs = await at(13.5 * 60, () => create(server, validPix({ payer: P3, ...priced(1990) })));
    records = await Promise.all(Object.values(made).map(async (charge) => (await request(server, 'GET', `/api/v2/invoices?id=${charge.id}`)).body));

    await addTestCompany(server, SECOND_TOKEN, 'Loja Dois');
    // the same payer, the same external_id, the same amount: still another company's
    theirs = [
      await create(server, validPix({ payer: P1, external_id: 'order-1', ...priced(1990) }), SECOND_TOKEN),
      await create(server, boletoCharge({ payer: { ...P1, ...ADDRESS }, external_id: 'order-1', ...priced(1990) }), SECOND_TOKEN),
    ];
  });
  afterAll(() => server.close());

  it('lists the company’s charges newest first, each record exactly as Search answers it by id', async () => {
    const page = await list(server);
    expect(idsOf(page)).toEqual(newestFirst(records).map((r) => r.id));
    expect(idsOf(page).slice(0, 2)).toEqual([made.sameMs.id, made.tomorrow.id]);
    expect(page.data).toEqual(newestFirst(records));
    expect(page.next_cursor).toBeNull();
  });

  const FILTERS: [string, string, (r: any) => boolean][] = [
    ['one status', '?status=paid', (r) => r.status === 'paid'],
    ['several statuses', '?status=refunded,refused,paid', (r) => ['refunded', 'refused', 'paid'].includes(r.status)],
    ['a method', '?method=credit_card', (r) => r.paymentMethod === 'credit_card'],
    ['a formatted CPF', '?payer_document=529.982.247-25', (r) => r.client.cpf_cnpj === '52998224725'],
    ['a CNPJ in digits', '?payer_document=11222333000181', (r) => r.client.cpf_cnpj === '11222333000181'],
    ['an e-mail in another case', '?payer_email=COMPRAS%40empresa.COM.br', (r) => r.client.email === 'Compras@Empresa.com.br'],
    ['an external_id', '?external_id=order-2', (r) => r.externalRef === 'order-2'],
    ['an external_id, surrounding spaces dropped as at creation', '?external_id=%20order-4%20', (r) => r.externalRef === 'order-4'],
    ['created_from, a date-time with an offset (inclusive)', `?created_from=${encodeURIComponent('2026-03-10T09:02:00-03:00')}`, (r) => r.createdAt >= '2026-03-10T12:02:00.000Z'],
    ['created_to, a date-time (exclusive)', '?created_to=2026-03-10T12:03:00Z', (r) => r.createdAt < '2026-03-10T12:03:00.000Z'],
    ['created_to, a date (midnight UTC)', '?created_to=2026-03-11', (r) => r.createdAt < '2026-03-11T00:00:00.000Z'],
    ['created_from, a date (midnight UTC)', '?created_from=2026-03-11', (r) => r.createdAt >= '2026-03-11T00:00:00.000Z'],
    ['amount_min (inclusive)', '?amount_min=1990', (r) => r.amount >= 1990],
    ['amount_max (inclusive)', '?amount_max=1990', (r) => r.amount <= 1990],
  ];

  it.each(FILTERS)('filters by %s', async (_, query, keep) => {
    const expected = newestFirst(records.filter(keep)).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(records.length);
    expect(idsOf(await list(server, query))).toEqual(expected);
  });

  it.each([
    ['status and method', '?status=paid,refunded&method=credit_card', (r: any) => ['paid', 'refunded'].includes(r.status) && r.paymentMethod === 'credit_card'],
    ['a payer and a status', '?payer_document=52998224725&status=paid', (r: any) => r.client.cpf_cnpj === '52998224725' && r.status === 'paid'],
    ['an e-mail and several statuses', '?payer_email=fulano%40example.com&status=refunded,pending', (r: any) => r.client.email === P1.email && ['refunded', 'pending'].includes(r.status)],
    ['a time range and an amount range', '?created_from=2026-03-10T12:01:00Z&created_to=2026-03-10T12:03:00.0001Z&amount_min=301&amount_max=12000', (r: any) =>
      r.createdAt >= '2026-03-10T12:01:00.000Z' && r.createdAt <= '2026-03-10T12:03:00.000Z' && r.amount > 300],
  ])('combines filters with AND: %s', async (_, query, keep) => {
    const expected = newestFirst(records.filter(keep)).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(idsOf(await list(server, query))).toEqual(expected);
  });

  it('finds nothing, not an error, when no charge matches', async () => {
    expect(await list(server, '?status=chargedback')).toEqual({ data: [], next_cursor: null });
    expect(await list(server, '?external_id=order-404&status=paid')).toEqual({ data: [], next_cursor: null });
  });

  it('pages by the cursor: limit 2 gives three pages, then a null cursor', async () => {
    const seen: number[] = [];
    let page = await list(server, '?limit=2');
    for (;;) {
      seen.push(...idsOf(page));
      if (!page.next_cursor) break;
      expect(page.data).toHaveLength(2);
      page = await list(server, `?limit=2&cursor=${page.next_cursor}`);
    }
    expect(seen).toEqual(newestFirst(records).map((r) => r.id));
    // a filtered walk keeps its filter on every page
    const first = await list(server, '?limit=1&status=paid,refunded');
    const second = await list(server, `?limit=1&status=paid,refunded&cursor=${first.next_cursor}`);
    expect([...idsOf(first), ...idsOf(second)]).toEqual([made.card.id, made.pix.id]);
    expect(second.next_cursor).toBeNull();
  });

  it.each([
    ['a pix code with a line break and spaces inside', () => `${made.pix.pix.qrCode.slice(0, 40)}\r\n  ${made.pix.pix.qrCode.slice(40)}`, 'pix_code', () => made.pix.id],
    ['a pix code with every space taken out (as a terminal paste may do)', () => made.tomorrow.pix.qrCode.replace(/ /g, ''), 'pix_code', () => made.tomorrow.id],
    ['a checkout token', () => made.card.invoice.token_checkout, 'token_checkout', () => made.card.id],
    ['a typeable line with dots and spaces', () => formatDigitableLine(made.boleto.boleto.digitableLine), 'boleto_line', () => made.boleto.id],
    ['a barcode', () => made.boleto.boleto.barcode, 'boleto_line', () => made.boleto.id],
  ])('finds the charge of %s', async (_, value, name, id) => {
    expect(value()).not.toBe(undefined);
    const page = await list(server, `?${name}=${encodeURIComponent(value())}`);
    expect(idsOf(page)).toEqual([id()]);
    expect(page.data[0]).toEqual(records.find((r) => r.id === id()));
    expect(page.next_cursor).toBeNull();
  });

  it('finds nothing for a well-formed key that is no charge of the company', async () => {
    const foreignPix = buildPixCode({ merchantName: 'Outra Loja', merchantCity: 'Recife', amountCents: 1990, key: 'fulano@example.com' });
    const otherTxid = made.pix.pix.qrCode.replace(/[A-Za-z0-9]{32}(?=5204)/, 'Z'.repeat(32));
    // the charge's own location in a code for another amount is not that charge's code
    const otherAmount = made.pix.pix.qrCode.replace('540519.90', '540519.91');
    expect(otherAmount).not.toBe(made.pix.pix.qrCode);
    for (const query of [foreignPix, otherTxid, otherAmount].map((code) => `pix_code=${encodeURIComponent(code)}`).concat(`token_checkout=${'A'.repeat(32)}`, `boleto_line=${OTHER_BARCODE}`)) {
      expect(await list(server, `?${query}`), query).toEqual({ data: [], next_cursor: null });
    }
  });

  it('never shows another company’s charges, whatever is asked', async () => {
    const ours = records.map((r) => r.id);
    const page = await list(server, '', SECOND_TOKEN);
    expect(idsOf(page)).toEqual(newestFirst(theirs).map((r) => r.id));
    for (const query of ['?payer_document=52998224725', '?payer_email=fulano%40example.com', '?external_id=order-1', '?amount_min=1990&amount_max=1990']) {
      expect(idsOf(await list(server, query, SECOND_TOKEN)).every((id) => !ours.includes(id)), query).toBe(true);
      expect(idsOf(await list(server, query)).every((id) => ours.includes(id)), query).toBe(true);
    }
    const keys = [`pix_code=${encodeURIComponent(made.pix.pix.qrCode)}`, `token_checkout=${made.pix.invoice.token_checkout}`, `boleto_line=${made.boleto.boleto.barcode}`];
    for (const query of keys) expect(await list(server, `?${query}`, SECOND_TOKEN), query).toEqual({ data: [], next_cursor: null });
    // the other way round too: their boleto is not ours
    expect(await list(server, `?boleto_line=${theirs[1].boleto.barcode}`)).toEqual({ data: [], next_cursor: null });
    // a cursor of the first company's walk, given by the second, still shows only the second's
    const cursor = (await list(server, '?limit=1')).next_cursor;
    expect(idsOf(await list(server, `?cursor=${cursor}`, SECOND_TOKEN)).every((id) => !ours.includes(id))).toBe(true);
  });

  it('still answers the bare record for ?id=, as production does', async () => {
    const { status, body } = await request(server, 'GET', `/api/v2/invoices?id=${made.boleto.secureId}`);
    expect(status).toBe(200);
    expect(body).toEqual(records.find((r) => r.id === made.boleto.id));
    expect(body).not.toHaveProperty('data');
  });
});

describe('a walk over many charges of the same millisecond', () => {
  let server: TestServer;
  let now = T0;
  const created: number[] = [];

  beforeAll(async () => {
    server = await startTestServer({ clock: () => new Date(now), expiryCheckMs: 0 });
    for (let i = 0; i < 55; i++) created.push((await create(server, validPix())).id);
  });
  afterAll(() => server.close());

  it('returns every charge exactly once, even when charges are created during the walk', async () => {
    const seen: number[] = [];
    const added: number[] = [];
    let cursor: string | null = null;
    for (let pages = 0; ; pages++) {
      const page = await list(server, `?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data.every((r) => r.createdAt === new Date(T0).toISOString())).toBe(true);
      seen.push(...idsOf(page));
      cursor = page.next_cursor;
      if (!cursor) break;
      // new charges in the same millisecond (higher ids: they sort before the cursor) and a later one
      if (pages === 1) for (let i = 0; i < 3; i++) added.push((await create(server, validPix())).id);
      if (pages === 4) {
        now = T0 + MINUTE;
        added.push((await create(server, validPix())).id);
        now = T0;
      }
    }
    expect(seen).toEqual([...created].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(created.length);
    expect(seen.some((id) => added.includes(id))).toBe(false);
  });

  it('pages 50 by default, up to 500 when asked, 1 at the least', async () => {
    const all = (await list(server, '?limit=500')).data.length;
    expect(all).toBeGreaterThan(55);
    const byDefault = await list(server);
    expect(byDefault.data).toHaveLength(50);
    expect(byDefault.next_cursor).not.toBeNull();
    const rest = await list(server, `?limit=500&cursor=${byDefault.next_cursor}`);
    expect(rest.data).toHaveLength(all - 50);
    expect(rest.next_cursor).toBeNull();
    expect((await list(server, '?limit=1')).data).toHaveLength(1);
  });
});

describe('charges whose time is up', () => {
  it('are listed expired, as Search shows them, and filtered by that status', async () => {
    let now = T0;
    const server = await startTestServer({ clock: () => new Date(now), expiryCheckMs: 0, pixExpirySeconds: 60 });
    try {
      const charge = await create(server, validPix());
      now = T0 + 2 * MINUTE;
      expect(idsOf(await list(server, '?status=pending'))).toEqual([]);
      const page = await list(server, '?status=expired');
      expect(idsOf(page)).toEqual([charge.id]);
      expect(page.data[0]).toEqual((await request(server, 'GET', `/api/v2/invoices/${charge.id}`)).body);
    } finally {
      await server.close();
    }
  });
});

describe('a query that is not understood', () => {
  let server: TestServer;
  let cursor: string;
  beforeAll(async () => {
    server = await startTestServer();
    await create(server, validPix());
    await create(server, validPix());
    cursor = (await list(server, '?limit=1')).next_cursor as string;
  });
  afterAll(() => server.close());

  const line = barcodeToDigitableLine(OTHER_BARCODE);
  const wrongDigit = `${line.slice(0, 9)}${(Number(line[9]) + 1) % 10}${line.slice(10)}`;
  const CASES: [string, () => string, string, RegExp][] = [
    ['an unknown parameter', () => '?bogus=1', 'query.bogus', /is not a parameter of Search Transaction; it takes id, status, method/],
    ['a parameter given twice', () => '?status=paid&status=refunded', 'query.status', /must be given once: several statuses go in one, separated by commas/],
    ['an unknown status', () => '?status=unpaid', 'query.status', /must be one of pending, waiting_3ds, paid, .*; not "unpaid"/],
    ['an empty status in a list', () => '?status=paid,', 'query.status', /not an empty one/],
    ['an unknown method', () => '?method=cash', 'query.method', /^must be one of pix, credit_card, boleto$/],
    ['a document of the wrong shape', () => '?payer_document=123', 'query.payer_document', /is not a CPF \(11 digits\) or a CNPJ/],
    ['a CPF with wrong check digits', () => '?payer_document=529.982.247-24', 'query.payer_document', /check digits do not match/],
    ['an e-mail that is not one', () => '?payer_email=nobody', 'query.payer_email', /must be an e-mail address/],
    ['an empty external_id', () => '?external_id=', 'query.external_id', /1 to 255 characters/],
    ['a created_from that is no date', () => '?created_from=yesterday', 'query.created_from', /ISO 8601 date-time with a zone .* or a date/],
    ['a date that does not exist', () => '?created_to=2026-02-30', 'query.created_to', /ISO 8601/],
    ['a date-time without a zone', () => '?created_to=2026-03-01T10:00:00', 'query.created_to', /with a zone/],
    ['a range that ends before it starts', () => '?created_from=2026-03-02&created_to=2026-03-01', 'query.created_to', /must be later than created_from \(2026-03-02T00:00:00.000Z\)/],
    ['a negative amount', () => '?amount_min=-1', 'query.amount_min', /whole number of cents from 0 to 100000000/],
    ['an amount in reais', () => '?amount_max=19.90', 'query.amount_max', /whole number of cents/],
    ['amount_max below amount_min', () => '?amount_min=500&amount_max=100', 'query.amount_max', /must be at least amount_min \(500\)/],
    ['a limit of 0', () => '?limit=0', 'query.limit', /whole number from 1 to 500/],
    ['a limit above 500', () => '?limit=501', 'query.limit', /whole number from 1 to 500/],
    ['a limit in words', () => '?limit=ten', 'query.limit', /whole number from 1 to 500/],
    ['a cursor that does not decode', () => '?cursor=nope!', 'query.cursor', /not a cursor of this server: pass the next_cursor/],
    ['a cursor with one character changed', () => `?cursor=${cursor.slice(0, -2)}${cursor.at(-2) === 'A' ? 'B' : 'A'}${cursor.at(-1)}`, 'query.cursor', /not a cursor/],
    ['a pix code that is not one', () => '?pix_code=hello', 'query.pix_code', /not a pix copy-and-paste code: one begins with 000201/],
    ['a checkout URL for a token', () => `?token_checkout=${encodeURIComponent('https://x.example/checkout/abc')}`, 'query.token_checkout', /must be a checkout token/],
    ['a boleto line of the wrong length', () => '?boleto_line=123', 'query.boleto_line', /47-digit typeable line or its 44-digit barcode .* not 3 digits/],
    ['a typeable line with a mistyped digit', () => `?boleto_line=${wrongDigit}`, 'query.boleto_line', /not a valid typeable line .*field 1 check digit/],
    ['a barcode with a wrong check digit', () => `?boleto_line=${'1'.repeat(44)}`, 'query.boleto_line', /general check digit: expected/],
    ['an empty id', () => '?id=', 'query.id', /is required/],
  ];

  it.each(CASES)('422 for %s, at its query.<name>', async (_, query, path, message) => {
    const { status, body } = await request(server, 'GET', `/api/v2/invoices${query()}`);
    expect(status).toBe(422);
    expect(body.error).toBe('validation_failed');
    const detail = body.details.find((d: any) => d.path === path);
    expect(detail?.message, JSON.stringify(body.details)).toMatch(message);
  });

  it.each([
    ['id with a filter', '?id=1&status=paid', ['query.id', 'query.status']],
    ['id with a page', '?id=1&limit=5&cursor=x', ['query.id', 'query.limit', 'query.cursor']],
    ['a search with a limit', `?pix_code=${'0'.repeat(10)}&limit=5`, ['query.pix_code', 'query.limit']],
    ['two searches', `?token_checkout=abc&boleto_line=${OTHER_BARCODE}`, ['query.token_checkout', 'query.boleto_line']],
  ])('422 naming both for %s', async (_, query, paths) => {
    const { status, body } = await request(server, 'GET', `/api/v2/invoices${query}`);
    expect(status).toBe(422);
    const named = body.details.map((d: any) => d.path);
    for (const path of paths) expect(named).toContain(path);
    const lone = body.details.find((d: any) => d.path === paths[0] && /on its own: leave out/.test(d.message));
    expect(lone, JSON.stringify(body.details)).toBeDefined();
    const other = body.details.filter((d: any) => d.path === paths[1]).map((d: any) => d.message);
    expect(other.some((message: string) => /cannot be combined with|on its own/.test(message)), JSON.stringify(other)).toBe(true);
  });
});
