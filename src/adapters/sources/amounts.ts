import { isCents } from '../../domain/money';

/**
 * Platform amounts to the service's cents without floating point. The service counts every currency
 * in hundredths of its unit (¥1,500 is 150000, as the API takes it and the console shows it), so:
 * decimal text (Shopify's "10.00") is read digit by digit, and minor units (Stripe's integers) are
 * scaled by the currency's own exponent.
 */

/** Stripe's zero-decimal currencies: an amount is already whole units (docs.stripe.com/currencies#zero-decimal). */
export const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Stripe's three-decimal currencies: an amount is thousandths, its last digit 0 (docs.stripe.com/currencies#three-decimal). */
export const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** `"10.00"` → 1000, `"1500"` → 150000, `"0.5"` → 50; undefined for anything else, or a fraction finer than a cent (`"1.005"`). */
export const centsOfDecimal = (text: string): number | undefined => {
  const match = /^(\d{1,15})(?:\.(\d{1,12}))?$/.exec(text.trim());
  if (match === null) return undefined;
  const fraction = match[2] ?? '';
  if (!/^0*$/.test(fraction.slice(2))) return undefined;
  const cents = Number(match[1]) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  return isCents(cents) ? cents : undefined;
};

/** A Stripe amount in the currency's minor unit → cents; undefined when negative, not whole, too large, or finer than a cent. */
export const centsOfMinorUnits = (amount: number, currency: string): number | undefined => {
  if (!Number.isSafeInteger(amount) || amount < 0) return undefined;
  const code = currency.toUpperCase();
  const cents = ZERO_DECIMAL.has(code) ? amount * 100 : THREE_DECIMAL.has(code) ? (amount % 10 === 0 ? amount / 10 : undefined) : amount;
  return cents !== undefined && isCents(cents) ? cents : undefined;
};

/**
 * A JSON number (Hotmart's `149.9`) → cents, through the shortest decimal text that reads back as the
 * same number (`String(149.9)` is "149.9"), digit by digit as `centsOfDecimal` does: never
 * `value * 100`, which is 28.999999999999996 for 0.29. More than 2 fraction digits
 * (`0.30000000000000004`), a negative or an exponent form is undefined.
 */
export const centsOfNumber = (value: number): number | undefined =>
  Number.isFinite(value) && value >= 0 ? centsOfDecimal(String(value)) : undefined;
