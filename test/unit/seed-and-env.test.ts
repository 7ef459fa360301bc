// The seeded streams of `serve --seed`, and the env files of `serve --write-env` and `webhooks secret --env`.
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { envText } from '../../src/base/env-file.js';
import { seededBytes, seededNumbers, seedText } from '../../src/base/seeded-random.js';
import { frozenClock } from '../../src/server/seeded.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const draws = (seed: number | string, purpose: string, sizes: number[]) => sizes.map(seededBytes(seed, purpose)).map(hex).join('');

describe('seeded streams', () => {
  it('two generators of one seed and purpose give the same bytes, however the draws are cut', () => {
    expect(draws(42, 'ids', [2, 64, 64, 96])).toBe(draws(42, 'ids', [2, 64, 64, 96]));
    expect(draws(42, 'ids', [2, 64, 64, 96])).toBe(draws(42, 'ids', [226]));
    expect(draws(42, 'ids', [16])).toBe(draws('42', 'ids', [16])); // 42 and '42' are one seed
  });

  it('another purpose or another seed gives other bytes', () => {
    const ids = draws(42, 'ids', [64]);
    expect(draws(42, 'events', [64])).not.toBe(ids);
    expect(draws(43, 'ids', [64])).not.toBe(ids);
    expect(draws('042', 'ids', [64])).not.toBe(ids);
  });

  it('numbers repeat too, and stay in [0, 1)', () => {
    const a = seededNumbers(7, 'postback-jitter');
    const b = seededNumbers(7, 'postback-jitter');
    const values = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(values);
    expect(values.every((n) => n >= 0 && n < 1)).toBe(true);
    expect(new Set(values).size).toBe(1000);
  });

  it.each([[''], [Number.NaN], [Number.POSITIVE_INFINITY]])('a seed of %s names nothing', (seed) => {
    expect(() => seedText(seed)).toThrow(RangeError);
  });

  it('a frozen clock reads one time; a time that is none is refused', () => {
    const clock = frozenClock('2030-06-15T09:00:00-03:00');
    expect(clock().toISOString()).toBe('2030-06-15T12:00:00.000Z');
    expect(clock().toISOString()).toBe('2030-06-15T12:00:00.000Z');
    expect(() => frozenClock('tomorrow')).toThrow(RangeError);
  });
});

describe('envText', () => {
  it('writes what every reader takes as it is bare, and anything else in single quotes', () => {
    const vars = { PINVOICE_BASE_URL: 'http://[::1]:4010', PINVOICE_TOKEN: 'ci$HOME~tok#en "x"', PINVOICE_WEBHOOK_SECRET: 'whsec_abc123' };
    const text = envText(vars, '--write-env');
    expect(text).toBe(`PINVOICE_BASE_URL=http://[::1]:4010\nPINVOICE_TOKEN='ci$HOME~tok#en "x"'\nPINVOICE_WEBHOOK_SECRET=whsec_abc123\n`);
    // Node's own dotenv parser (what --env-file reads) gives the values back
    expect(parseEnv(text)).toEqual(vars);
  });

  it.each([["it's"], ['back\\slash'], ['new\nline'], ['tab\there']])('refuses %j, naming the variable and where it goes', (value) => {
    expect(() => envText({ PINVOICE_TOKEN: value }, '--write-env')).toThrow(/^--write-env: PINVOICE_TOKEN holds a single quote, a backslash or a control character/);
  });
});
