// `pinvoice logs`: the event-stream parser its tail reads with, the tolerant reading of an entry, and
// the line each entry is printed as.
import { describe, expect, it } from 'vitest';
import { createPalette } from '../../src/cli/render/colour.js';
import { entryLine, renderJournalTable } from '../../src/cli/render/journal.js';
import { renderJournalEntry } from '../../src/cli/render/journal-entry.js';
import { useTimeZone } from '../../src/cli/render/time.js';
import { createEventParser, type ServerEvent } from '../../src/client/event-stream.js';
import { readEntry, readJournalPage } from '../../src/client/read/journal.js';

const plain = createPalette(false);

function parse(...chunks: string[]) {
  const events: ServerEvent[] = [];
  const parser = createEventParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return { events, state: parser.state };
}

describe('the event-stream parser', () => {
  it('one event with its type and id', () => expect(parse('event: entry\nid: 7\ndata: {"id":7}\n\n').events).toEqual([{ event: 'entry', id: '7', data: '{"id":7}' }]));
  it('comments (the heartbeat) are no event', () => expect(parse(': still here\n\n').events).toEqual([]));
  it('an event cut across chunks, in the middle of a CRLF too', () =>
    expect(parse('event: en', 'try\r', '\nid: 8\r\ndata: {"a"', ':1}\r\n\r\n').events).toEqual([{ event: 'entry', id: '8', data: '{"a":1}' }]));
  it('several data lines are joined by newlines; no event field is "message"', () =>
    expect(parse('data: a\ndata: b\n\n').events).toEqual([{ event: 'message', id: undefined, data: 'a\nb' }]));
  it('an event not yet ended by a blank line is not dispatched', () => expect(parse('event: entry\ndata: {}\n').events).toEqual([]));
  it('keeps the last id and the retry the server asked for', () => expect(parse('retry: 1000\nid: 3\ndata: x\n\nid: 4\n\n').state).toEqual({ lastId: '4', retryMs: 1000 }));
});

const ENTRY = {
  id: 12, at: '2026-11-28T05:37:44.908Z', sandbox_at: '2026-11-28T05:37:44.908Z', direction: 'in', method: 'POST', path: '/api/v2/invoices',
  query: { dry: 'yes' }, headers: { 'content-type': 'application/json' }, body: { method: 'pix' }, status: 422, response_body: { error: 'validation_failed' },
  duration_ms: 7.77, token_name: 'ci', token_hint: 'pinv_tes…0001', idempotency_key: null, replayed: false,
  problems: [{ path: '/total_price_cents', message: 'is required' }, { path: '/payer', message: 'is required' }, { path: '/items', message: 'is required' }],
  invoice_ids: [], event_id: null, event: null, attempt: null, url: null, signature_headers: [], error: 'validation_failed',
};

const POSTBACK = {
  ...ENTRY, id: 13, direction: 'out', path: '/hook', query: {}, status: null, token_name: null, token_hint: null, problems: [], invoice_ids: [4],
  event_id: 'evt_1', event: 'invoice.paid', attempt: 2, url: 'http://127.0.0.1:9/hook', signature_headers: ['X-Webhook-Signature'], error: 'connection refused',
};

describe('an entry, as logs tail and logs list show it', () => {
  useTimeZone('UTC');

  it('a refused request: id, time, arrow, method, path and query, status, duration, token, the first two problems', () =>
    expect(entryLine(readEntry(ENTRY), plain)).toBe('12  2026-11-28 05:37:44 UTC  → POST /api/v2/invoices?dry=yes  422  8 ms  ci  /total_price_cents is required; /payer is required (+1 more)'));

  it('a postback attempt with no answer: the URL, the error as its status, the event and attempt, the charge', () =>
    expect(entryLine(readEntry(POSTBACK), plain)).toBe('13  2026-11-28 05:37:44 UTC  ← POST http://127.0.0.1:9/hook  connection refused  8 ms  invoice.paid #2  charge 4'));

  it('fields it does not know or lacks cost nothing: what is there is shown', () => {
    expect(entryLine(readEntry({ id: '5', method: 'GET', surprise: { x: 1 } }), plain)).toBe('5  —  ? GET —  —  —  —');
    expect(readJournalPage([ENTRY]).entries[0]?.id).toBe(12);
  });

  it('terminal controls from the data are made visible', () =>
    expect(entryLine(readEntry({ ...ENTRY, path: '/a\u001b[2Jb', problems: [] }), plain)).toContain('/a\\x1b[2Jb'));

  it('the list fits 80 columns', () => {
    const table = renderJournalTable([readEntry(ENTRY), readEntry(POSTBACK)], plain, 80);
    expect(Math.max(...table.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it('show: the problems by JSON pointer, the signature header names, bodies as JSON', () => {
    const shown = renderJournalEntry(readEntry(ENTRY), plain, 100);
    expect(shown).toMatch(/│ \/total_price_cents +│ is required +│/);
    expect(shown).toContain('Request body\n{\n  "method": "pix"\n}');
    expect(renderJournalEntry(readEntry(POSTBACK), plain, 100)).toMatch(/│ signed with +│ X-Webhook-Signature +│/);
  });
});
