// How `pinvoice proxy --replay` matches a request to a recorded exchange: volatile values by their
// kind, `--ignore`'s forms (a header, query:NAME, a JSON pointer with `*`), members only one side has,
// and the order of answers for identical requests; the not_recorded answer fits its schema.
import { describe, expect, it } from 'vitest';
import { NotRecorded } from '../../src/api/proxy.js';
import { volatileKind } from '../../src/api/shape-sample.js';
import { createReplay, ignored, replayDifferences, type Recorded } from '../../src/proxy/replay.js';

const exchange = (line: number, body: unknown, query: Record<string, string | string[]> = {}, status = 200): Recorded => ({
  at: '2026-12-02T10:00:00.000Z', entry: line, line, used: false, body,
  request: { method: 'POST', path: '/api/v2/invoices', query, headers: {}, body: body === null ? null : JSON.stringify(body) },
  answer: { status, headers: {}, body: `{"n":${line}}` },
});
const asked = (body: unknown, query: Record<string, string | string[]> = {}) => ({ method: 'POST', path: '/api/v2/invoices', query, body });
const none = ignored([]);

describe('volatile values', () => {
  it.each([
    ['2026-12-02T10:00:00.000Z', 'timestamp'],
    ['2026-12-02 10:00:00', 'timestamp'],
    ['7f9c2a4e-1b3d-4c5e-8f6a-0b1c2d3e4f5a', 'uuid'],
    ['INV-4242', 'id INV-'],
    ['evt_9Kq2', 'id evt_'],
    ['a9f3c1e7b5d24f6a8c0e1b3d', 'code'],
  ])('%s is a %s', (value, kind) => expect(volatileKind(value)).toBe(kind));

  it.each(['pix', 'Fulano de Tal', '529.982.247-25', '1990', 'in_analysis', 'abcdefghijklmnopqrstuvwxyz'])('%s is not volatile', (value) => expect(volatileKind(value)).toBeUndefined());

  it('counts two of one kind as equal, and not one of another kind', () => {
    const recorded = exchange(1, { sent_at: '2026-12-02T10:00:00.000Z', ref: 'INV-1', id: '7f9c2a4e-1b3d-4c5e-8f6a-0b1c2d3e4f5a' });
    expect(replayDifferences(recorded, asked({ sent_at: '2026-12-03T11:11:11.111Z', ref: 'INV-2', id: '00000000-1b3d-4c5e-8f6a-0b1c2d3e4f5a' }), none)).toEqual([]);
    expect(replayDifferences(recorded, asked({ sent_at: 'yesterday', ref: 'ORD-2', id: '7f9c2a4e-1b3d-4c5e-8f6a-0b1c2d3e4f5a' }), none)).toEqual([
      { path: '/sent_at', expected: '2026-12-02T10:00:00.000Z', received: 'yesterday' },
      { path: '/ref', expected: 'INV-1', received: 'ORD-2' },
    ]);
  });
});

describe('--ignore', () => {
  it('reads a header name, header:NAME, query:NAME and pointers (`*` any one member)', () => {
    const given = ignored(['X-Request-Id', 'header:traceparent', 'query:page', '/metadata/sent_at', '/items/*/note']);
    expect(given.headers).toEqual(['idempotency-key', 'x-request-id', 'traceparent']);
    expect([...given.query]).toEqual(['page']);
    expect(given.pointers.map((pointer) => pointer.test('/items/3/note'))).toEqual([false, true]);
    expect(given.pointers[0]?.test('/metadata/sent_at/x')).toBe(false);
  });

  it('leaves out the members and query names it names, and only those', () => {
    const recorded = exchange(1, { total_price_cents: 1990, items: [{ note: 'a' }, { note: 'b' }], metadata: { sent_at: 'x' } }, { page: '1', per: '10' });
    const request = asked({ total_price_cents: 2990, items: [{ note: 'c' }, { note: 'd' }], metadata: { sent_at: 'y' } }, { page: '2', per: '10' });
    expect(replayDifferences(recorded, request, none).map((difference) => difference.path)).toEqual(['query.page', '/total_price_cents', '/items/0/note', '/items/1/note', '/metadata/sent_at']);
    expect(replayDifferences(recorded, request, ignored(['query:page', '/total_price_cents', '/items/*/note', '/metadata/sent_at']))).toEqual([]);
  });
});

describe('matching', () => {
  it('names a member only the request has (expected absent) and one only the recording has (received absent)', () => {
    expect(replayDifferences(exchange(1, { a: 1, b: 2 }), asked({ a: 1, c: 3 }), none)).toEqual([
      { path: '/b', expected: 2 },
      { path: '/c', expected: undefined, received: 3 },
    ]);
  });

  it('compares a body that is not JSON as text, and method and path exactly', () => {
    const form = { ...exchange(1, 'a=1&b=2'), request: { ...exchange(1, null).request, body: 'a=1&b=2' } };
    expect(replayDifferences(form, asked('a=1&b=2'), none)).toEqual([]);
    expect(replayDifferences(form, { ...asked('a=1'), method: 'PUT', path: '/api/v2/invoices/*' }, none)).toEqual([
      { path: 'method', expected: 'POST', received: 'PUT' },
      { path: 'path', expected: '/api/v2/invoices', received: '/api/v2/invoices/*' },
      { path: '', expected: 'a=1&b=2', received: 'a=1' },
    ]);
  });

  it('answers identical requests in recorded order, then the last again; an unused one is told', () => {
    const replay = createReplay('f.jsonl', [exchange(1, { a: 1 }), exchange(2, { a: 2 }), exchange(3, { a: 1 })], none);
    const answers = [1, 2, 3].map(() => replay.answer(asked({ a: 1 })));
    expect(answers.map((answer) => ('exchange' in answer ? answer.exchange.line : 0))).toEqual([1, 3, 3]);
    expect(replay.unused().map((recorded) => recorded.line)).toEqual([2]);
  });

  it('gives up to 3 near misses, closest first, in the schema of the not_recorded answer', () => {
    const replay = createReplay('f.jsonl', [exchange(1, { a: 1, b: 1 }), exchange(2, { a: 1, b: 2 }), exchange(3, { a: 9, b: 9 }), exchange(4, { z: 1 })], none);
    const answer = replay.answer(asked({ a: 1, b: 3 }));
    expect('near' in answer).toBe(true);
    if (!('near' in answer)) return;
    expect(answer.near.map((miss) => miss.line)).toEqual([1, 2, 3]);
    expect(answer.near[0]?.differences).toEqual([{ path: '/b', expected: 1, received: 3 }]);
    expect(() => NotRecorded.parse({ error: 'not_recorded', message: 'm', near_misses: answer.near })).not.toThrow();
    expect(() => NotRecorded.parse({ error: 'not_recorded', message: 'm', near_misses: answer.near, extra: 1 })).toThrow();
  });
});
