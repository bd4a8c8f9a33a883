import { NOT_SET } from '../../../domain/attribution';
import type { OrderStatus } from '../../../domain/order-status';
import { PRODUCT_FIELDS } from '../../../domain/product-cost';
import { productSharesOf } from '../../../domain/product-report';
import type { OrderRow } from '../orders/order-rows';
import { pricingOf } from './priced-rows';
import { NAME_COLUMNS, type Rollup } from './rollup-fold';
import { periodStart, periodStartSql, type Grain } from './rollup-periods';

/**
 * `report_products` (decision 0020): what the products report adds up, per dashboard, test flag,
 * currency and product, by UTC day and month: each order adds its product shares (productSharesOf), its paid lines priced as the
 * campaign rollups price them (rollup-costs.ts), and offers each product's row its name. A row keeps
 * the latest name it was offered, stale once its order has left the row (Rollup.named); the reader
 * finds a stale row's name again from its orders (sqlite-product-reads.ts).
 */

const KEY_COLUMNS = ['dashboard_id', 'grain', 'start', 'is_test', 'currency', 'product'];
const SUM_COLUMNS = ['orders', 'units', 'paid_units', 'paid_revenue_cents', 'product_cost_cents', 'uncosted_units'];

/** Before every instant an order can have: `created_at` plus this is never negative, so its digits sort as it does. */
const INSTANT_OFFSET = 8_640_000_000_000_000;

/** An order's latest-first rank as text, in SQL: its `created_at` (17 digits) then its id, as `laterName` compares them. */
export const latestSql = (at: string, id: string): string => `printf('%017d', ${at} + ${INSTANT_OFFSET}) || ${id}`;

/** A line's product in SQL over `json_each(...) AS l`: the first of `fields` the line has (productOfLine), else `(not set)`. */
const productSql = (fields: readonly string[]): string =>
  `coalesce(${fields.map((field) => `json_extract(l.value, '$.${field}')`).join(', ')}, '${NOT_SET}')`;

/**
 * Each order's share of each product it holds, in SQL (productSharesOf): a product on several lines
 * counts once, named by the first of them; SQL cannot price, so every paid unit is uncosted and
 * rollup-costs.ts prices the orders of the dashboards that have costs after a rebuild. `where`
 * narrows the orders (`o`).
 */
const sharesSql = (fields: readonly string[], where: string): string => `SELECT o.id, o.dashboard_id, o.is_test, o.currency, o.created_at,
      ${productSql(fields)} AS product,
      json_extract(l.value, '$.name') AS name, min(l.key) AS first_line,
      sum(json_extract(l.value, '$.quantity')) AS units,
      (o.status = 'paid') * sum(json_extract(l.value, '$.quantity')) AS paid_units,
      (o.status = 'paid') * sum(json_extract(l.value, '$.quantity') * json_extract(l.value, '$.unitPriceCents')) AS paid_revenue_cents
    FROM orders AS o, json_each(o.products) AS l${where} GROUP BY o.seq, product`;

const COLUMNS = [...KEY_COLUMNS, ...SUM_COLUMNS, ...NAME_COLUMNS].join(', ');

/** The rows of one grain from the orders: the name (a bare column) is that of the share with the greatest rank. */
const fromOrders = (grain: Grain, fields: readonly string[], where = ''): string => `SELECT ${COLUMNS} FROM (
    SELECT s.dashboard_id, '${grain}' AS grain, ${periodStartSql(grain, 's.created_at')} AS start, s.is_test, s.currency, s.product,
      count(*) AS orders, sum(s.units) AS units, sum(s.paid_units) AS paid_units, sum(s.paid_revenue_cents) AS paid_revenue_cents,
      0 AS product_cost_cents, sum(s.paid_units) AS uncosted_units,
      s.name AS name, s.created_at AS named_at, s.id AS named_by, 0 AS name_stale, max(${latestSql('s.created_at', 's.id')}) AS latest
    FROM (${sharesSql(fields, where)}) AS s GROUP BY 1, 3, 4, 5, 6)`;

/**
 * The SELECTs that make the table's rows of `grains` from the orders `where` keeps (SQL over `o`;
 * every order when absent), a line's product being the first of `fields` it has. Migrations give
 * their own grains and fields, as they were when the migration was made.
 */
export const productRowsFromOrders = (grains: readonly Grain[], fields: readonly string[], where?: string): string[] =>
  grains.map((grain) => fromOrders(grain, fields, where === undefined ? '' : ` WHERE ${where}`));

/**
 * The sums of money are `ANY`: a line may carry 1,000,000 units of 10^13 cents, beyond a 64-bit
 * integer, which SQLite then keeps as a double (exact up to 2^53, as every sum in JS) where an INTEGER
 * column of a STRICT table refuses the write.
 */
const MONEY_SUMS = new Set(['paid_revenue_cents', 'product_cost_cents']);

/** The table of `PRODUCT_ROLLUP`. */
export const CREATE_PRODUCT_ROLLUP = `CREATE TABLE report_products (
    dashboard_id TEXT NOT NULL, grain TEXT NOT NULL, start INTEGER NOT NULL, is_test INTEGER NOT NULL, currency TEXT NOT NULL, product TEXT NOT NULL,
    ${SUM_COLUMNS.map((c) => `${c} ${MONEY_SUMS.has(c) ? 'ANY' : 'INTEGER'} NOT NULL`).join(', ')},
    name TEXT, named_at INTEGER, named_by TEXT, name_stale INTEGER NOT NULL,
    PRIMARY KEY (${KEY_COLUMNS.join(', ')})
  ) STRICT, WITHOUT ROWID;`;

/**
 * The grains of the campaign rollups (day, month) and calendar years: an order adds a row per product
 * at each, mostly rows no other order of its group commit shares, so each grain costs the writes
 * (quarter hours and hours as well made writes about twice as slow); a report reads the less than a
 * day at each end of its range from the orders. A year's row stands for twelve months' (a product
 * sold every month is one row, not twelve) where a range covers the year, or where the rest of the
 * year holds no order yet (sqlite-product-reads.ts).
 */
export const PRODUCT_GRAINS: readonly Grain[] = ['d', 'm', 'y'];

const READS = ['id', 'dashboard_id', 'status', 'is_test', 'created_at', 'currency', 'products'];

const keyValue = (row: OrderRow, column: string): string | number => {
  const value = row[column];
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`orders.${column} is empty: it cannot key a rollup`);
  return value;
};

export const PRODUCT_ROLLUP: Rollup = {
  table: 'report_products',
  keyColumns: KEY_COLUMNS,
  sumColumns: SUM_COLUMNS,
  named: true,
  reads: READS,
  contribute: (row, add) => {
    const { lines, unitCostOf } = pricingOf(row);
    const at = keyValue(row, 'created_at') as number;
    const order = {
      id: keyValue(row, 'id') as string,
      status: row['status'] as OrderStatus,
      currency: keyValue(row, 'currency') as string,
    };
    const shares = productSharesOf({ ...order, createdAt: at, lines }, unitCostOf);
    const dashboard = keyValue(row, 'dashboard_id');
    const isTest = keyValue(row, 'is_test');
    for (const grain of PRODUCT_GRAINS) {
      const start = periodStart(grain, at);
      for (const share of shares) {
        const { totals } = share;
        add(
          [dashboard, grain, start, isTest, order.currency, share.product],
          [totals.orders, totals.units, totals.paidUnits, totals.paidRevenueCents, totals.productCostCents, totals.uncostedUnits],
          undefined,
          share,
        );
      }
    }
  },
  rebuild: productRowsFromOrders(PRODUCT_GRAINS, PRODUCT_FIELDS),
};
