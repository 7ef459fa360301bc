import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readShape } from '../../src/client/read-shape.js';
import { SCHEMAS } from '../../src/client/parse.js';
import { SHAPES } from '../../src/client/shapes.js';
import { boletoTransaction, cardTransaction, enterprise, pixTransaction } from '../support/fixtures.js';
import { shapesModule } from '../support/client-shapes.js';

describe('the shapes the client reads answers with, without zod', () => {
  it('src/client/shapes.ts is generated from the response schemas and the operation table (run this test with -u after changing them)', async () => {
    await expect(shapesModule()).toMatchFileSnapshot('../../src/client/shapes.ts');
    expect(Object.keys(SHAPES)).toEqual(expect.arrayContaining(['Transaction', 'Enterprise', 'EventList']));
  });

  /** A JSON value changed somewhere: fields reordered, added, removed, retyped, nulled; keys such as "__proto__". */
  const mutated = (value: unknown) =>
    fc.tuple(fc.nat(), fc.constantFrom('reorder', 'extra', 'drop', 'retype', 'null', 'proto', 'same'), fc.jsonValue()).map(([seed, change, junk]) => {
      const copy = JSON.parse(JSON.stringify(value));
      const objects: Record<string, unknown>[] = [];
      const walk = (node: unknown) => {
        if (node && typeof node === 'object') {
          if (!Array.isArray(node)) objects.push(node as Record<string, unknown>);
          Object.values(node).forEach(walk);
        }
      };
      walk(copy);
      const target = objects[seed % objects.length] as Record<string, unknown>;
      const keys = Object.keys(target);
      const key = keys[seed % Math.max(keys.length, 1)] ?? 'x';
      if (change === 'reorder') {
        const entries = Object.entries(target).reverse();
        for (const k of keys) delete target[k];
        for (const [k, v] of entries) target[k] = v;
      } else if (change === 'extra') target[`extra${seed}`] = junk;
      else if (change === 'drop') delete target[key];
      else if (change === 'retype') target[key] = junk;
      else if (change === 'null') target[key] = null;
      else if (change === 'proto') copy.metadata = JSON.parse('{"__proto__":{"a":1},"k":"v"}');
      return copy;
    });

  it('puts fields in the schema\'s order and drops extra ones, as zod does; leaves anything doubtful to zod', () => {
    const tx = pixTransaction();
    const reordered = { ...Object.fromEntries(Object.entries(tx).reverse()), extra: 1, timeline: tx.timeline.map(({ status, note, at }) => ({ note, at, status, by: 'x' })) };
    const read = readShape(SHAPES.Transaction!, reordered);
    expect(JSON.stringify(read)).toBe(JSON.stringify(SCHEMAS.Transaction.parse(reordered)));
    expect(readShape(SHAPES.Transaction!, { ...tx, amount: '1990' })).toBeUndefined();
    expect(readShape(SHAPES.Transaction!, { ...tx, createdAt: '2026-02-30T00:00:00.000Z' })).toBeUndefined();
    expect(readShape(SHAPES.Transaction!, { ...tx, metadata: JSON.parse('{"__proto__":{"a":1}}') })).toBeUndefined();
  });

  it.each([
    ['Transaction', pixTransaction()],
    ['Transaction', cardTransaction()],
    ['Transaction', boletoTransaction()],
    ['Enterprise', enterprise()],
  ] as const)('reads a %s as zod parses it, or leaves it to zod', (name, sample) => {
    expect(readShape(SHAPES[name]!, sample)).toEqual(SCHEMAS[name].parse(sample));
    fc.assert(
      fc.property(mutated(sample), (value) => {
        const read = readShape(SHAPES[name]!, value);
        const parsed = SCHEMAS[name].safeParse(value);
        if (!parsed.success) return read === undefined;
        return read === undefined || JSON.stringify(read) === JSON.stringify(parsed.data);
      }),
      { numRuns: 400 },
    );
  });
});
