import type { OrderQuery } from '../../../application/ports/order-repository';
import { SUMMARY_COLUMNS } from './order-rows';

/** Which filters a listing has: each combination is its own pair of statements, prepared once. */
export interface ListingShape {
  readonly status: boolean;
  readonly from: boolean;
  readonly to: boolean;
}

export interface ListingSql {
  /** One page, newest first; binds dashboardId, the filters, limit and offset. */
  readonly page: string;
  /** `total`; binds dashboardId and the filters. */
  readonly count: string;
}

export const shapeOf = (query: OrderQuery): ListingShape => ({
  status: query.status !== undefined,
  from: query.from !== undefined,
  to: query.to !== undefined,
});

export const keyOfShape = (shape: ListingShape): string => `${+shape.status}${+shape.from}${+shape.to}`;

/** The index a listing walks: the one with the status when it filters by status. */
const indexOf = (shape: ListingShape): string => (shape.status ? 'orders_by_status_newest_first' : 'orders_newest_first');

/** The conditions of a listing's shape, each bound by name (`listingParams`). */
const filtersOf = (shape: ListingShape): string[] => [
  'dashboard_id = @dashboardId',
  ...(shape.status ? ['status = @status'] : []),
  ...(shape.from ? ['created_at >= @from'] : []),
  ...(shape.to ? ['created_at <= @to'] : []),
];

/**
 * The statements of a listing: the summary's columns only, walked in the order of
 * `orders_by_status_newest_first` or `orders_newest_first`, so no sort and no scan of other dashboards.
 * The index is named (INDEXED BY) because the planner, given both dates, takes the one without the
 * status and filters row by row; named, a statement that cannot use it fails to prepare instead of
 * running slowly. The total without dates is read from `order_counts`, which the group commit keeps
 * (rollup-fold.ts).
 * test/adapters/sqlite/sqlite-query-plans.test.ts holds the plans to this.
 */
export const listingSql = (shape: ListingShape): ListingSql => {
  const index = indexOf(shape);
  const where = filtersOf(shape).join(' AND ');
  const page = `SELECT ${SUMMARY_COLUMNS.join(', ')} FROM orders INDEXED BY ${index} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`;
  const count =
    shape.from || shape.to
      ? `SELECT count(*) AS total FROM orders INDEXED BY ${index} WHERE ${where}`
      : `SELECT coalesce(sum(orders), 0) AS total FROM order_counts WHERE dashboard_id = @dashboardId${shape.status ? ' AND status = @status' : ''}`;
  return { page, count };
};

/**
 * A keyset page (decision 0019): the same index and order as `listingSql`, starting after a position
 * given as a row value, `(created_at, id) < (@afterCreatedAt, @afterId)`, which SQLite seeks to on the
 * index: any depth costs what the first page does.
 */
export const keysetSql = (shape: ListingShape, positioned: boolean): string => {
  const where = [...filtersOf(shape), ...(positioned ? ['(created_at, id) < (@afterCreatedAt, @afterId)'] : [])].join(' AND ');
  return `SELECT ${SUMMARY_COLUMNS.join(', ')} FROM orders INDEXED BY ${indexOf(shape)} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit`;
};

/** The values the statements of `listingSql(shapeOf(query))` bind. */
export const listingParams = (dashboardId: string, query: OrderQuery) => ({
  filters: {
    dashboardId,
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.from === undefined ? {} : { from: query.from.getTime() }),
    ...(query.to === undefined ? {} : { to: query.to.getTime() }),
  },
  limit: query.pageSize,
  offset: (query.page - 1) * query.pageSize,
});
