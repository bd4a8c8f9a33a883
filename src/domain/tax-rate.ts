import { scaledRounded } from './rounding';

/**
 * A dashboard's tax rate (decision 0020): a percent of paid revenue, 0 to 100 with at most 2 decimals,
 * 0 by default. Kept as the number a caller wrote (12.34); worked with as hundredths of a percent
 * (1234), an integer, so that no tax is off by a cent through a float.
 */
export const DEFAULT_TAX_RATE = 0;
export const MAX_TAX_RATE = 100;

/**
 * Whether `u` is a tax rate. JavaScript writes a number with the fewest digits that read back as it,
 * so `12.34` is written `12.34` and `12.345` keeps its third decimal: the check reads that text.
 */
export const isTaxRate = (u: unknown): u is number =>
  typeof u === 'number' && u >= 0 && u <= MAX_TAX_RATE && /^\d{1,3}(?:\.\d{1,2})?$/.test(String(u));

/** The rate in hundredths of a percent: exact for every tax rate (its hundredfold is within 1e-12 of an integer). */
export const hundredthsOf = (taxRate: number): number => Math.round(taxRate * 100);

/** `hundredths` hundredths of a percent as a tax rate: the number nearest to the decimal, as JSON reads it. */
export const taxRateOfHundredths = (hundredths: number): number => hundredths / 100;

/** round(paidGrossCents × taxRate / 100), half away from zero, in integer arithmetic. */
export const taxCentsOf = (paidGrossCents: number, taxRate: number): number => scaledRounded(paidGrossCents, hundredthsOf(taxRate), 10_000);
