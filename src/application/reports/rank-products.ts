import { compareCodePoints } from '../../domain/code-point-order';
import {
  addProductTotals,
  laterName,
  productMetricsOf,
  ZERO_PRODUCT_TOTALS,
  type ProductMetricName,
  type ProductName,
  type ProductRow,
  type ProductTotals,
} from '../../domain/product-report';
import type { ProductCell, ProductQuery, ProductReport } from '../ports/report-reader';
import { EventLoopSlices } from '../shared/event-loop-slices';
import { FirstRows, metricBefore } from './first-rows';

interface Row {
  readonly product: string;
  readonly currency: string;
  name: ProductName;
  current: ProductTotals;
  previous: ProductTotals | undefined;
}

const before =
  (sort: ProductMetricName) =>
  (a: ProductRow, b: ProductRow): boolean => {
    const order = metricBefore(a[sort], b[sort]);
    if (order !== undefined) return order;
    const byProduct = compareCodePoints(a.product, b.product);
    return byProduct === 0 ? compareCodePoints(a.currency, b.currency) < 0 : byProduct < 0;
  };

/**
 * The products report from its cells (DECISIONS D20): a row per product and currency, named by its
 * latest order (of either period), the first `query.limit` by `query.sort` descending, then by product
 * and currency by code point. With `previous`, every row carries the previous period's figures, and a
 * product sold only then is a row with current figures of nothing. Every store ranks with it, in
 * stretches of the event loop wherever it runs.
 */
export const rankProducts = async (
  cells: Iterable<ProductCell>,
  query: Pick<ProductQuery, 'sort' | 'limit'>,
  previous?: Iterable<ProductCell>,
): Promise<ProductReport> => {
  const slices = new EventLoopSlices();
  const rows = new Map<string, Row>();
  const add = async (from: Iterable<ProductCell>, period: 'current' | 'previous'): Promise<void> => {
    for (const cell of from) {
      const { product, currency, name, namedAt, namedBy, ...totals } = cell;
      const id = `${currency}\u0000${product}`;
      let row = rows.get(id);
      if (row === undefined) {
        row = {
          product,
          currency,
          name: { name, namedAt, namedBy },
          current: ZERO_PRODUCT_TOTALS,
          previous: previous === undefined ? undefined : ZERO_PRODUCT_TOTALS,
        };
        rows.set(id, row);
      } else row.name = laterName(row.name, { name, namedAt, namedBy });
      if (period === 'current') row.current = addProductTotals(row.current, totals);
      else row.previous = addProductTotals(row.previous!, totals);
      await slices.pause();
    }
  };
  await add(cells, 'current');
  if (previous !== undefined) await add(previous, 'previous');
  const first = new FirstRows<ProductRow>(query.limit, before(query.sort));
  for (const row of rows.values()) {
    first.offer({
      product: row.product,
      currency: row.currency,
      name: row.name.name,
      ...productMetricsOf(row.current),
      ...(row.previous === undefined ? {} : { previous: productMetricsOf(row.previous) }),
    });
    await slices.pause();
  }
  return { rows: first.inOrder(), totalRows: rows.size };
};
