/**
 * Money is an integer count of cents. The ceiling keeps every amount, and every sum of a few of them,
 * far inside the range where JavaScript numbers are exact integers (2^53).
 */
export const MAX_CENTS = 10 ** 13;

export type Cents = number;

export const isCents = (value: unknown): value is Cents =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_CENTS;

/** A three-letter uppercase code, the shape of ISO 4217. Which codes exist is not the service's call. */
export const isCurrencyCode = (value: unknown): value is string => typeof value === 'string' && /^[A-Z]{3}$/.test(value);

export interface Amounts {
  readonly currency: string;
  readonly grossCents: Cents;
  readonly netToSellerCents: Cents;
  readonly discountCents: Cents;
  readonly shippingCents: Cents;
  readonly taxesCents: Cents;
  readonly totalFeesCents: Cents;
}

/** What a caller may send: the optional amounts default to zero. */
export type AmountsInput = Pick<Amounts, 'currency' | 'grossCents' | 'netToSellerCents'> &
  Partial<Omit<Amounts, 'currency' | 'grossCents' | 'netToSellerCents'>>;

export const amountsWithDefaults = (input: AmountsInput): Amounts => ({
  currency: input.currency,
  grossCents: input.grossCents,
  netToSellerCents: input.netToSellerCents,
  discountCents: input.discountCents ?? 0,
  shippingCents: input.shippingCents ?? 0,
  taxesCents: input.taxesCents ?? 0,
  totalFeesCents: input.totalFeesCents ?? 0,
});
