import * as t from 'io-ts';
import { isCurrencyCode } from '../../domain/money';
import type { Amounts } from '../../domain/money';
import type { JsonObject, NewOrder, Product } from '../../domain/order';
import type { OrderStatus, StatusDateField } from '../../domain/order-status';
import type { Touch } from '../../domain/touch';
import { centsOfDecimal, centsOfNumber } from './amounts';

/** What every platform's payload reader shares: lenient shapes, the limits of an order's fields (the body itself: exact-json.ts). */

/** A field a platform may send as null or leave out. */
export const maybe = <C extends t.Mixed>(codec: C) => t.union([codec, t.null, t.undefined]);

/** A decimal amount as text ("10.00"), read into cents. */
export const decimalText = new t.Type<number, string, unknown>(
  'DecimalText',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    const cents = typeof u === 'string' ? centsOfDecimal(u) : undefined;
    return cents === undefined ? t.failure(u, c, 'must be a decimal amount with at most 2 significant fraction digits') : t.success(cents);
  },
  (cents) => (cents / 100).toFixed(2),
);

/** An optional decimal text field's cents: undefined when it is missing or not an amount. */
export const centsOfText = (value: unknown): number | undefined => (typeof value === 'string' ? centsOfDecimal(value) : undefined);

/**
 * A decimal amount as a JSON number (Hotmart's `149.9`) or as text, read into cents through its
 * shortest decimal text: more than 2 significant fraction digits is refused, never rounded.
 */
export const decimalAmount = new t.Type<number, number, unknown>(
  'DecimalAmount',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    const cents = typeof u === 'number' ? centsOfNumber(u) : typeof u === 'string' ? centsOfDecimal(u) : undefined;
    return cents === undefined ? t.failure(u, c, 'must be an amount with at most 2 fraction digits') : t.success(cents);
  },
  (cents) => cents / 100,
);

/** An ISO 8601 date-time with its zone, as platforms write them. */
export const platformDate = new t.Type<Date, string, unknown>(
  'PlatformDate',
  (u): u is Date => u instanceof Date,
  (u, c) => {
    const at = typeof u === 'string' && /(Z|[+-]\d{2}:?\d{2})$/.test(u) ? new Date(u) : undefined;
    return at === undefined || Number.isNaN(at.getTime()) ? t.failure(u, c, 'must be a date-time with a zone') : t.success(at);
  },
  (at) => at.toISOString(),
);

/** A date-time without a zone that the platform documents as GMT (WooCommerce's `date_created_gmt`: "2017-03-22T19:28:02"). */
export const gmtDate = new t.Type<Date, string, unknown>(
  'GmtDate',
  (u): u is Date => u instanceof Date,
  (u, c) => {
    const at = typeof u === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(u) ? new Date(`${u}Z`) : undefined;
    return at === undefined || Number.isNaN(at.getTime()) ? t.failure(u, c, 'must be a GMT date-time') : t.success(at);
  },
  (at) => at.toISOString().slice(0, 19),
);

/** Milliseconds since the epoch, as Hotmart writes its dates. */
export const unixMilliseconds = new t.Type<Date, number, unknown>(
  'UnixMilliseconds',
  (u): u is Date => u instanceof Date,
  (u, c) =>
    typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 && u <= 8.64e15
      ? t.success(new Date(u))
      : t.failure(u, c, 'must be Unix milliseconds'),
  (at) => at.getTime(),
);

/** Unix seconds, as Stripe writes them. */
export const unixSeconds = new t.Type<Date, number, unknown>(
  'UnixSeconds',
  (u): u is Date => u instanceof Date,
  (u, c) =>
    typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 ? t.success(new Date(u * 1000)) : t.failure(u, c, 'must be Unix seconds'),
  (at) => Math.floor(at.getTime() / 1000),
);

/** A currency code in any case, upper-cased. */
export const currencyCode = new t.Type<string, string, unknown>(
  'Currency',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && isCurrencyCode(u.toUpperCase()) ? t.success(u.toUpperCase()) : t.failure(u, c, 'must be a currency code'),
  t.identity,
);

/** The first problem of a failed decoding, in a few words: the path and what was expected. */
export const firstProblem = (errors: t.Errors): string => {
  const error = errors[0];
  if (error === undefined) return 'the payload is not what the platform documents';
  const path = error.context
    .map((entry) => entry.key)
    .filter((key) => key !== '' && !/^\d+$/.test(key) === true)
    .join('.');
  return `${path === '' ? 'the payload' : path} ${error.message ?? 'is missing or of another type'}`;
};

const TEXT_MAX = 255;

/**
 * The most characters of a shop's name in an order's key (`woocommerce:<shop>:<order id>`), so that
 * the key stays within an externalId's 255 with the platform's name and a 20-digit id.
 */
export const MAX_SHOP_LENGTH = 200;
const FREE_TEXT_MAX = 1_000;

/** Text for an order's field: trimmed, cut to 255 characters, undefined when empty. */
export const text = (value: string | number | null | undefined, max = TEXT_MAX): string | undefined => {
  const trimmed = value === null || value === undefined ? '' : String(value).trim();
  return trimmed === '' ? undefined : [...trimmed].slice(0, max).join('');
};

/** A customer as the order's free-form `customer`: the few fields given, each within the free-form limits. */
export const customerOf = (fields: Readonly<Record<string, string | null | undefined>>): JsonObject | undefined => {
  const entries = Object.entries(fields).flatMap(([key, value]) => {
    const kept = text(value, FREE_TEXT_MAX);
    return kept === undefined ? [] : [[key, kept] as const];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
};

type OptionalAmounts = Partial<Pick<Amounts, 'discountCents' | 'shippingCents' | 'taxesCents' | 'totalFeesCents'>>;

/** The optional amounts a platform gave; those it did not are left out, and default to zero. */
export const givenAmounts = (amounts: { readonly [K in keyof OptionalAmounts]: number | undefined }): OptionalAmounts =>
  Object.fromEntries(Object.entries(amounts).filter(([, cents]) => cents !== undefined));

/** A first and a last name as one, either of them missing or empty. */
export const personName = (first: string | null | undefined, last: string | null | undefined): string =>
  [first, last].filter((part) => typeof part === 'string' && part !== '').join(' ');

/** A product line as a platform gives it. */
export interface ProductLine {
  readonly name?: string;
  readonly externalId?: string | number | null;
  readonly sku?: string | null;
  readonly quantity: number;
  readonly unitPriceCents: number;
}

/** A product line within the order's limits. */
export const productOf = (line: ProductLine): Product => {
  const externalId = text(line.externalId);
  const sku = text(line.sku);
  return {
    name: text(line.name) ?? 'Item',
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    ...(externalId === undefined ? {} : { externalId }),
    ...(sku === undefined ? {} : { sku }),
  };
};

/** An order's products: one per line item, or one line of the whole amount, named `name`, when the order lists none. */
export const productsOf = <A>(
  items: readonly A[],
  line: (item: A) => ProductLine,
  whole: { readonly name: string; readonly cents: number },
) =>
  items.length === 0
    ? [productOf({ name: whole.name, quantity: 1, unitPriceCents: whole.cents })]
    : items.map((item) => productOf(line(item)));

/**
 * The dates of an order read in `status`: when it was paid (a refunded or charged-back order was
 * paid first), and when it was refunded or charged back.
 */
export const statusDates = (status: OrderStatus, paidAt: Date, endedAt: Date): Pick<NewOrder, StatusDateField> => ({
  ...(status === 'paid' || status === 'refunded' || status === 'chargedback' ? { paidAt } : {}),
  ...(status === 'refunded' ? { refundedAt: endedAt } : status === 'chargedback' ? { chargedbackAt: endedAt } : {}),
});

/** The order's quantity limit (decision 0003). */
export const MAX_QUANTITY = 1_000_000;
export const MAX_PRODUCTS = 500;

/** A platform's line items read with `codec`, within the order's limits; else the problem with the first that is not. */
export const lineItemsOf = <A extends { readonly quantity: number }>(
  codec: t.Decoder<unknown, A>,
  raw: readonly unknown[],
): A[] | string => {
  const items: A[] = [];
  for (const line of raw) {
    const decoded = codec.decode(line);
    if (decoded._tag === 'Left') return `a line item: ${firstProblem(decoded.left)}`;
    items.push(decoded.right);
  }
  if (items.length > MAX_PRODUCTS) return `the order has ${items.length} line items, more than the ${MAX_PRODUCTS} an order holds`;
  const wrong = items.find((item) => !Number.isSafeInteger(item.quantity) || item.quantity < 1 || item.quantity > MAX_QUANTITY);
  return wrong === undefined ? items : `a line item's quantity ${wrong.quantity} is not from 1 to ${MAX_QUANTITY}`;
};

/** The campaign fields of a touch, each read by its `utm_*` name. */
export const utmTouch = (get: (name: string) => string | undefined): Touch => ({
  utmSource: get('utm_source'),
  utmMedium: get('utm_medium'),
  utmCampaign: get('utm_campaign'),
  utmContent: get('utm_content'),
  utmTerm: get('utm_term'),
});
