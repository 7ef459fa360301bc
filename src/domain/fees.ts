// The fee rule of the contract: estimatedFee = round(amount * spread / 100) + fixed, on integers only.

export interface FeeSchedule {
  /** percent of the amount, e.g. 0.99 for 0.99 % */
  spreadPercentage: number;
  /** cents added to every charge */
  fixedAmount: number;
}

export interface Fee {
  estimatedFee: number;
  fixedAmount: number;
  netAmount: number;
  spreadPercentage: number;
}

const PPM_PER_PERCENT = 10_000;

/** The spread in parts per million, so 1.99 % becomes the integer 19 900. */
export function spreadToPpm(spreadPercentage: number): number {
  return Math.round(spreadPercentage * PPM_PER_PERCENT);
}

/** Rounds half up; amount * ppm stays below 2^53 for every allowed amount (at most 10^8 * 10^6). */
export function computeFee(amount: number, schedule: FeeSchedule): Fee {
  const ppm = spreadToPpm(schedule.spreadPercentage);
  const variable = Math.floor((amount * ppm + 500_000) / 1_000_000);
  const estimatedFee = variable + schedule.fixedAmount;
  return {
    estimatedFee,
    fixedAmount: schedule.fixedAmount,
    netAmount: amount - estimatedFee,
    spreadPercentage: schedule.spreadPercentage,
  };
}
