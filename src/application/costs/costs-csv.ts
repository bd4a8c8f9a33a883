import type * as E from 'fp-ts/Either';
import { isCurrencyCode } from '../../domain/money';
import { isProductName, PRODUCT_MAX_LENGTH, type ProductCostEntry } from '../../domain/product-cost';
import { isCalendarDate } from '../../domain/time-zone';
import { AMOUNT_RULE, centsOf, readCsv, type CsvRefusal } from '../shared/csv-file';

/** The header a product costs CSV starts with (DECISIONS D20). */
export const COSTS_CSV_HEADER = ['product', 'currency', 'unit_cost', 'from'] as const;

/** One line's entry, or what is wrong with it; `unit_cost` in currency units, as decimal text. */
const entryOf = (fields: readonly string[]): ProductCostEntry | string => {
  const [product, currency, unitCost, from] = fields as [string, string, string, string];
  const cents = centsOf(unitCost);
  const wrong = [
    ...(isProductName(product) ? [] : [`product must be 1 to ${PRODUCT_MAX_LENGTH} characters`]),
    ...(isCurrencyCode(currency) ? [] : ['currency must be three uppercase letters']),
    ...(cents === undefined ? [`unit_cost ${AMOUNT_RULE}`] : []),
    ...(isCalendarDate(from) ? [] : ['from must be a calendar date written YYYY-MM-DD']),
  ];
  return wrong.length > 0 ? wrong.join('; ') : { product, currency, unitCostCents: cents!, from };
};

/** Reads a product costs CSV (readCsv: strict UTF-8, at most CSV_MAX_BYTES, stops at MAX_CSV_PROBLEMS bad lines). */
export const parseCostsCsv = (bytes: Uint8Array): Promise<E.Either<CsvRefusal, readonly ProductCostEntry[]>> =>
  readCsv(bytes, { header: COSTS_CSV_HEADER, entryOf });
