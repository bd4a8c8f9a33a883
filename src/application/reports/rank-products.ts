import { compareCodePoints } from '../../domain/code-point-order';
import {
  laterName,
  productMetricsOf,
  type ProductMetricName,
  type ProductName,
  type ProductRow,
  type ProductTotals,
} from '../../domain/product-report';
import type { Range } from '../../domain/report';
import type { ProductCell, ProductQuery, ProductReport, UncostedProduct, UncostedProducts, UncostedSummary } from '../ports/report-reader';
import { EventLoopSlices } from '../shared/event-loop-slices';
import { FirstRows, metricBefore } from './first-rows';

type Totals = { -readonly [K in keyof ProductTotals]: number };

const zero = (): Totals => ({ orders: 0, units: 0, paidUnits: 0, paidRevenueCents: 0, productCostCents: 0, uncostedUnits: 0 });

const addInto = (into: Totals, cell: ProductTotals): void => {
  into.orders += cell.orders;
  into.units += cell.units;
  into.paidUnits += cell.paidUnits;
  into.paidRevenueCents += cell.paidRevenueCents;
  into.productCostCents += cell.productCostCents;
  into.uncostedUnits += cell.uncostedUnits;
};

/** A product and currency being added up: its latest name so far, and its totals in each period. */
export interface ProductTally {
  readonly product: string;
  readonly currency: string;
  name: ProductName;
  readonly current: Totals;
  /** Only when the report compares with the previous period. */
  readonly previous: Totals | undefined;
}

/**
 * The name of a cell whose store names its products once they are ranked (SQLite reads the names of
 * the rows it answers only): any name found is later than it.
 */
export const UNNAMED: ProductName = { name: '', namedAt: Number.NEGATIVE_INFINITY, namedBy: '' };

/** The products report's cells added up into a row per product and currency, the latest name winning. */
class ProductTallies {
  private readonly rows = new Map<string, ProductTally>();

  constructor(private readonly compared: boolean) {}

  add(cell: ProductCell, period: 'current' | 'previous'): void {
    const id = `${cell.currency}\u0000${cell.product}`;
    let row = this.rows.get(id);
    if (row === undefined) {
      row = {
        product: cell.product,
        currency: cell.currency,
        name: { name: cell.name, namedAt: cell.namedAt, namedBy: cell.namedBy },
        current: zero(),
        previous: this.compared ? zero() : undefined,
      };
      this.rows.set(id, row);
    } else if (laterName(row.name, cell) === cell) row.name = { name: cell.name, namedAt: cell.namedAt, namedBy: cell.namedBy };
    addInto(period === 'current' ? row.current : row.previous!, cell);
  }

  get size(): number {
    return this.rows.size;
  }

  values(): IterableIterator<ProductTally> {
    return this.rows.values();
  }

  /** The units of the current period that no cost priced, and how many products (whatever the currency) they are. */
  uncosted(): UncostedSummary {
    let units = 0;
    const products = new Set<string>();
    for (const row of this.rows.values())
      if (row.current.uncostedUnits > 0) {
        units += row.current.uncostedUnits;
        products.add(row.product);
      }
    return { units, products: products.size };
  }
}

const metricOf = (totals: ProductTotals, sort: ProductMetricName): number =>
  sort === 'grossMarginCents' ? totals.paidRevenueCents - totals.productCostCents : totals[sort];

/** Descending by `metric`, then by product, then currency, by code point. */
const before =
  (metric: (row: ProductTally) => number) =>
  (a: ProductTally, b: ProductTally): boolean => {
    const order = metricBefore(metric(a), metric(b));
    if (order !== undefined) return order;
    const byProduct = compareCodePoints(a.product, b.product);
    return byProduct === 0 ? compareCodePoints(a.currency, b.currency) < 0 : byProduct < 0;
  };

/** Replaces, in place, the names of the rows a report answers, with the later of theirs and the store's. */
export type NameRows = (rows: readonly ProductTally[]) => void;

const namedRows = (rows: ProductTally[], nameRows: NameRows | undefined): ProductTally[] => {
  nameRows?.(rows);
  for (const row of rows) if (row.name.namedAt === UNNAMED.namedAt) throw new Error(`product ${row.product} has no name`);
  return rows;
};

const productRowOf = (row: ProductTally): ProductRow => ({
  product: row.product,
  currency: row.currency,
  name: row.name.name,
  ...productMetricsOf(row.current),
  ...(row.previous === undefined ? {} : { previous: productMetricsOf(row.previous) }),
});

const uncostedRowOf = (row: ProductTally): UncostedProduct => ({
  product: row.product,
  currency: row.currency,
  name: row.name.name,
  uncostedUnits: row.current.uncostedUnits,
});

/** How many items go between two looks at the clock: a look costs more than an item. */
const STRIDE = 256;

/**
 * The products report from its cells (decision 0020): a row per product and currency, named by its
 * latest order (of either period), the first `query.limit` by `query.sort` descending, then by product
 * and currency by code point. With `previous`, every row carries the previous period's figures, and a
 * product sold only then is a row with current figures of nothing. Stores that rank on the event
 * loop rank with it, in stretches; `rankProductsNow` does the same at once.
 */
export const rankProducts = async (
  cells: Iterable<ProductCell>,
  query: Pick<ProductQuery, 'sort' | 'limit'>,
  previous?: Iterable<ProductCell>,
): Promise<ProductReport> => {
  const slices = new EventLoopSlices();
  let done = 0;
  const paused = async (): Promise<void> => {
    if (++done % STRIDE === 0) await slices.pause();
  };
  const tallies = new ProductTallies(previous !== undefined);
  for (const cell of cells) {
    tallies.add(cell, 'current');
    await paused();
  }
  for (const cell of previous ?? []) {
    tallies.add(cell, 'previous');
    await paused();
  }
  const first = new FirstRows<ProductTally>(
    query.limit,
    before((row) => metricOf(row.current, query.sort)),
  );
  for (const row of tallies.values()) {
    first.offer(row);
    await paused();
  }
  return { rows: namedRows(first.inOrder(), undefined).map(productRowOf), totalRows: tallies.size, uncosted: tallies.uncosted() };
};

/**
 * `rankProducts` at once, for a store that ranks off the event loop (SQLite's report thread), with
 * `nameRows` to name the rows answered from what the cells left unnamed (UNNAMED), on the same
 * snapshot as the cells.
 */
export const rankProductsNow = (
  cells: Iterable<ProductCell>,
  query: Pick<ProductQuery, 'sort' | 'limit'>,
  previous?: Iterable<ProductCell>,
  nameRows?: NameRows,
): ProductReport => {
  const tallies = new ProductTallies(previous !== undefined);
  for (const cell of cells) tallies.add(cell, 'current');
  for (const cell of previous ?? []) tallies.add(cell, 'previous');
  const first = new FirstRows<ProductTally>(
    query.limit,
    before((row) => metricOf(row.current, query.sort)),
  );
  for (const row of tallies.values()) first.offer(row);
  return { rows: namedRows(first.inOrder(), nameRows).map(productRowOf), totalRows: tallies.size, uncosted: tallies.uncosted() };
};

const byUncostedUnits = before((row) => row.current.uncostedUnits);

/**
 * The products sold without a cost from the products report's cells (ReportReader.uncostedProducts):
 * the rows with `uncostedUnits`, the first `limit` by those units descending, then by product and
 * currency by code point, with the totals over all of them.
 */
export const rankUncosted = async (cells: Iterable<ProductCell>, limit: number): Promise<UncostedProducts> => {
  const slices = new EventLoopSlices();
  let done = 0;
  const tallies = new ProductTallies(false);
  for (const cell of cells) {
    tallies.add(cell, 'current');
    if (++done % STRIDE === 0) await slices.pause();
  }
  return firstUncosted(tallies, limit, undefined);
};

/** `rankUncosted` at once, with `nameRows` as `rankProductsNow` has it. */
export const rankUncostedNow = (cells: Iterable<ProductCell>, limit: number, nameRows?: NameRows): UncostedProducts => {
  const tallies = new ProductTallies(false);
  for (const cell of cells) tallies.add(cell, 'current');
  return firstUncosted(tallies, limit, nameRows);
};

/** The first `limit` products sold without a cost, most such units first, with how many there are in all. */
const firstUncosted = (tallies: ProductTallies, limit: number, nameRows: NameRows | undefined): UncostedProducts => {
  const first = new FirstRows<ProductTally>(limit, byUncostedUnits);
  let totalRows = 0;
  for (const row of tallies.values())
    if (row.current.uncostedUnits > 0) {
      totalRows += 1;
      first.offer(row);
    }
  return { rows: namedRows(first.inOrder(), nameRows).map(uncostedRowOf), totalRows, ...tallies.uncosted() };
};

/**
 * The products report of a store that reads a range's cells at a time: the range's, then the
 * previous range's when the query compares, ranked and cut.
 */
export const readProducts = async (
  query: ProductQuery,
  cellsOf: (range: Range) => Promise<readonly ProductCell[]>,
): Promise<ProductReport> => {
  const current = await cellsOf(query.range);
  return rankProducts(current, query, query.previous === undefined ? undefined : await cellsOf(query.previous.range));
};
