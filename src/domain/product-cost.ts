import { NOT_SET } from './attribution';
import { isCents, isCurrencyCode } from './money';
import type { Product } from './order';
import { isCalendarDate, startOfDate } from './time-zone';

/**
 * What one unit of a product costs in one currency from a day of the dashboard's time zone on, until
 * the next entry of the same product and currency (DECISIONS D20). Set, not added to: an entry of the
 * same (product, currency, from) replaces it.
 */
export interface ProductCostEntry {
  /** An order line's `externalId`, else its `sku` (productOfLine). */
  readonly product: string;
  readonly currency: string;
  readonly unitCostCents: number;
  /** `YYYY-MM-DD`, a day of the dashboard's time zone. */
  readonly from: string;
}

/** At most this many entries in one upload. */
export const MAX_PRODUCT_COST_ENTRIES = 1_000;

/** A product is named like an order line's `externalId` or `sku`: 1 to this many characters (code points). */
export const PRODUCT_MAX_LENGTH = 255;

/** Whether `u` has 1 to PRODUCT_MAX_LENGTH code points; a string of more than twice as many UTF-16 units has too many. */
export const isProductName = (u: unknown): u is string =>
  typeof u === 'string' && u.length >= 1 && u.length <= 2 * PRODUCT_MAX_LENGTH && [...u].length <= PRODUCT_MAX_LENGTH;

/** What is wrong with an entry, each problem under its field's name; empty when it can be stored. */
export const productCostProblems = (entry: ProductCostEntry): { readonly field: keyof ProductCostEntry; readonly message: string }[] => [
  ...(isProductName(entry.product) ? [] : [{ field: 'product' as const, message: `must be 1 to ${PRODUCT_MAX_LENGTH} characters` }]),
  ...(isCurrencyCode(entry.currency) ? [] : [{ field: 'currency' as const, message: 'must be three uppercase letters' }]),
  ...(isCents(entry.unitCostCents) ? [] : [{ field: 'unitCostCents' as const, message: 'must be a whole number of cents, 0 or more' }]),
  ...(isCalendarDate(entry.from) ? [] : [{ field: 'from' as const, message: 'must be a calendar date written YYYY-MM-DD' }]),
];

/**
 * The product an order line is: its `externalId` when it has one (even with a `sku`), else its `sku`,
 * else `(not set)` (a cost entry for `(not set)` prices the lines that have neither).
 */
export const productOfLine = (line: Pick<Product, 'externalId' | 'sku'>): string => line.externalId ?? line.sku ?? NOT_SET;

/** The unit cost in force for a product and currency at an instant, in cents; undefined when none is (the units are uncosted). */
export type UnitCostOf = (product: string, currency: string, at: number) => number | undefined;

/**
 * A price list from a dashboard's entries: each entry holds from the start of its `from` day in `zone`
 * (the dashboard's time zone now, so a change of zone moves every boundary at once) until the next
 * entry's; an instant before the first entry of a product and currency has no cost.
 */
export const unitCostLookup = (entries: Iterable<ProductCostEntry>, zone: string): UnitCostOf => {
  const dayStarts = new Map<string, number>();
  const startOf = (date: string): number => {
    let start = dayStarts.get(date);
    if (start === undefined) {
      start = startOfDate(date, zone);
      dayStarts.set(date, start);
    }
    return start;
  };
  const lists = new Map<string, { start: number; cents: number }[]>();
  for (const entry of entries) {
    const id = `${entry.currency}\u0000${entry.product}`;
    const list = lists.get(id);
    const item = { start: startOf(entry.from), cents: entry.unitCostCents };
    if (list === undefined) lists.set(id, [item]);
    else list.push(item);
  }
  for (const list of lists.values()) list.sort((a, b) => a.start - b.start);
  return (product, currency, at) => {
    const list = lists.get(`${currency}\u0000${product}`);
    if (list === undefined) return undefined;
    let low = 0;
    let high = list.length - 1;
    let found: number | undefined;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (list[mid].start <= at) {
        found = list[mid].cents;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  };
};
