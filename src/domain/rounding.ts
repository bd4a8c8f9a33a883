/**
 * Divisions a report rounds, done exactly: the operands are integers (cents, counts), so the quotient
 * is worked out in BigInt and rounded half away from zero (decision 0020), never through a float
 * that could land on the wrong side of a half or lose digits past 2^53.
 */

/** round(value × multiplier / divisor), half away from zero; all integers, the divisor not 0. */
export const scaledRounded = (value: number, multiplier: number, divisor: number): number => {
  const numerator = BigInt(value) * BigInt(multiplier);
  const denominator = BigInt(divisor);
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return Number(negative ? -q : q);
};

/** `numerator / denominator` rounded to an integer, half away from zero. */
export const divideRounded = (numerator: number, denominator: number): number => scaledRounded(numerator, 1, denominator);

/** `numerator / denominator` rounded to 4 decimals, half away from zero. */
export const ratio4 = (numerator: number, denominator: number): number => scaledRounded(numerator, 10_000, denominator) / 10_000;
