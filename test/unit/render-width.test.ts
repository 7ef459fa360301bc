import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/api/postbacks.js';
import type { Transaction } from '../../src/api/schemas.js';
import { createPalette } from '../../src/cli/render/colour.js';
import { renderCompany } from '../../src/cli/render/company.js';
import { renderAttempts, renderEvent, renderEventTable } from '../../src/cli/render/events.js';
import { fitWidths, wrapText } from '../../src/cli/render/layout.js';
import { renderRequestSummary } from '../../src/cli/render/request.js';
import { renderTransaction } from '../../src/cli/render/transaction.js';
import { displayWidth, terminalWidth } from '../../src/cli/render/width.js';
import { PIX_CODE, boletoTransaction, cardTransaction, enterprise, pixTransaction } from '../support/fixtures.js';
import { validPix } from '../support/server.js';
import { readTransaction } from '../../src/client/read/transaction.js';
import { readCompany } from '../../src/client/read/company.js';
import { readEvent } from '../../src/client/read/serve-answers.js';

const plain = createPalette(false);
const coloured = createPalette(true);
const SGR = new RegExp(`${'\u001b'}\\[[0-9;]*m`, 'g');

const LONG_NAME = `Kit presente ${'café torrado, caneca esmaltada e açúcar mascavo '.repeat(6)}`.slice(0, 240);
const LONG_URL = `https://loja.example.com.br/integracoes/pinvoice/postbacks/${'a1b2c3d4'.repeat(12)}?origem=checkout&canal=app`;

function long(tx: Transaction): Transaction {
  return {
    ...tx,
    postbackUrl: LONG_URL,
    externalRef: 'pedido-2026-11-22-000000000000000000000000042',
    items: [{ ...(tx.items[0] ?? pixTransaction().items[0]!), title: LONG_NAME, unitPrice: 123_456_789 }],
    metadata: { canal: 'app', campanha: 'black friday '.repeat(8) },
  };
}

function event(): WebhookEvent {
  const at = '2026-11-22T15:03:58.123Z';
  const attempt = { at, url: LONG_URL, duration_ms: 10_012, status_code: null, error: `timed out after 10000 ms waiting for ${new URL(LONG_URL).host}`, response_excerpt: null, delivered: false, injected: [] };
  return {
    id: 'evt_0123456789abcdef01234567', event: 'invoice.partially_refunded', created_at: at, invoice_id: 'INV-20261122-000042-8391', status: 'paid',
    url: LONG_URL, state: 'pending', next_attempt_at: '2026-11-22T15:09:58.123Z', delivered_at: null,
    attempts: [attempt, { ...attempt, status_code: 503, error: null, duration_ms: 4 }],
    payload: {} as WebhookEvent['payload'],
  };
}

const outputs: [string, (palette: typeof plain, width: number) => string][] = [
  ['a pix charge', (palette, width) => renderTransaction(readTransaction(long(pixTransaction())), { palette, width })],
  ['a card charge with a refund', (palette, width) => renderTransaction(readTransaction(long(cardTransaction())), { palette, width })],
  ['a boleto charge', (palette, width) => renderTransaction(readTransaction(long(boletoTransaction())), { palette, width })],
  ['a company with every block', (palette, width) => renderCompany(readCompany({ ...enterprise(), blocked_pix: true, blocked_card: true, blocked_bank_slip: true, blocked_processing: true, blocked_sake: true, blocked_system: true }), { palette, width })],
  ['postbacks', (palette, width) => renderEventTable(([event(), { ...event(), state: 'delivered', event: 'invoice.created' }]).map(readEvent), palette, 'Postbacks', width)],
  ['attempts', (palette, width) => renderAttempts(([event()]).map(readEvent), palette, width) ?? ''],
  ['one event', (palette, width) => renderEvent(readEvent(event()), palette, width)],
  ['the prompts summary', (palette, width) => renderRequestSummary(validPix({ postback_url: LONG_URL, items: [{ name: LONG_NAME, quantity: 2, unit_price: 1990 }] }) as never, palette, width)],
];

describe.each([80, 60])('at %i columns', (width) => {
  it.each(outputs)('%s fits: every line, coloured or not', (_name, render) => {
    for (const palette of [plain, coloured]) {
      const lines = render(palette, width).split('\n');
      // the pix code alone may run past the edge: it is printed whole, on its own line, to be copied
      const tooWide = lines.filter((line) => displayWidth(line) > width && line.replace(SGR, '') !== PIX_CODE);
      expect(tooWide).toEqual([]);
    }
  });

  it('keeps every word of the long item name, and the pix code whole on its own line', () => {
    const output = renderTransaction(readTransaction(long(pixTransaction())), { palette: plain, width });
    const words = output.split(/[\s│]+/);
    for (const word of LONG_NAME.split(' ').filter((w) => w.length < 10)) expect(words).toContain(word);
    expect(output.split('\n')).toContain(PIX_CODE);
  });
});

it('the 240-character item name made a 291-column table; it is now 80 wide and the amounts stay whole', () => {
  const output = renderTransaction(readTransaction(long(pixTransaction())), { palette: plain, width: 80 });
  const items = output.slice(output.indexOf('Items'), output.indexOf('Fee'));
  expect(Math.max(...items.split('\n').map(displayWidth))).toBe(80);
  expect(items).toContain('R$ 1.234.567,89');
});

it('the postbacks table fits 80 columns with the event id whole and the first line telling what happened', () => {
  const lines = renderEventTable(([{ ...event(), state: 'delivered', event: 'invoice.created', attempts: [{ ...event().attempts[0]!, status_code: 200, delivered: true, duration_ms: 12 }] }]).map(readEvent), plain, 'Postbacks', 80).split('\n');
  expect(lines.find((line) => line.includes('evt_0123456789abcdef01234567'))).toBeDefined();
  expect(lines.find((line) => /invoice\.created.*delivered.*HTTP 200/.test(line))).toBeDefined();
});

describe('displayWidth', () => {
  it.each([
    ['abc', 3],
    ['São Paulo', 9],
    ['Sa\u0303o', 3],
    ['R$ 1.234,56', 11],
    ['┌─┬─┐│', 6],
    ['—•×', 3],
    [`${coloured.bad('red')} ${coloured.bold('x')}`, 5],
    ['東京', 4],
    ['👍🏽', 2],
    ['', 0],
  ])('%j is %i columns', (text, width) => expect(displayWidth(text)).toBe(width));
});

describe('wrapText', () => {
  it('breaks between words, inside a word only when it is longer than the line', () => {
    expect(wrapText('caneca esmaltada azul', 10)).toBe('caneca\nesmaltada\nazul');
    expect(wrapText('https://x.example/abcdefghij', 10)).toBe('https://x.\nexample/ab\ncdefghij');
    expect(wrapText('short', 10)).toBe('short');
  });

  it('carries colour to the next line and closes it at the end of each', () => {
    const lines = wrapText(coloured.bad('connection refused by host'), 12).split('\n');
    expect(lines).toEqual([coloured.bad('connection'), coloured.bad('refused by'), coloured.bad('host')]);
  });

  it('counts accents and colour codes as nothing', () => {
    for (const line of wrapText(coloured.dim('açúcar mascavo orgânico de São Tomé'), 8).split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(8);
  });
});

describe('fitWidths', () => {
  it.each([
    [[[10, 5], [20, 5]], 40, [10, 20]],
    [[[10, 10], [40, 5]], 30, [10, 20]],
    [[[30, 28], [40, 10], [20, 10]], 60, [28, 16, 16]],
    [[[30, 28], [40, 20]], 30, [15, 15]],
  ])('%j in %i -> %j', (needs, budget, widths) => {
    expect(fitWidths(needs.map(([natural, minimum]) => ({ natural: natural!, minimum: minimum! })), budget)).toEqual(widths);
  });
});

describe('terminalWidth', () => {
  it.each([
    [{ isTTY: true, columns: 132 }, {}, 132],
    [{ isTTY: false, columns: 132 }, {}, 80],
    [{}, {}, 80],
    [{ isTTY: true, columns: 0 }, {}, 80],
    [{ isTTY: true, columns: 132 }, { COLUMNS: '60' }, 60],
    [{}, { COLUMNS: '100' }, 100],
    [{}, { COLUMNS: 'wide' }, 80],
    [{}, { COLUMNS: '0' }, 80],
  ])('%j with %j is %i', (stream, env, width) => expect(terminalWidth(stream, env)).toBe(width));
});
