// `webhooks listen --json` writes the body as received: numbers, escapes and spacing kept, on one line.
import { describe, expect, it } from 'vitest';
import { receivedLine, type Received } from '../../src/commands/webhooks/received.js';

const received: Received = {
  type: 'event', received_at: '2026-11-23T00:00:00.000Z', path: '/', signature: 'valid', event_id: null, event: null,
  invoice_id: null, status: null, total: null, forward: null, payload: null,
};

describe('receivedLine', () => {
  it.each([
    ['{"total": 1990.0, "name": "S\\u00e3o"}', '{"total": 1990.0, "name": "S\\u00e3o"}'],
    ['{"total": 1990.0}\n', '{"total": 1990.0}'],
    ['{\r\n  "total": 1.5e3,\n  "a": [1,\n 2]\n}\r\n', '{   "total": 1.5e3,   "a": [1,  2] }'],
  ])('splices %j in as %j', (raw, spliced) => {
    const line = receivedLine(received, raw);
    expect(line.endsWith(`"payload":${spliced}}`)).toBe(true);
    expect(line).not.toMatch(/[\r\n]/);
    expect(JSON.parse(line).payload).toEqual(JSON.parse(raw));
  });

  it('keeps a body that is not JSON as a string', () => {
    expect(JSON.parse(receivedLine(received, 'not json\n')).payload).toBe('not json\n');
  });
});
