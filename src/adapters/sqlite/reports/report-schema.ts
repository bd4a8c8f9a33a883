import type { OrderStatus } from '../../../domain/order-status';
import type { OrderRow } from '../orders/order-rows';
import { CREATE_PRODUCT_ROLLUP, latestSql, PRODUCT_ROLLUP, productRowsFromOrders } from './product-rollup';
import { NAME_COLUMNS, type KeyValue, type Rollup } from './rollup-fold';
import { GRAINS, periodStart, periodStartSql } from './rollup-periods';

/**
 * The rollups: tables of sums kept equal to a computation over `orders`, each declared once, in JS for
 * the fold of the group commit (rollup-fold.ts) and in SQL for the rebuild. Three projections of a
 * report's totals, each at the UTC grains that keep a year small:
 *
 * - `report_totals` (dashboard, test, currency) by quarter hour, hour, day and month: unfiltered
 *   timeseries in any time zone (every zone's days begin on a quarter hour), and the list's totals;
 * - `report_campaigns` (+ model, source, medium, campaign) by day and month;
 * - `report_keys` (+ content, term, platform, payment method) by day and month;
 *
 * and `order_counts` (dashboard, status), the list's total without dates. Each projection row holds the
 * count per status and the sums every metric needs. A change of an order takes from the rollups what
 * its stored row had added (each rollup's `reads`, read from that row) and adds what the new row adds:
 * exact whatever a replace changes, not only when attribution and amounts stay as they were.
 *
 * A new total column is a `MEASURES` entry (with a migration that adds it and sums it again); a new
 * table a `PROJECTIONS` entry or a `Rollup` in `ORDER_ROLLUPS` (as `report_products`, product-rollup.ts). Released migrations keep the SQL they
 * were generated with: `REPORTS_MIGRATION` reads the first projections and columns alone.
 */

/** What an order adds to one total column: in SQL over an `orders` alias (the rebuild), in JS over the row a write binds (the fold). */
interface Measure {
  readonly sql: (o: string) => string;
  readonly of: (row: OrderRow) => number;
  /** The columns of `orders` that `of` reads. */
  readonly reads: readonly string[];
}

const counted = (status: OrderStatus): Measure => ({
  sql: (o) => `(${o}.status = '${status}')`,
  of: (row) => (row.status === status ? 1 : 0),
  reads: ['status'],
});

const summed = (column: string, status?: OrderStatus): Measure =>
  status === undefined
    ? { sql: (o) => `${o}.${column}`, of: (row) => row[column] as number, reads: [column] }
    : {
        sql: (o) => `(CASE WHEN ${o}.status = '${status}' THEN ${o}.${column} ELSE 0 END)`,
        of: (row) => (row.status === status ? (row[column] as number) : 0),
        reads: [column, 'status'],
      };

/** The columns of `orders` the pricing of an order reads (rollup-costs.ts). */
export const PRICING_READS: readonly string[] = ['dashboard_id', 'status', 'created_at', 'currency', 'products'];

/** A cost sum of a row priced by rollup-costs.ts: a row that reaches the rollups unpriced is a bug that fails its write alone. */
const priced =
  (column: string): Measure['of'] =>
  (row) => {
    const value = row[column];
    if (typeof value !== 'number') throw new Error(`an order reached the rollups without its ${column}`);
    return value;
  };

/**
 * What an order's paid lines cost at today's product costs, and its units without one (decision 0020):
 * the fold reads them from the row rollup-costs.ts priced; SQL cannot price (a cost holds from a day
 * of the dashboard's time zone), so a rebuild sums every paid unit as uncosted and rollup-costs.ts
 * prices the orders of the dashboards that have costs after it.
 */
const COST_MEASURES = {
  product_cost_cents: { sql: () => '0', of: priced('product_cost_cents'), reads: PRICING_READS },
  uncosted_units: {
    sql: (o: string) =>
      `(CASE WHEN ${o}.status = 'paid' THEN (SELECT coalesce(sum(json_extract(value, '$.quantity')), 0) FROM json_each(${o}.products)) ELSE 0 END)`,
    of: priced('uncosted_units'),
    reads: PRICING_READS,
  },
} as const satisfies Readonly<Record<string, Measure>>;

export const MEASURES = {
  pending: counted('pending'),
  paid: counted('paid'),
  refused: counted('refused'),
  refunded: counted('refunded'),
  chargedback: counted('chargedback'),
  gross_cents: summed('gross_cents'),
  paid_gross_cents: summed('gross_cents', 'paid'),
  paid_net_cents: summed('net_to_seller_cents', 'paid'),
  refunded_cents: summed('gross_cents', 'refunded'),
  chargedback_cents: summed('gross_cents', 'chargedback'),
  ...COST_MEASURES,
} as const satisfies Readonly<Record<string, Measure>>;

export type TotalColumn = keyof typeof MEASURES;

export const TOTAL_COLUMNS = Object.keys(MEASURES) as readonly TotalColumn[];

interface Projection {
  readonly table: string;
  readonly grains: readonly (typeof GRAINS)[number][];
  /** The key columns of the table, and the order's column for each under each model. */
  readonly keys: readonly { readonly column: string; readonly last: string; readonly first: string }[];
  readonly modelled: boolean;
}

const CAMPAIGN_KEYS = [
  { column: 'utm_source', last: 'utm_source', first: 'first_source' },
  { column: 'utm_medium', last: 'utm_medium', first: 'first_medium' },
  { column: 'utm_campaign', last: 'utm_campaign', first: 'first_campaign' },
];

export const PROJECTIONS: readonly Projection[] = [
  { table: 'report_totals', grains: ['q', 'h', 'd', 'm'], keys: [], modelled: false },
  { table: 'report_campaigns', grains: ['d', 'm'], keys: CAMPAIGN_KEYS, modelled: true },
  {
    table: 'report_keys',
    grains: ['d', 'm'],
    keys: [
      ...CAMPAIGN_KEYS,
      { column: 'utm_content', last: 'last_content', first: 'first_content' },
      { column: 'utm_term', last: 'last_term', first: 'first_term' },
      { column: 'platform', last: 'platform', first: 'platform' },
      { column: 'payment_method', last: 'payment_method', first: 'payment_method' },
    ],
    modelled: true,
  },
];

const primaryKeyOf = (p: Projection): string[] => [
  'dashboard_id',
  'grain',
  'start',
  ...(p.modelled ? ['model'] : []),
  'is_test',
  'currency',
  ...p.keys.map((k) => k.column),
];

const modelsOf = (p: Projection): readonly ('l' | 'f' | undefined)[] => (p.modelled ? ['l', 'f'] : [undefined]);

/** Each (grain, model) row one order touches in a projection, as its key's values in SQL over `row`. */
const rowsOf = (p: Projection, row: string): string[][] =>
  p.grains.flatMap((grain) =>
    modelsOf(p).map((model) => [
      `${row}.dashboard_id`,
      `'${grain}'`,
      periodStartSql(grain, `${row}.created_at`),
      ...(model === undefined ? [] : [`'${model}'`]),
      `${row}.is_test`,
      `${row}.currency`,
      ...p.keys.map((k) => `${row}.${model === 'f' ? k.first : k.last}`),
    ]),
  );

/** A column of the row a write binds, as a key value: an empty one is a bug that fails its write alone. */
const keyValue = (row: OrderRow, column: string): KeyValue => {
  const value = row[column];
  if (value === null || value === undefined) throw new Error(`orders.${column} is empty: it cannot key a rollup`);
  return value;
};

/** The projection's rows from every order (those `where` keeps, SQL over `o`), one SELECT per (grain, model), over `columns`. */
const sumsOf = (p: Projection, columns: readonly TotalColumn[], where?: string): string[] =>
  rowsOf(p, 'o').map(
    (keys) =>
      `SELECT ${keys.join(', ')}, ${columns.map((c) => `sum(${MEASURES[c].sql('o')})`).join(', ')}
          FROM orders AS o${where === undefined ? '' : ` WHERE ${where}`} GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`,
  );

/** The columns of `orders` that a projection's keys read, under either model. */
const SOURCE_COLUMNS = [
  ...new Set(['dashboard_id', 'is_test', 'currency', ...PROJECTIONS.flatMap((p) => p.keys.flatMap((k) => [k.last, k.first]))]),
];

interface OrderFacts {
  readonly row: OrderRow;
  /** The start of the order's period at each grain. */
  readonly starts: Readonly<Record<(typeof GRAINS)[number], number>>;
  /** Every value a projection's keys are made of: orders of one signature add to the same rows. */
  readonly signature: string;
  readonly measures: readonly number[];
}

/** The facts of the row last asked for: every projection reads the same, so they are made once per order. */
let last: OrderFacts | undefined;
const factsOf = (row: OrderRow): OrderFacts => {
  if (last?.row === row) return last;
  const at = row['created_at'] as number;
  const starts = { q: periodStart('q', at), h: periodStart('h', at), d: periodStart('d', at), m: periodStart('m', at) };
  last = {
    row,
    starts,
    signature: JSON.stringify([...GRAINS.map((grain) => starts[grain]), ...SOURCE_COLUMNS.map((column) => row[column])]),
    measures: TOTAL_COLUMNS.map((column) => MEASURES[column].of(row)),
  };
  return last;
};

/** How many signatures a projection remembers the rows of before it starts afresh. */
const KNOWN_SIGNATURES = 4_096;

const projectionRollup = (p: Projection): Rollup => {
  const models = modelsOf(p);
  /** The rows of each signature, with their keys' text: the orders of a group commit mostly share them. */
  let known = new Map<string, { key: KeyValue[]; text: string }[]>();
  const rowsOf = ({ row, starts }: OrderFacts): { key: KeyValue[]; text: string }[] => {
    const common = [keyValue(row, 'is_test'), keyValue(row, 'currency')];
    const keys = models.map((model) => p.keys.map((k) => keyValue(row, model === 'f' ? k.first : k.last)));
    const dashboard = keyValue(row, 'dashboard_id');
    return p.grains.flatMap((grain) =>
      models.map((model, m) => {
        const key = [dashboard, grain, starts[grain], ...(model === undefined ? [] : [model]), ...common, ...keys[m]];
        return { key, text: JSON.stringify(key) };
      }),
    );
  };
  return {
    table: p.table,
    keyColumns: primaryKeyOf(p),
    sumColumns: TOTAL_COLUMNS,
    reads: [...SOURCE_COLUMNS, 'created_at', ...TOTAL_COLUMNS.flatMap((column) => MEASURES[column].reads)],
    contribute: (row, add) => {
      const facts = factsOf(row);
      let rows = known.get(facts.signature);
      if (rows === undefined) {
        rows = rowsOf(facts);
        if (known.size >= KNOWN_SIGNATURES) known = new Map();
        known.set(facts.signature, rows);
      }
      for (const { key, text } of rows) add(key, facts.measures, text);
    },
    rebuild: sumsOf(p, TOTAL_COLUMNS),
  };
};

const ONE = [1] as const;

/** How many orders each dashboard has in each status: the list's `total` without dates. */
const STATUS_COUNTS: Rollup = {
  table: 'order_counts',
  keyColumns: ['dashboard_id', 'status'],
  sumColumns: ['orders'],
  reads: ['dashboard_id', 'status'],
  contribute: (row, add) => add([keyValue(row, 'dashboard_id'), keyValue(row, 'status')], ONE),
  rebuild: ['SELECT o.dashboard_id, o.status, count(*) FROM orders AS o GROUP BY 1, 2'],
};

/** Every rollup the writes of orders keep (rollup-fold.ts). */
export const ORDER_ROLLUPS: readonly Rollup[] = [...PROJECTIONS.map(projectionRollup), STATUS_COUNTS, PRODUCT_ROLLUP];

/** Each rollup emptied and summed again from `orders`, in the order given: `reports rebuild`, and migrations that add to them. */
export const rebuildStatements = (rollups: readonly Rollup[] = ORDER_ROLLUPS): string[] =>
  rollups.flatMap((r) => [
    `DELETE FROM ${r.table};`,
    ...r.rebuild.map(
      (select) => `INSERT INTO ${r.table} (${[...r.keyColumns, ...r.sumColumns, ...(r.named === true ? NAME_COLUMNS : [])].join(', ')})
          ${select};`,
    ),
  ]);

/**
 * Drops the triggers that kept the rollups before the group commit did (rollup-fold.ts): from this
 * migration on, a write of `orders` that does not go through the order repository leaves them behind
 * until `reports rebuild`.
 */
export const ROLLUPS_IN_GROUP_COMMIT_MIGRATION = `
  DROP TRIGGER report_on_insert;
  DROP TRIGGER report_on_status;
  DROP TRIGGER report_on_delete;
  DROP TRIGGER order_counts_on_insert;
  DROP TRIGGER order_counts_on_status;
  DROP TRIGGER order_counts_on_delete;
`;

// ---- Migration 4 (decision 0016), as released: generated from the first three projections and ten columns.

const RELEASED_PROJECTIONS = PROJECTIONS.slice(0, 3);
const RELEASED_COLUMNS = TOTAL_COLUMNS.slice(0, 10);

const createTable = (p: Projection): string =>
  `CREATE TABLE ${p.table} (
    dashboard_id TEXT NOT NULL, grain TEXT NOT NULL, start INTEGER NOT NULL, ${p.modelled ? 'model TEXT NOT NULL, ' : ''}is_test INTEGER NOT NULL, currency TEXT NOT NULL,
    ${p.keys.map((k) => `${k.column} TEXT NOT NULL, `).join('')}${RELEASED_COLUMNS.map((c) => `${c} INTEGER NOT NULL`).join(', ')},
    PRIMARY KEY (${primaryKeyOf(p).join(', ')})
  ) STRICT, WITHOUT ROWID;`;

const upsertNew = (p: Projection): string => {
  const rows = rowsOf(p, 'NEW').map((key) => `(${[...key, ...RELEASED_COLUMNS.map((c) => MEASURES[c].sql('NEW'))].join(', ')})`);
  return `INSERT INTO ${p.table} (${[...primaryKeyOf(p), ...RELEASED_COLUMNS].join(', ')}) VALUES ${rows.join(', ')}
      ON CONFLICT (${primaryKeyOf(p).join(', ')}) DO UPDATE SET ${RELEASED_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};`;
};

/** Adds the contribution of `plus` and takes that of `minus` from each row the order touches (keyed by `keyRow`). */
const shift = (p: Projection, plus: string | undefined, minus: string | undefined, keyRow: string): string[] => {
  const columns = primaryKeyOf(p);
  return rowsOf(p, keyRow).map(
    (key) =>
      `UPDATE ${p.table} SET ${RELEASED_COLUMNS.map((c) => `${c} = ${c}${plus === undefined ? '' : ` + ${MEASURES[c].sql(plus)}`}${minus === undefined ? '' : ` - ${MEASURES[c].sql(minus)}`}`).join(', ')}
      WHERE ${columns.map((column, i) => `${column} = ${key[i]}`).join(' AND ')};`,
  );
};

const triggers = (): string =>
  `CREATE TRIGGER report_on_insert AFTER INSERT ON orders BEGIN
    ${RELEASED_PROJECTIONS.map(upsertNew).join('\n    ')}
  END;
  CREATE TRIGGER report_on_status AFTER UPDATE OF status ON orders WHEN OLD.status IS NOT NEW.status BEGIN
    ${RELEASED_PROJECTIONS.flatMap((p) => shift(p, 'NEW', 'OLD', 'NEW')).join('\n    ')}
  END;
  CREATE TRIGGER report_on_delete AFTER DELETE ON orders BEGIN
    ${RELEASED_PROJECTIONS.flatMap((p) => shift(p, undefined, 'OLD', 'OLD')).join('\n    ')}
  END;`;

/** The backfill of migration 4: the released projections, over the released columns. */
const releasedRebuild = (): string[] =>
  rebuildStatements(
    RELEASED_PROJECTIONS.map((p) => ({ ...projectionRollup(p), sumColumns: RELEASED_COLUMNS, rebuild: sumsOf(p, RELEASED_COLUMNS) })),
  );

/** Keeps `spend_months` and `spend_days` equal to the sums of `spend`, in each write's transaction. */
export const spendTriggers = (): string => {
  const add = (row: 'NEW' | 'OLD', sign: '+' | '-') => `
    INSERT INTO spend_months (dashboard_id, month, utm_source, utm_medium, utm_campaign, utm_content, currency, amount_cents)
      VALUES (${row}.dashboard_id, substr(${row}.date, 1, 7), ${row}.utm_source, ${row}.utm_medium, ${row}.utm_campaign, ${row}.utm_content, ${row}.currency, ${sign}${row}.amount_cents)
      ON CONFLICT (dashboard_id, month, utm_source, utm_medium, utm_campaign, utm_content, currency) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents;
    INSERT INTO spend_days (dashboard_id, date, currency, amount_cents) VALUES (${row}.dashboard_id, ${row}.date, ${row}.currency, ${sign}${row}.amount_cents)
      ON CONFLICT (dashboard_id, date, currency) DO UPDATE SET amount_cents = amount_cents + excluded.amount_cents;`;
  return `CREATE TRIGGER spend_on_insert AFTER INSERT ON spend BEGIN ${add('NEW', '+')}
  END;
  CREATE TRIGGER spend_on_update AFTER UPDATE OF amount_cents ON spend BEGIN ${add('OLD', '-')} ${add('NEW', '+')}
  END;
  CREATE TRIGGER spend_on_delete AFTER DELETE ON spend BEGIN ${add('OLD', '-')}
  END;`;
};

/** The columns an order gains for reports, resolved from its tracking when it is written. */
const ATTRIBUTION_COLUMNS = ['last_content', 'last_term', 'first_source', 'first_medium', 'first_campaign', 'first_content', 'first_term'];

const textAt = (path: string): string =>
  `(CASE WHEN json_type(tracking_extras, '${path}') = 'text' THEN json_extract(tracking_extras, '${path}') END)`;

/** The migration of decision 0016: dashboards' time zones, the new tracking fields, attribution, totals and spend. */
export const REPORTS_MIGRATION = `
  ALTER TABLE dashboards ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';

  ALTER TABLE orders ADD COLUMN utm_content TEXT;
  ALTER TABLE orders ADD COLUMN utm_term TEXT;
  ALTER TABLE orders ADD COLUMN utm_id TEXT;
  ${ATTRIBUTION_COLUMNS.map((c) => `ALTER TABLE orders ADD COLUMN ${c} TEXT NOT NULL DEFAULT '(not set)';`).join('\n  ')}
  UPDATE orders SET
    last_content = coalesce(${textAt('$.utmContent')}, '(not set)'),
    last_term = coalesce(${textAt('$.utmTerm')}, '(not set)'),
    first_source = CASE WHEN json_type(tracking_extras, '$.firstTouch') = 'object' THEN coalesce(${textAt('$.firstTouch.utmSource')}, '(not set)') ELSE utm_source END,
    first_medium = CASE WHEN json_type(tracking_extras, '$.firstTouch') = 'object' THEN coalesce(${textAt('$.firstTouch.utmMedium')}, '(not set)') ELSE utm_medium END,
    first_campaign = CASE WHEN json_type(tracking_extras, '$.firstTouch') = 'object' THEN coalesce(${textAt('$.firstTouch.utmCampaign')}, '(not set)') ELSE utm_campaign END,
    first_content = CASE WHEN json_type(tracking_extras, '$.firstTouch') = 'object' THEN coalesce(${textAt('$.firstTouch.utmContent')}, '(not set)') ELSE coalesce(${textAt('$.utmContent')}, '(not set)') END,
    first_term = CASE WHEN json_type(tracking_extras, '$.firstTouch') = 'object' THEN coalesce(${textAt('$.firstTouch.utmTerm')}, '(not set)') ELSE coalesce(${textAt('$.utmTerm')}, '(not set)') END;

  ${RELEASED_PROJECTIONS.map(createTable).join('\n  ')}
  ${triggers()}
  ${releasedRebuild().join('\n  ')}

  -- Ad spend: one amount per day (of the dashboard's time zone) and key, set by each upload; its sums
  -- per month and key (what a breakdown reads) and per day (a timeseries) kept by triggers.
  CREATE TABLE spend (
    dashboard_id TEXT NOT NULL, date TEXT NOT NULL, utm_source TEXT NOT NULL, utm_medium TEXT NOT NULL,
    utm_campaign TEXT NOT NULL, utm_content TEXT NOT NULL, currency TEXT NOT NULL, amount_cents INTEGER NOT NULL,
    PRIMARY KEY (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE spend_months (
    dashboard_id TEXT NOT NULL, month TEXT NOT NULL, utm_source TEXT NOT NULL, utm_medium TEXT NOT NULL,
    utm_campaign TEXT NOT NULL, utm_content TEXT NOT NULL, currency TEXT NOT NULL, amount_cents INTEGER NOT NULL,
    PRIMARY KEY (dashboard_id, month, utm_source, utm_medium, utm_campaign, utm_content, currency)
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE spend_days (
    dashboard_id TEXT NOT NULL, date TEXT NOT NULL, currency TEXT NOT NULL, amount_cents INTEGER NOT NULL,
    PRIMARY KEY (dashboard_id, date, currency)
  ) STRICT, WITHOUT ROWID;
  ${spendTriggers()}
`;

// ---- The migration of the costs kept in the rollups (decision 0020), generated from the first three projections and twelve columns.

const COSTED_COLUMNS = TOTAL_COLUMNS.slice(0, 12);

/**
 * Adds the cost sums to the three projections and sums them again from the orders (every paid unit
 * uncosted, as SQL cannot price), and makes the table of re-pricing jobs (rollup-costs.ts) with a job
 * for each dashboard that already has product costs: from unpriced (no entry for any of its products
 * and currencies) to its costs, which the service runs once it has opened the file.
 */
export const COSTS_IN_ROLLUPS_MIGRATION = `
  ${RELEASED_PROJECTIONS.flatMap((p) => [
    `ALTER TABLE ${p.table} ADD COLUMN product_cost_cents INTEGER NOT NULL DEFAULT 0;`,
    `ALTER TABLE ${p.table} ADD COLUMN uncosted_units INTEGER NOT NULL DEFAULT 0;`,
  ]).join('\n  ')}
  ${rebuildStatements(
    RELEASED_PROJECTIONS.map((p) => ({ ...projectionRollup(p), sumColumns: COSTED_COLUMNS, rebuild: sumsOf(p, COSTED_COLUMNS) })),
  ).join('\n  ')}
  -- AUTOINCREMENT: a job's id is never given to another (processes remember a job's prices by its id).
  CREATE TABLE reprice_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dashboard_id TEXT NOT NULL,
    from_at INTEGER NOT NULL,
    max_seq INTEGER NOT NULL,
    done_seq INTEGER NOT NULL,
    zone TEXT NOT NULL,
    pairs TEXT NOT NULL
  ) STRICT;
  CREATE INDEX reprice_jobs_of_dashboard ON reprice_jobs (dashboard_id, id);
  INSERT INTO reprice_jobs (dashboard_id, from_at, max_seq, done_seq, zone, pairs)
    SELECT c.dashboard_id, -8640000000000000, coalesce((SELECT max(seq) FROM orders), 0), 0, 'UTC',
      json_group_array(json_object('product', c.product, 'currency', c.currency, 'entries', json('[]')))
    FROM (SELECT DISTINCT dashboard_id, product, currency FROM product_costs) AS c
    GROUP BY c.dashboard_id;
`;

// ---- The products rollup (decision 0020), generated from the first three projections, twelve columns and the products rollup.

/**
 * Makes `report_products` and sums every rollup that holds costs again from the orders (every paid
 * unit uncosted), then, as COSTS_IN_ROLLUPS_MIGRATION does, replaces the re-pricing jobs with one per
 * dashboard that has product costs, from unpriced to its costs: one job moves each order in the
 * campaign rollups and the products rollup alike, so they must start from the same prices.
 */
export const PRODUCTS_ROLLUP_MIGRATION = `
  ${CREATE_PRODUCT_ROLLUP}
  ${rebuildStatements([
    ...RELEASED_PROJECTIONS.map((p) => ({ ...projectionRollup(p), sumColumns: COSTED_COLUMNS, rebuild: sumsOf(p, COSTED_COLUMNS) })),
    { ...PRODUCT_ROLLUP, rebuild: productRowsFromOrders(['d', 'm'], ['externalId', 'sku']) },
  ]).join('\n  ')}
  DELETE FROM reprice_jobs;
  INSERT INTO reprice_jobs (dashboard_id, from_at, max_seq, done_seq, zone, pairs)
    SELECT c.dashboard_id, -8640000000000000, coalesce((SELECT max(seq) FROM orders), 0), 0, 'UTC',
      json_group_array(json_object('product', c.product, 'currency', c.currency, 'entries', json('[]')))
    FROM (SELECT DISTINCT dashboard_id, product, currency FROM product_costs) AS c
    GROUP BY c.dashboard_id;
`;

// ---- One product per SKU, and calendar years in the products rollup (generated from the first three projections, twelve columns and the products rollup).

/** The dashboards of the file some of whose order lines have a SKU and another externalId: the lines whose product changes. */
const SKU_DASHBOARDS = 'temp.sku_dashboards';

const PRODUCT_SUMS = ['orders', 'units', 'paid_units', 'paid_revenue_cents', 'product_cost_cents', 'uncosted_units'];

/**
 * Calendar years in `report_products`, summed from its months as they stand (their prices too, so
 * nothing is re-priced): each year row takes the latest name of its months, stale when that month's
 * is (a stale name is only looked up again, never trusted).
 */
const yearsFromMonths = `INSERT INTO report_products (dashboard_id, grain, start, is_test, currency, product, ${PRODUCT_SUMS.join(', ')}, ${NAME_COLUMNS.join(', ')})
    SELECT dashboard_id, grain, start, is_test, currency, product, ${PRODUCT_SUMS.join(', ')}, ${NAME_COLUMNS.join(', ')} FROM (
      SELECT dashboard_id, 'y' AS grain, ${periodStartSql('y', 'start')} AS start, is_test, currency, product,
        ${PRODUCT_SUMS.map((c) => `sum(${c}) AS ${c}`).join(', ')}, ${NAME_COLUMNS.join(', ')}, max(${latestSql('named_at', 'named_by')}) AS latest
      FROM report_products WHERE grain = 'm' GROUP BY dashboard_id, 3, is_test, currency, product);`;

/** Only the orders of the dashboards in SKU_DASHBOARDS (`costed`: those that have product costs). */
const ofSkuDashboards = (costed: boolean): string =>
  `o.dashboard_id IN (SELECT dashboard_id FROM ${SKU_DASHBOARDS}${costed ? ' WHERE costed' : ''})`;

/**
 * A line's product becomes its SKU, else its externalId (it was its externalId, else its SKU), and
 * the products rollup gains calendar years. Only the dashboards with lines that have both, and
 * different, change: their `report_products` is summed again from their orders; for those that have
 * product costs, whose lines' prices may change too (a cost under the SKU now prices a line that its
 * externalId's cost priced), the campaign rollups are summed again as well, every paid unit uncosted,
 * and their re-pricing jobs replaced by one from unpriced to their costs, as PRODUCTS_ROLLUP_MIGRATION
 * does for every dashboard. Costs stored under an externalId keep pricing its lines (unitCostOfLine).
 */
export const PRODUCTS_BY_SKU_MIGRATION = `
  ${yearsFromMonths}
  CREATE TEMP TABLE sku_dashboards AS
    SELECT o.dashboard_id AS dashboard_id, EXISTS (SELECT 1 FROM product_costs AS c WHERE c.dashboard_id = o.dashboard_id) AS costed
    FROM orders AS o
    WHERE o.products LIKE '%"sku"%' AND EXISTS (
      SELECT 1 FROM json_each(o.products) AS l
      WHERE json_extract(l.value, '$.externalId') <> json_extract(l.value, '$.sku'))
    GROUP BY o.dashboard_id;
  DELETE FROM report_products WHERE dashboard_id IN (SELECT dashboard_id FROM ${SKU_DASHBOARDS});
  ${RELEASED_PROJECTIONS.map(
    (p) => `DELETE FROM ${p.table} WHERE dashboard_id IN (SELECT dashboard_id FROM ${SKU_DASHBOARDS} WHERE costed);`,
  ).join('\n  ')}
  ${[
    ...RELEASED_PROJECTIONS.map((p) => ({
      ...projectionRollup(p),
      sumColumns: COSTED_COLUMNS,
      rebuild: sumsOf(p, COSTED_COLUMNS, ofSkuDashboards(true)),
    })),
    { ...PRODUCT_ROLLUP, rebuild: productRowsFromOrders(['d', 'm', 'y'], ['sku', 'externalId'], ofSkuDashboards(false)) },
  ]
    .flatMap((r) =>
      r.rebuild.map(
        (select) =>
          `INSERT INTO ${r.table} (${[...r.keyColumns, ...r.sumColumns, ...(r.named === true ? NAME_COLUMNS : [])].join(', ')}) ${select};`,
      ),
    )
    .join('\n  ')}
  DELETE FROM reprice_jobs WHERE dashboard_id IN (SELECT dashboard_id FROM ${SKU_DASHBOARDS} WHERE costed);
  INSERT INTO reprice_jobs (dashboard_id, from_at, max_seq, done_seq, zone, pairs)
    SELECT c.dashboard_id, -8640000000000000, coalesce((SELECT max(seq) FROM orders), 0), 0, 'UTC',
      json_group_array(json_object('product', c.product, 'currency', c.currency, 'entries', json('[]')))
    FROM (SELECT DISTINCT dashboard_id, product, currency FROM product_costs
          WHERE dashboard_id IN (SELECT dashboard_id FROM ${SKU_DASHBOARDS} WHERE costed)) AS c
    GROUP BY c.dashboard_id;
  DROP TABLE ${SKU_DASHBOARDS};
`;
