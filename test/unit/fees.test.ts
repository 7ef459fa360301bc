import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { computeFee, spreadToPpm } from '../../src/domain/fees.js';

/** round-half-up(amount * hundredths / 10 000) + fixed, on BigInts: the contract's rule without floating point. */
function referenceFee(amount: number, spreadHundredths: number, fixed: number): number {
  const variable = (BigInt(amount) * BigInt(spreadHundredths) + 5_000n) / 10_000n;
  return Number(variable) + fixed;
}

describe('spreadToPpm', () => {
  it.each([
    [0, 0],
    [0.99, 9_900],
    [1, 10_000],
    [1.1, 11_000],
    [1.99, 19_900],
    [2.49, 24_900],
    [3.99, 39_900],
    [0.0001, 1],
    [100, 1_000_000],
  ])('spreadToPpm(%d) is %d', (spread, ppm) => expect(spreadToPpm(spread)).toBe(ppm));
});

describe('computeFee: known vectors', () => {
  it.each([
    // amount, spread %, fixed, estimatedFee
    [1990, 0.99, 0, 20], // 19.701 -> 20
    [10000, 3.99, 39, 438], // 399 + 39 (399.0 exactly)
    [10000, 0, 349, 349], // boleto: fixed only
    [1, 0, 349, 349],
    [50, 1, 0, 1], // 0.5 rounds up
    [49, 1, 0, 0], // 0.49 rounds down
    [149, 1, 0, 1], // 1.49 rounds down
    [150, 1, 0, 2], // 1.5 rounds up
    [250, 1, 0, 3], // 2.5 rounds up (half up, not half even)
    [1000, 1.1, 0, 11], // 1.1 is not exact in binary
    [1000, 2.49, 0, 25], // 24.9 -> 25
    [100, 2.49, 0, 2], // 2.49 -> 2
    [10000, 2.49, 0, 249],
    [10000, 1.1, 0, 110],
    [4545, 1.1, 0, 50], // 49.995 -> 50
    [4544, 1.1, 0, 50], // 49.984 -> 50
    [4540, 1.1, 0, 50], // 49.94 -> 50
    [4535, 1.1, 0, 50], // 49.885 -> 50
    [4500, 1.1, 0, 50], // 49.5 -> 50
    [4499, 1.1, 0, 49], // 49.489 -> 49
    [2000, 2.49, 0, 50], // 49.8 -> 50
    [100_000_000, 3.99, 39, 3_990_039],
    [100_000_000, 100, 0, 100_000_000],
    [100_000_000, 0.01, 0, 10_000],
    [5, 0.01, 0, 0],
    [5000, 0.01, 0, 1], // 0.5 -> 1
    [4999, 0.01, 0, 0], // 0.4999 -> 0
    // exact halves where the naive Math.round(amount * spread / 100) gives x.49999... and rounds down
    [25000, 0.29, 0, 73], // 72.5 -> 73 (naive: 72.49999999999999 -> 72)
    [5000, 0.57, 0, 29], // 28.5 -> 29
    [3000, 1.15, 0, 35], // 34.5 -> 35
    [3000, 4.35, 0, 131], // 130.5 -> 131
    [3000, 9.95, 349, 299 + 349], // 298.5 -> 299
    [500, 1.1, 0, 6], // 5.5 -> 6
  ])('amount %d at %d percent + %d -> estimatedFee %d', (amount, spreadPercentage, fixedAmount, fee) => {
    expect(computeFee(amount, { spreadPercentage, fixedAmount })).toEqual({
      estimatedFee: fee,
      fixedAmount,
      netAmount: amount - fee,
      spreadPercentage,
    });
  });

  it('1990 at 0.99 % gives the whole record', () => {
    expect(computeFee(1990, { spreadPercentage: 0.99, fixedAmount: 0 })).toEqual({
      estimatedFee: 20,
      fixedAmount: 0,
      netAmount: 1970,
      spreadPercentage: 0.99,
    });
  });

  it('a fee larger than the amount gives a negative netAmount', () => {
    expect(computeFee(100, { spreadPercentage: 0, fixedAmount: 349 })).toMatchObject({ estimatedFee: 349, netAmount: -249 });
  });
});

describe('computeFee: properties', () => {
  // Half of the runs draw multiples of 1 000, where amount * spread / 100 often lands exactly on .5.
  const amounts = fc.oneof(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 1, max: 100_000 }).map((m) => m * 1_000));
  const hundredths = fc.integer({ min: 0, max: 10_000 }); // spreads 0.00 .. 100.00 with 2 decimals
  const fixed = fc.integer({ min: 0, max: 10_000 });

  it('matches a BigInt reference for spreads with 2 decimals', () => {
    fc.assert(
      fc.property(amounts, hundredths, fixed, (amount, k, fixedAmount) => {
        const fee = computeFee(amount, { spreadPercentage: k / 100, fixedAmount });
        expect(fee.estimatedFee).toBe(referenceFee(amount, k, fixedAmount));
      }),
      { numRuns: 5000 },
    );
  });

  it('matches the BigInt reference on the spreads that are not exact in binary', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(1.1, 2.49, 0.29, 0.57, 1.15, 4.35, 9.95, 0.07), (amount, spread) => {
        const k = Math.round(spread * 100);
        expect(computeFee(amount, { spreadPercentage: spread, fixedAmount: 0 }).estimatedFee).toBe(referenceFee(amount, k, 0));
      }),
      { numRuns: 2000 },
    );
  });

  it('matches the reference on exact halves (amount * k = 10 000 n + 5 000)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999 }), (n) => {
        // k = 1 (0.01 %), amount = 10 000 n + 5 000: the variable part is exactly n + 0.5
        const amount = 10_000 * n + 5_000;
        expect(computeFee(amount, { spreadPercentage: 0.01, fixedAmount: 0 }).estimatedFee).toBe(n + 1);
      }),
    );
  });

  it('netAmount is always amount - estimatedFee and the fixed part is added once', () => {
    fc.assert(
      fc.property(amounts, hundredths, fixed, (amount, k, fixedAmount) => {
        const withFixed = computeFee(amount, { spreadPercentage: k / 100, fixedAmount });
        const withoutFixed = computeFee(amount, { spreadPercentage: k / 100, fixedAmount: 0 });
        expect(withFixed.netAmount).toBe(amount - withFixed.estimatedFee);
        expect(withFixed.estimatedFee - withoutFixed.estimatedFee).toBe(fixedAmount);
        expect(withFixed.fixedAmount).toBe(fixedAmount);
        expect(withFixed.spreadPercentage).toBe(k / 100);
        expect(Number.isSafeInteger(withFixed.estimatedFee)).toBe(true);
      }),
    );
  });

  it('the variable part never exceeds the amount and grows with the amount', () => {
    fc.assert(
      fc.property(amounts, hundredths, (amount, k) => {
        const schedule = { spreadPercentage: k / 100, fixedAmount: 0 };
        const fee = computeFee(amount, schedule).estimatedFee;
        expect(fee).toBeGreaterThanOrEqual(0);
        expect(fee).toBeLessThanOrEqual(amount);
        expect(computeFee(amount + 1, schedule).estimatedFee).toBeGreaterThanOrEqual(fee);
      }),
    );
  });
});
