import { NOT_SET } from './attribution';
import { isCents, isCurrencyCode } from './money';
import type { Product } from './order';
import { isCalendarDate, startOfDate } from './time-zone';

/**
 * What one unit of a product costs in one currency from a day of the dashboard's time zone on, until
 * the next entry of the same product and currency (decision 0020). Set, not added to: an entry of the
 * same (product, currency, from) replaces it.
 */
export interface ProductCostEntry {
  /** A product (productOfLine: an order line's `sku`, else its `externalId`), or an order line's `externalId` (unitCostOfLine). */
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
 * The fields that name the product of an order line, first found first: its `sku`, else its
 * `externalId`. The SKU comes first because a shop keeps one SKU for a product on every channel,
 * where each checkout gives its lines its own id: a product sold through the API by SKU and through
 * Shopify under Shopify's product id with the same SKU is one product.
 */
export const PRODUCT_FIELDS = ['sku', 'externalId'] as const satisfies readonly (keyof Product)[];

/** The product an order line is (PRODUCT_FIELDS): its `sku`, else its `externalId`, else `(not set)` (a cost entry for `(not set)` prices the lines that have neither). */
export const productOfLine = (line: Pick<Product, 'externalId' | 'sku'>): string => {
  for (const field of PRODUCT_FIELDS) {
    const value = line[field];
    if (value !== undefined) return value;
  }
  return NOT_SET;
};

/**
 * The other name a line's costs may be stored under: its `externalId` when its product is its SKU and
 * the two differ (costs entered under the line's `externalId`, before the SKU named its product, keep
 * pricing it where the SKU has no cost in force: unitCostOfLine). Undefined otherwise.
 */
export const costAliasOfLine = (line: Pick<Product, 'externalId' | 'sku'>): string | undefined => {
  const product = productOfLine(line);
  return line.externalId !== undefined && line.externalId !== product ? line.externalId : undefined;
};

/** The unit cost in force for a product and currency at an instant, in cents; undefined when none is (the units are uncosted). */
export type UnitCostOf = (product: string, currency: string, at: number) => number | undefined;

/** What pricing reads of an order line: its product, and the other name its costs may be stored under. */
export interface PricedLine {
  readonly product: string;
  /** costAliasOfLine: the line's `externalId` when its product is its SKU and the two differ. */
  readonly costAlias?: string;
}

/**
 * The unit cost of a line at an instant: its product's cost in force then; when its product has none
 * in force, the cost in force for its `costAlias`. So a cost under the SKU wins from its first day
 * on, and one stored under the line's `externalId` still prices the days before it (or every day,
 * when the SKU has no cost in that currency).
 */
export const unitCostOfLine = (unitCostOf: UnitCostOf, line: PricedLine, currency: string, at: number): number | undefined => {
  const own = unitCostOf(line.product, currency, at);
  return own !== undefined || line.costAlias === undefined ? own : unitCostOf(line.costAlias, currency, at);
};

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
