// The map of texts last used that the proxy's checks and redactions keep (src/base/text-lru.ts).
import { describe, expect, it } from 'vitest';
import { TextLru } from '../../src/base/text-lru.js';

describe('TextLru', () => {
  it('keeps at most its size: an addition drops the oldest entry not used since it was added or last passed over', () => {
    const lru = new TextLru<number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1); // a used: it is passed over
    lru.set('d', 4); // b, the oldest unused, goes
    expect([lru.get('b'), lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([undefined, 1, 3, 4]);

    const unused = new TextLru<number>(2);
    unused.set('a', 1);
    unused.set('b', 2);
    unused.set('c', 3); // nothing used: the oldest goes
    expect([unused.get('a'), unused.get('b'), unused.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('when every entry was used, passes over each once and drops the oldest (a second chance, not a third)', () => {
    const lru = new TextLru<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.get('b');
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('finds a value by an equal text built anew, and a set of a kept text replaces its value without growing', () => {
    const lru = new TextLru<string>(2);
    lru.set(['{"id":', '7}'].join(''), 'first');
    expect(lru.get(`{"id":${7}}`)).toBe('first');
    lru.set('{"id":7}', 'second');
    lru.set('other', 'x');
    expect(lru.get('{"id":7}')).toBe('second');
    expect(lru.get('other')).toBe('x');
  });
});
