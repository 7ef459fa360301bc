import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { alphanumeric, isSecureId, makeCheckoutToken, makeSecureId, makeTxid, orderedTime, SECURE_ID_PATTERN } from '../../src/domain/ids.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const DAY = new Date('2026-11-22T15:30:00.000Z');
const FORMAT = /^INV-\d{8}-\d{6}-\d{4}$/;
// The specification: "INV- followed by hyphen-separated numeric parts".
const SPEC = /^INV-[0-9]+(-[0-9]+)*$/;

describe('makeSecureId', () => {
  it.each([
    [42, DAY, bytes(0, 0), 'INV-20261122-000042-0000'],
    [42, DAY, bytes(0x12, 0x34), 'INV-20261122-000042-4660'], // 0x1234 = 4660
    [1, DAY, bytes(0, 7), 'INV-20261122-000001-0007'],
    [1, DAY, bytes(0x27, 0x10), 'INV-20261122-000001-0000'], // 10 000 % 10 000
    [1, DAY, bytes(0x27, 0x0f), 'INV-20261122-000001-9999'], // 9 999
    [1, DAY, bytes(255, 255), 'INV-20261122-000001-5535'], // 65 535 % 10 000
    [999999, DAY, bytes(1, 0), 'INV-20261122-999999-0256'],
    [123456, new Date('2026-01-05T00:00:00.000Z'), bytes(0, 1), 'INV-20260105-123456-0001'],
    [7, new Date('2026-12-31T23:59:59.999Z'), bytes(0, 1, 99, 99), 'INV-20261231-000007-0001'], // only two bytes used
  ])('makeSecureId(%d, %s, %s) is %s', (id, date, random, expected) => {
    const secureId = makeSecureId(id, date, random);
    expect(secureId).toBe(expected);
    expect(secureId).toMatch(FORMAT);
    expect(secureId).toMatch(SECURE_ID_PATTERN);
    expect(secureId).toMatch(SPEC);
    expect(isSecureId(secureId)).toBe(true);
  });

  it('uses the UTC date, not the local one', () => {
    expect(makeSecureId(1, new Date('2026-11-22T23:30:00-03:00'), bytes(0, 0))).toBe('INV-20261123-000001-0000');
  });

  it('an id beyond six digits keeps all its digits and still matches the pattern', () => {
    const secureId = makeSecureId(1234567, DAY, bytes(0, 0));
    expect(secureId).toBe('INV-20261122-1234567-0000');
    expect(isSecureId(secureId)).toBe(true);
  });

  it('has the documented format for every id, day and pair of bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999 }),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.uint8Array({ minLength: 2, maxLength: 2 }),
        (id, date, random) => {
          const secureId = makeSecureId(id, date, random);
          expect(secureId).toMatch(FORMAT);
          expect(secureId).toMatch(SPEC);
          expect(isSecureId(secureId)).toBe(true);
          const [, day, num, suffix] = secureId.split('-');
          expect(day).toBe(date.toISOString().slice(0, 10).replace(/-/g, ''));
          expect(Number(num)).toBe(id);
          expect(Number(suffix)).toBe((((random[0] ?? 0) * 256) + (random[1] ?? 0)) % 10_000);
        },
      ),
    );
  });
});

describe('SECURE_ID_PATTERN / isSecureId', () => {
  it.each([
    ['INV-20261122-000042-8391', true],
    ['INV-1', false], // a single part is not "hyphen-separated parts": the pattern asks for two or more
    ['INV-1-2', true],
    ['INV-20261122-000042', true],
    ['INV-', false],
    ['INV-20261122-', false],
    ['INV--1', false],
    ['inv-20261122-000042-8391', false],
    ['INV-2026112a-000042-8391', false],
    ['INV 20261122-000042-8391', false],
    [' INV-20261122-000042-8391', false],
    ['INV-20261122-000042-8391 ', false],
    ['INV-20261122-000042-8391\n', false],
    ['42', false],
    ['', false],
  ])('isSecureId(%j) is %s', (text, expected) => {
    expect(isSecureId(text)).toBe(expected);
    expect(SECURE_ID_PATTERN.test(text)).toBe(expected);
  });
});

describe('alphanumeric', () => {
  it.each([
    [bytes(0), 'A'],
    [bytes(25), 'Z'],
    [bytes(26), 'a'],
    [bytes(51), 'z'],
    [bytes(52), '0'],
    [bytes(61), '9'],
    [bytes(62), 'A'],
    [bytes(123), '9'], // 123 % 62 = 61
    [bytes(124), 'A'],
    [bytes(186), 'A'],
    [bytes(247), '9'], // the last byte kept: 247 % 62 = 61
  ])('maps %s to %s', (random, expected) => expect(alphanumeric(random, 1)).toBe(expected));

  it.each([248, 249, 250, 255])('skips the byte %d (rejection sampling)', (rejected) => {
    expect(alphanumeric(bytes(rejected, 1), 1)).toBe('B');
    expect(alphanumeric(bytes(rejected, rejected, 2, rejected, 3), 2)).toBe('CD');
  });

  it('stops after length characters', () => expect(alphanumeric(bytes(0, 1, 2, 3, 4), 3)).toBe('ABC'));
  it('a length of 0 gives the empty string', () => {
    expect(alphanumeric(bytes(), 0)).toBe('');
    expect(alphanumeric(bytes(1, 2), 0)).toBe('');
  });

  it.each([
    [bytes(), 1],
    [bytes(1, 2), 3],
    [bytes(255, 255, 255, 255), 1],
    [bytes(1, 248, 2, 249), 3],
  ])('throws RangeError when %s cannot give %d characters', (random, length) => {
    expect(() => alphanumeric(random, length)).toThrow(RangeError);
  });

  it('every character is a letter or a digit, and matches the reference mapping', () => {
    const SYMBOLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 80 }), fc.integer({ min: 0, max: 60 }), (random, length) => {
        const kept = [...random].filter((byte) => byte < 248);
        if (kept.length < length) {
          expect(() => alphanumeric(random, length)).toThrow(RangeError);
          return;
        }
        const out = alphanumeric(random, length);
        expect(out).toMatch(/^[A-Za-z0-9]*$/);
        expect(out).toHaveLength(length);
        expect(out).toBe(kept.slice(0, length).map((byte) => SYMBOLS[byte % 62]).join(''));
      }),
    );
  });

  it('every one of the 62 symbols is reached by exactly 4 of the 248 kept bytes', () => {
    const counts = new Map<string, number>();
    for (let byte = 0; byte < 248; byte++) {
      const symbol = alphanumeric(bytes(byte), 1);
      counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    }
    expect(counts.size).toBe(62);
    expect([...counts.values()].every((count) => count === 4)).toBe(true);
  });
});

describe('makeCheckoutToken and makeTxid', () => {
  const random48 = Uint8Array.from({ length: 48 }, (_, i) => i);

  it.each([
    ['makeCheckoutToken', makeCheckoutToken],
    ['makeTxid', makeTxid],
  ] as const)('%s gives 32 letters and digits', (_name, make) => {
    const out = make(random48);
    expect(out).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef');
    expect(out).toHaveLength(32);
    expect(out).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('a txid has a length the contract allows (26 to 35)', () => {
    const length = makeTxid(random48).length;
    expect(length).toBeGreaterThanOrEqual(26);
    expect(length).toBeLessThanOrEqual(35);
  });

  it('skips rejected bytes and still gives 32 characters from 48 bytes', () => {
    const random = Uint8Array.from({ length: 48 }, (_, i) => (i % 3 === 0 ? 255 : i));
    const token = makeCheckoutToken(random);
    expect(token).toHaveLength(32);
    expect(token.startsWith('BCEFHI')).toBe(true);
  });

  it.each([
    ['makeCheckoutToken', makeCheckoutToken],
    ['makeTxid', makeTxid],
  ] as const)('%s throws RangeError when fewer than 32 bytes are usable', (_name, make) => {
    expect(() => make(new Uint8Array(31))).toThrow(RangeError);
    expect(() => make(new Uint8Array(48).fill(250))).toThrow(RangeError);
  });

  it('bytes that differ in a symbol give different tokens', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 48, maxLength: 48 }).map((random) => random.map((byte) => byte % 248)),
        fc.integer({ min: 0, max: 31 }),
        fc.integer({ min: 1, max: 61 }),
        (random, at, shift) => {
          const other = Uint8Array.from(random);
          other[at] = ((random[at] ?? 0) + shift) % 62;
          expect(makeCheckoutToken(other)).not.toBe(makeCheckoutToken(random));
          expect(makeTxid(other)).not.toBe(makeTxid(random));
        },
      ),
    );
  });

  it('random tokens do not collide', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.uint8Array({ minLength: 48, maxLength: 48 }).map((r) => r.map((b) => b % 248)), {
        minLength: 2,
        maxLength: 20,
        selector: (r) => [...r.slice(0, 32)].map((b) => b % 62).join(','),
      }), (randoms) => {
        const tokens = randoms.map((random) => makeCheckoutToken(random));
        expect(new Set(tokens).size).toBe(tokens.length);
      }),
    );
  });
});

describe('checkout tokens that sort by creation time', () => {
  const random48 = Uint8Array.from({ length: 48 }, (_, i) => i);

  it('and pix txids made the same way: new ones land at the end of the txid index', () => {
    const at = new Date('2026-11-23T08:00:00.000Z');
    expect(makeTxid(random48, at)).toBe(makeCheckoutToken(random48, at));
    expect(makeTxid(random48, at) < makeTxid(random48, new Date(at.getTime() + 1))).toBe(true);
  });

  it('begin with 8 symbols of the time and end with 24 random letters and digits', () => {
    const token = makeCheckoutToken(random48, new Date('2026-11-23T08:00:00.000Z'));
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(token.slice(0, 8)).toBe(orderedTime(Date.parse('2026-11-23T08:00:00.000Z')));
    expect(token.slice(8)).toBe('ABCDEFGHIJKLMNOPQRSTUVWX');
  });

  it('sort as the times they were made at, whatever their random part', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 1, max: 10 ** 9 }), fc.uint8Array({ minLength: 48, maxLength: 48 }).map((r) => r.map((b) => b % 248)), (ms, later, random) => {
        const first = makeCheckoutToken(random, new Date(ms));
        const second = makeCheckoutToken(random.map((b) => 247 - b), new Date(ms + later));
        expect(first < second).toBe(true);
        expect(orderedTime(ms)).toHaveLength(8);
      }),
    );
  });
});
