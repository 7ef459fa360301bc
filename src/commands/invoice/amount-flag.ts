// Reais typed in a flag (`--amount`, an --item's unit price), read by the one amount parser.
import { usageError } from '../../cli/errors.js';
import { AmountError, amountRangeProblem, formatBRL, parseAmount } from '../../domain/money.js';

/**
 * Reais typed in a flag -> cents, read by the one parser (domain/money) and checked against the caps
 * here, in reais: the API's own check would answer in cents to someone who typed reais.
 */
export function amountFlag(text: string, flag: string): number {
  let cents: number;
  try {
    cents = parseAmount(text);
  } catch (error) {
    if (error instanceof AmountError) throw usageError(`${flag}: ${error.message}`);
    throw error;
  }
  const problem = amountRangeProblem(cents);
  if (problem) throw usageError(`${flag}: ${problem}, not ${formatBRL(cents)}`);
  return cents;
}
