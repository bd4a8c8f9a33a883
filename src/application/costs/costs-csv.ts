import type * as E from 'fp-ts/Either';
import { isCurrencyCode } from '../../domain/money';
import { PRODUCT_MAX_LENGTH, type ProductCostEntry } from '../../domain/product-cost';
import { isCalendarDate } from '../../domain/time-zone';
import { amountColumn, checkedColumn, readCsv, textColumn, type CsvRead, type CsvRefusal } from '../shared/csv-file';

/**
 * The columns of a product costs CSV, each with the other names a header may give it (the English
 * ones a spreadsheet may use, and Portuguese: `sku;custo` is how a Brazilian sheet heads them).
 */
const COSTS_COLUMNS = {
  product: textColumn('JOG-SLM', PRODUCT_MAX_LENGTH, ['sku', 'produto']),
  currency: checkedColumn(isCurrencyCode, "a currency's three capital letters", 'BRL', ['moeda']),
  unit_cost: amountColumn(['cost', 'custo', 'custo unitário']),
  from: checkedColumn(isCalendarDate, 'a day written YYYY-MM-DD', '2026-03-01', ['desde']),
};

/** The header a product costs CSV starts with, as the documentation and the console show it. */
export const COSTS_CSV_HEADER = Object.keys(COSTS_COLUMNS);

/** Every name a costs CSV's header may give each column. */
export const COSTS_CSV_ALIASES = Object.fromEntries(Object.entries(COSTS_COLUMNS).map(([name, column]) => [name, column.aliases]));

/** Reads a product costs CSV (readCsv: strict UTF-8, `,` or `;`, at most CSV_MAX_BYTES, stops at MAX_CSV_PROBLEMS bad lines). */
export const parseCostsCsv = (bytes: Uint8Array): Promise<E.Either<CsvRefusal, CsvRead<ProductCostEntry>>> =>
  readCsv(bytes, {
    columns: COSTS_COLUMNS,
    entryOf: (v) => ({ product: v.product, currency: v.currency, unitCostCents: v.unit_cost, from: v.from }),
  });
