// What the server keeps in memory under tags (src/server/cache/kept.ts): a commit's tags drop what was
// read from them and nothing else; a read that overlapped a change of what it read is not kept; nothing
// is kept or used while the store does not hear other processes; the oldest goes first, untagged.
import { describe, expect, it } from 'vitest';
import { createKept } from '../../src/server/cache/kept.js';
import { changeListeners, type Changed } from '../../src/server/store/changes.js';

function feed() {
  const listeners = changeListeners();
  let heard = true;
  return {
    feed: { onChanged: listeners.add, heard: () => heard },
    tell: (changed: Changed) => listeners.tell(changed),
    deaf: (on: boolean) => void (heard = !on),
  };
}

describe('kept values', () => {
  it('are dropped by a change of one of their tags, and only then', () => {
    const { feed: f, tell } = feed();
    const kept = createKept<string>(f, 10);
    kept.keep('a', 'A', ['i1', 'c1'], kept.mark());
    kept.keep('b', 'B', ['i2', 'c1'], kept.mark());
    kept.keep('c', 'C', ['i3', 'c2'], kept.mark());
    tell(new Set(['i9', 'c3']));
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual(['A', 'B', 'C']);
    tell(new Set(['i1']));
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([undefined, 'B', 'C']);
    tell(new Set(['c1']));
    expect([kept.get('b'), kept.get('c')]).toEqual([undefined, 'C']);
    tell('all');
    expect(kept.get('c')).toBeUndefined();
  });

  it('are not kept when a change of their tags came while they were read, however many changes came', () => {
    const { feed: f, tell } = feed();
    const kept = createKept<string>(f, 10);
    const mark = kept.mark();
    tell(new Set(['i2']));
    kept.keep('a', 'A', ['i1'], mark); // another charge changed meanwhile: kept
    expect(kept.get('a')).toBe('A');
    const second = kept.mark();
    tell(new Set(['i1']));
    kept.keep('a', 'stale', ['i1'], second);
    expect(kept.get('a')).toBeUndefined();
    const third = kept.mark();
    for (let i = 0; i < 100; i++) tell(new Set([`i${100 + i}`]));
    kept.keep('a', 'A', ['i1'], third); // too many changes to look through: not kept
    expect(kept.get('a')).toBeUndefined();
    const fourth = kept.mark();
    tell('all');
    kept.keep('a', 'A', ['i1'], fourth);
    expect(kept.get('a')).toBeUndefined();
  });

  it('keep and answer nothing while the store does not hear other processes', () => {
    const { feed: f, deaf } = feed();
    const kept = createKept<string>(f, 10);
    kept.keep('a', 'A', ['i1'], kept.mark());
    deaf(true);
    expect(kept.get('a')).toBeUndefined();
    kept.keep('b', 'B', ['i2'], kept.mark());
    deaf(false);
    expect(kept.get('b')).toBeUndefined();
  });

  it('drop the oldest first when full, and forget its tags with it', () => {
    const { feed: f, tell } = feed();
    const kept = createKept<string>(f, 2);
    kept.keep('a', 'A', ['i1'], kept.mark());
    kept.keep('b', 'B', ['i2'], kept.mark());
    kept.keep('c', 'C', ['i3'], kept.mark());
    expect([kept.get('a'), kept.get('b'), kept.get('c'), kept.size]).toEqual([undefined, 'B', 'C', 2]);
    kept.keep('a', 'A2', ['i1'], kept.mark());
    tell(new Set(['i1']));
    expect([kept.get('a'), kept.get('c'), kept.size]).toEqual([undefined, 'C', 1]);
    kept.close();
    tell('all');
    expect(kept.get('c')).toBe('C'); // closed: no longer listening
  });
});
