import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookEvent } from '../../src/api/postbacks.js';
import { createOutput } from '../../src/cli/output.js';
import { createPalette } from '../../src/cli/render/colour.js';
import { renderCompany } from '../../src/cli/render/company.js';
import { renderAttempts, renderEvent, renderEventTable } from '../../src/cli/render/events.js';
import { renderRequestSummary } from '../../src/cli/render/request.js';
import { safeData, safeJson, safeOutput, safeText } from '../../src/cli/render/safe-text.js';
import { gridTable, keyValueTable } from '../../src/cli/render/table.js';
import { renderTransaction } from '../../src/cli/render/transaction.js';
import { eventLine, type Received } from '../../src/commands/webhooks/received.js';
import { boletoTransaction, cardTransaction, enterprise, pixTransaction } from '../support/fixtures.js';
import { validPix } from '../support/server.js';
import { readTransaction } from '../../src/client/read/transaction.js';
import { readCompany } from '../../src/client/read/company.js';
import { readEvent } from '../../src/client/read/serve-answers.js';

/** What a hostile payer or sender might put in a name: clear screen, bell, retitle, C1 CSI, RLO, conceal. */
const HOSTILE = ['\u001b[2J', '\u0007', '\u001b]0;owned\u0007', '\u009b31m', '\u202e', '\u001b[8m'];
const VISIBLE = ['\\x1b[2J', '\\x07', '\\x1b]0;owned\\x07', '\\x9b31m', '\\u202e', '\\x1b[8m'];
const POISON = `X${HOSTILE.join('')}Y`;

const plain = createPalette(false);
const coloured = createPalette(true);
const SGR = new RegExp(`${'\u001b'}\\[[0-9;]*m`, 'g');
/** A control character (or bidi control) other than a line break; with colour, our SGR codes aside. */
function rawControls(output: string, colour: boolean): string[] {
  const text = colour ? output.replace(SGR, '') : output;
  return [...text.matchAll(/[\p{Cc}\p{Bidi_Control}]/gu)].map(([char]) => char).filter((char) => char !== '\n');
}

// Enumerations and numbers stay valid (the client's schemas would refuse anything else); every free string is poisoned.
const KEEP = new Set(['status', 'paymentMethod', 'type', 'balance', 'threeDSecure', 'event', 'state', 'method', 'cpf_cnpj']);
function poison<T>(value: T, key = ''): T {
  if (typeof value === 'string') return (KEEP.has(key) ? value : `${value}${POISON}`) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => poison(item)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)])) as T;
  }
  return value;
}

function event(): WebhookEvent {
  const at = '2026-11-22T15:03:58.123Z';
  const attempt = { at, url: 'https://shop.example.com/hook', duration_ms: 12, status_code: null, error: 'connection refused', response_excerpt: 'oops', delivered: false, injected: [] };
  return {
    id: 'evt_0123456789abcdef01234567', event: 'invoice.created', created_at: at, invoice_id: 'INV-1', status: 'pending',
    url: 'https://shop.example.com/hook', state: 'failed', next_attempt_at: null, delivered_at: null,
    attempts: [attempt, { ...attempt, status_code: 500, error: null }],
    payload: {} as WebhookEvent['payload'],
  };
}

const transactions = [pixTransaction, cardTransaction, boletoTransaction].map((make) => poison(make()));
type Render = (palette: typeof plain, width: number) => string;
const renderers: [string, Render][] = [
  ...transactions.map((tx): [string, Render] => [`renderTransaction (${tx.paymentMethod})`, (palette, width) => renderTransaction(readTransaction(tx), { palette, width })]),
  ['renderTransaction (refused, metadata keys)', (palette, width) => renderTransaction(readTransaction({ ...pixTransaction(), status: 'refused', refusedReason: POISON, metadata: { [POISON]: POISON } }), { palette, width })],
  ['renderCompany', (palette, width) => renderCompany(readCompany(poison(enterprise())), { palette, width })],
  ['renderEventTable', (palette, width) => renderEventTable(([poison(event())]).map(readEvent), palette, `Postbacks of ${POISON}`, width)],
  ['renderAttempts', (palette, width) => renderAttempts(([poison(event())]).map(readEvent), palette, width) ?? ''],
  ['renderEvent', (palette, width) => renderEvent(readEvent(poison(event())), palette, width)],
  ['renderRequestSummary', (palette, width) => renderRequestSummary(poison(validPix({ method: 'pix' })) as never, palette, width)],
];

describe('safeText', () => {
  it.each(HOSTILE.map((text, i) => [text, VISIBLE[i]]))('%j is shown as %s', (text, visible) => expect(safeText(`a${text}b`)).toBe(`a${visible}b`));

  it.each([
    ['\t\n\r', '\\t\\n\\r'],
    ['\u0000\u007f\u0085', '\\x00\\x7f\\x85'],
    ['\u2066\u2069\u200f\u061c\u2028', '\\u2066\\u2069\\u200f\\u061c\\u2028'],
    ['São Paulo · R$ 1.234,56 — 東京 👍🏽 C:\\temp', 'São Paulo · R$ 1.234,56 — 東京 👍🏽 C:\\temp'],
  ])('%j -> %s', (text, expected) => expect(safeText(text)).toBe(expected));

  it('safeData makes every string of a record safe, keys included, and leaves numbers alone', () => {
    expect(safeData({ [POISON]: [POISON, 1, null, { a: POISON }], n: 2 })).toEqual({ [safeText(POISON)]: [safeText(POISON), 1, null, { a: safeText(POISON) }], n: 2 });
  });

  it('safeOutput keeps line breaks, and colour codes only when colour is on', () => {
    const text = `${coloured.ok('ok')}\n${POISON}`;
    expect(rawControls(safeOutput(text, true), true)).toEqual([]);
    expect(safeOutput(text, true)).toContain(coloured.ok('ok'));
    expect(safeOutput(text, false)).toBe(`\\x1b[32mok\\x1b[39m\n${safeText(POISON)}`);
  });
});

describe.each([
  ['without colour', plain, false],
  ['with colour', coloured, true],
] as const)('every renderer, %s, given hostile data', (_name, palette, colour) => {
  it.each(renderers)('%s lets no control character through and shows each one escaped', (_renderer, render) => {
    for (const width of [80, 60]) {
      const output = render(palette, width);
      expect(rawControls(output, colour)).toEqual([]);
      expect(output).not.toContain('\u001b[8m');
    }
    // wide enough that no escape is wrapped in two
    const wide = render(palette, 1000).replace(SGR, '');
    for (const visible of VISIBLE) expect(wide).toContain(visible);
  });
});

describe('a table given raw data (a renderer that skipped safeData)', () => {
  const table = (palette: typeof plain) => [gridTable(['a', 'b'], [[POISON, POISON]], palette, 60), keyValueTable([[POISON, POISON]], palette, 60)].join('\n');

  it('escapes every control character of every cell when colour is off', () => {
    expect(rawControls(table(plain), false)).toEqual([]);
    expect(table(plain)).not.toContain('\u001b');
  });

  it('with colour on, escapes all but SGR codes (which only safeData, before colouring, can tell from ours)', () => {
    expect(rawControls(table(coloured), true)).toEqual([]);
  });
});

describe('colour still works around made-safe data', () => {
  it('a refused reason is escaped inside our red', () => {
    const output = renderTransaction(readTransaction({ ...cardTransaction(), status: 'refused', refusedReason: `bad${HOSTILE[0]}` }), { palette: coloured, width: 120 });
    expect(output).toContain(coloured.bad('bad\\x1b[2J'));
  });
});

describe('webhooks listen: eventLine', () => {
  const received: Received = {
    type: 'event', received_at: '2026-11-22T15:03:58.123Z', path: '/', signature: 'valid', event_id: POISON, event: POISON,
    invoice_id: POISON, status: POISON, total: 1990, forward: { url: POISON, status: null, error: POISON, duration_ms: 3 }, payload: null,
  };

  it.each([
    ['without colour', {}, false],
    ['with colour', { FORCE_COLOR: '1' }, true],
  ] as const)('prints hostile event and id fields escaped, %s', (_name, env, colour) => {
    const out = createOutput({}, env);
    expect(out.colour).toBe(colour);
    const line = eventLine(received, out);
    expect(rawControls(line, colour)).toEqual([]);
    expect(line).toContain(safeText(POISON));
    expect(line).not.toContain('\n');
  });
});

describe('safeJson: --json output with nothing raw a terminal may act on', () => {
  const hostile = { name: 'a\u009b2Jb\u202ec\u2028d\u007fe', 'k\u0085': ['\u200f'] };
  const text = safeJson(JSON.stringify(hostile, null, 2));

  it('writes DEL, C1, bidi controls and line separators as \\u escapes', () => {
    expect(text).not.toMatch(/[\u007f-\u009f\p{Bidi_Control}\u2028\u2029]/u);
    expect(text).toContain('\\u009b');
    expect(text).toContain('\\u202e');
  });

  it('is the same JSON value', () => {
    expect(JSON.parse(text)).toEqual(hostile);
    fc.assert(fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
      const json = JSON.stringify(value);
      expect(JSON.parse(safeJson(json))).toEqual(JSON.parse(json));
    }));
  });
});
