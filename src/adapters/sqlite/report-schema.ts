/**
 * The tables that keep a report's totals in step with the orders (DECISIONS D16), and the triggers
 * that keep them so in each write's own transaction. Three projections, each at the UTC grains that
 * keep a year small:
 *
 * - `report_totals` (dashboard, test, currency) by quarter hour, hour, day and month: unfiltered
 *   timeseries in any time zone (every zone's days begin on a quarter hour), and the list's totals;
 * - `report_campaigns` (+ model, source, medium, campaign) by day and month;
 * - `report_keys` (+ content, term, platform, payment method) by day and month.
 *
 * Each row holds the count per status and the sums every metric needs. An order's attribution and
 * amounts never change, so a change of status moves the order between the columns of the same rows.
 * The SQL is generated here once; a released migration that contains it is never edited.
 */

export const TOTAL_COLUMNS = [
  'pending',
  'paid',
  'refused',
  'refunded',
  'chargedback',
  'gross_cents',
  'paid_gross_cents',
  'paid_net_cents',
  'refunded_cents',
  'chargedback_cents',
] as const;

/** A trigger's `NEW` or `OLD`, or a table alias. */
type Row = string;

const contribution = (row: Row): Record<(typeof TOTAL_COLUMNS)[number], string> => ({
  pending: `(${row}.status = 'pending')`,
  paid: `(${row}.status = 'paid')`,
  refused: `(${row}.status = 'refused')`,
  refunded: `(${row}.status = 'refunded')`,
  chargedback: `(${row}.status = 'chargedback')`,
  gross_cents: `${row}.gross_cents`,
  paid_gross_cents: `(CASE WHEN ${row}.status = 'paid' THEN ${row}.gross_cents ELSE 0 END)`,
  paid_net_cents: `(CASE WHEN ${row}.status = 'paid' THEN ${row}.net_to_seller_cents ELSE 0 END)`,
  refunded_cents: `(CASE WHEN ${row}.status = 'refunded' THEN ${row}.gross_cents ELSE 0 END)`,
  chargedback_cents: `(CASE WHEN ${row}.status = 'chargedback' THEN ${row}.gross_cents ELSE 0 END)`,
});

/** The start of an order's period, in SQL over a `created_at` expression (UTC milliseconds). */
export const periodStartSql = (grain: 'q' | 'h' | 'd' | 'm', at: string): string =>
  grain === 'm'
    ? `(CAST(strftime('%s', ${at} / 1000, 'unixepoch', 'start of month') AS INTEGER) * 1000)`
    : `(${at} - ${at} % ${{ q: 900_000, h: 3_600_000, d: 86_400_000 }[grain]})`;

interface Projection {
  readonly table: string;
  readonly grains: readonly ('q' | 'h' | 'd' | 'm')[];
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

/** Each (grain, model) row one order touches in a projection, as its key's values. */
const rowsOf = (p: Projection, row: Row): string[][] =>
  p.grains.flatMap((grain) =>
    (p.modelled ? (['l', 'f'] as const) : ([undefined] as const)).map((model) => [
      `${row}.dashboard_id`,
      `'${grain}'`,
      periodStartSql(grain, `${row}.created_at`),
      ...(model === undefined ? [] : [`'${model}'`]),
      `${row}.is_test`,
      `${row}.currency`,
      ...p.keys.map((k) => `${row}.${model === 'f' ? k.first : k.last}`),
    ]),
  );

const createTable = (p: Projection): string =>
  `CREATE TABLE ${p.table} (
    dashboard_id TEXT NOT NULL, grain TEXT NOT NULL, start INTEGER NOT NULL, ${p.modelled ? 'model TEXT NOT NULL, ' : ''}is_test INTEGER NOT NULL, currency TEXT NOT NULL,
    ${p.keys.map((k) => `${k.column} TEXT NOT NULL, `).join('')}${TOTAL_COLUMNS.map((c) => `${c} INTEGER NOT NULL`).join(', ')},
    PRIMARY KEY (${primaryKeyOf(p).join(', ')})
  ) STRICT, WITHOUT ROWID;`;

const upsertNew = (p: Projection): string => {
  const values = contribution('NEW');
  const rows = rowsOf(p, 'NEW').map((key) => `(${[...key, ...TOTAL_COLUMNS.map((c) => values[c])].join(', ')})`);
  return `INSERT INTO ${p.table} (${[...primaryKeyOf(p), ...TOTAL_COLUMNS].join(', ')}) VALUES ${rows.join(', ')}
      ON CONFLICT (${primaryKeyOf(p).join(', ')}) DO UPDATE SET ${TOTAL_COLUMNS.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};`;
};

/** Adds the contribution of `plus` and takes that of `minus` from each row the order touches (keyed by `keyRow`). */
const shift = (p: Projection, plus: Row | undefined, minus: Row | undefined, keyRow: Row): string[] => {
  const add = plus === undefined ? undefined : contribution(plus);
  const sub = minus === undefined ? undefined : contribution(minus);
  const columns = primaryKeyOf(p);
  return rowsOf(p, keyRow).map(
    (key) =>
      `UPDATE ${p.table} SET ${TOTAL_COLUMNS.map((c) => `${c} = ${c}${add === undefined ? '' : ` + ${add[c]}`}${sub === undefined ? '' : ` - ${sub[c]}`}`).join(', ')}
      WHERE ${columns.map((column, i) => `${column} = ${key[i]}`).join(' AND ')};`,
  );
};

const triggers = (): string =>
  `CREATE TRIGGER report_on_insert AFTER INSERT ON orders BEGIN
    ${PROJECTIONS.map(upsertNew).join('\n    ')}
  END;
  CREATE TRIGGER report_on_status AFTER UPDATE OF status ON orders WHEN OLD.status IS NOT NEW.status BEGIN
    ${PROJECTIONS.flatMap((p) => shift(p, 'NEW', 'OLD', 'NEW')).join('\n    ')}
  END;
  CREATE TRIGGER report_on_delete AFTER DELETE ON orders BEGIN
    ${PROJECTIONS.flatMap((p) => shift(p, undefined, 'OLD', 'OLD')).join('\n    ')}
  END;`;

/** Totals of every order, projection by projection: the backfill of the migration and `reports rebuild`. */
export const rebuildStatements = (): string[] =>
  PROJECTIONS.flatMap((p) => {
    const sums = contribution('o');
    const parts = p.grains.flatMap((grain) =>
      (p.modelled ? (['l', 'f'] as const) : ([undefined] as const)).map((model) => {
        const keys = [
          'o.dashboard_id',
          `'${grain}'`,
          periodStartSql(grain, 'o.created_at'),
          ...(model === undefined ? [] : [`'${model}'`]),
          'o.is_test',
          'o.currency',
          ...p.keys.map((k) => `o.${model === 'f' ? k.first : k.last}`),
        ];
        return `INSERT INTO ${p.table} (${[...primaryKeyOf(p), ...TOTAL_COLUMNS].join(', ')})
          SELECT ${keys.join(', ')}, ${TOTAL_COLUMNS.map((c) => `sum(${sums[c]})`).join(', ')}
          FROM orders AS o GROUP BY ${keys.map((_, i) => i + 1).join(', ')};`;
      }),
    );
    return [`DELETE FROM ${p.table};`, ...parts];
  });

/** Keeps `spend_months` and `spend_days` equal to the sums of `spend`, in each write's transaction. */
const spendTriggers = (): string => {
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

/** The migration of DECISIONS D16: dashboards' time zones, the new tracking fields, attribution, totals and spend. */
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

  ${PROJECTIONS.map(createTable).join('\n  ')}
  ${triggers()}
  ${rebuildStatements().join('\n  ')}

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
