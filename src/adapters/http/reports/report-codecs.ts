import * as t from 'io-ts';
import { ATTRIBUTION_MODELS, REPORT_DIMENSIONS, UTM_DIMENSIONS, type ReportDimension } from '../../../domain/attribution';
import { PRODUCT_METRICS } from '../../../domain/product-report';
import { COMPARISONS, METRICS } from '../../../domain/report';
import { isTimeZone, REPORT_INTERVALS, TIME_ZONES } from '../../../domain/time-zone';
import { check, defaulted, int, nullable, oneOf, str, strictObject } from '../kit/codec-kit';
import { queryInstant } from '../kit/dates';
import { described, Documented } from '../kit/json-schema';
import { intParam, QUERY_INSTANT_NOTE, single } from '../kit/list-query';
import { currency } from '../orders/order-codecs';

/** Reports of decision 0016: what a caller asks, and what it is answered. */

export const MAX_BREAKDOWN_ROWS = 1_000;
export const MAX_BY = 3;

const dimensionPattern = `(?:${REPORT_DIMENSIONS.join('|')})`;

/** `by`: 1 to 3 distinct dimensions, comma-separated (`utmSource,utmCampaign`). */
const byDimensions = new Documented<readonly ReportDimension[], string>(
  'ReportBy',
  (u): u is readonly ReportDimension[] => Array.isArray(u),
  (u, c) => {
    const parts = typeof u === 'string' ? u.split(',') : [];
    const known = parts.every((p) => (REPORT_DIMENSIONS as readonly string[]).includes(p));
    if (!known || parts.length < 1 || parts.length > MAX_BY)
      return t.failure(u, c, `must be 1 to ${MAX_BY} of ${REPORT_DIMENSIONS.join(', ')}, comma-separated`);
    if (new Set(parts).size !== parts.length) return t.failure(u, c, 'must not name a dimension twice');
    return t.success(parts as ReportDimension[]);
  },
  (dims) => dims.join(','),
  () => ({
    type: 'string',
    // The lookahead refuses a dimension named twice: a later item equal to an earlier one.
    pattern: `^(?!(?:.*,)?(${REPORT_DIMENSIONS.join('|')})(?:,.*)?,\\1(?:,|$))${dimensionPattern}(?:,${dimensionPattern}){0,${MAX_BY - 1}}$`,
    examples: ['utmSource,utmCampaign'],
  }),
);

const timeZone = new Documented<string, string>(
  'TimeZone',
  (u): u is string => typeof u === 'string' && isTimeZone(u),
  (u, c) =>
    typeof u === 'string' && isTimeZone(u) ? t.success(u) : t.failure(u, c, 'must be an IANA time zone, such as America/Sao_Paulo'),
  t.identity,
  () => ({
    type: 'string',
    enum: [...TIME_ZONES],
    description: "An IANA time zone: those of Node's ICU (`Asia/Calcutta`), their current names (`Asia/Kolkata`) and `UTC`.",
    examples: ['America/Sao_Paulo', 'Asia/Kathmandu', 'UTC'],
  }),
  'TimeZone',
);
export { timeZone };

const isTestParam = defaulted(
  described(
    single(oneOf(['false', 'true', 'all'] as const)),
    '`false`: real orders only (default); `true`: test orders only; `all`: both.',
  ),
  'false',
);
const model = defaulted(
  described(
    single(oneOf(ATTRIBUTION_MODELS)),
    "`last`: the order's `tracking` (default); `first`: `trackingExtras.firstTouch`, or the last touch when the order has none.",
  ),
  'last',
);
const instant = (what: string) => described(single(queryInstant), `${what} ${QUERY_INSTANT_NOTE}`);
const compare = described(
  single(oneOf(COMPARISONS)),
  '`previous`: each row or bucket also carries `previous`, its figures over the equally long period that ends at `from` ' +
    '(decision 0020); a key or product found only then is a row with the figures of nothing now, ranked like any other.',
);
const limit = defaulted(
  described(single(intParam(1, MAX_BREAKDOWN_ROWS)), 'At most this many rows; `totalRows` says how many there are.'),
  100,
);
const utmFilters = Object.fromEntries(
  UTM_DIMENSIONS.map((d) => [d, described(single(str(1, 255)), `Only orders whose \`${d}\` (under the model) is exactly this.`)]),
) as Record<(typeof UTM_DIMENSIONS)[number], Documented<string>>;

export const BreakdownQuery = strictObject(
  'BreakdownQuery',
  {
    from: instant('Orders created at or after this instant.'),
    to: instant('Orders created at or before this instant; at most 366 days after `from`.'),
    by: single(byDimensions),
  },
  {
    model,
    isTest: isTestParam,
    sort: defaulted(
      described(single(oneOf(METRICS)), 'The metric rows are sorted by, in `order`; a null after every number.'),
      'paidGrossCents',
    ),
    order: defaulted(
      described(
        single(oneOf(['desc', 'asc'] as const)),
        '`desc`, the largest `sort` first; `asc`, the smallest first (by `profitCents`, the biggest loss first). A null comes after every number either way.',
      ),
      'desc',
    ),
    limit,
    compare,
  },
);

export const TimeseriesQuery = strictObject(
  'TimeseriesQuery',
  {
    from: instant('Orders created at or after this instant.'),
    to: instant('Orders created at or before this instant; at most 31 days after `from` by hour, 366 otherwise.'),
    interval: described(single(oneOf(REPORT_INTERVALS)), 'Hours, days, ISO weeks (from Monday) or months of `timezone`.'),
  },
  {
    timezone: described(single(timeZone), "The calendar of the buckets; the dashboard's when absent."),
    model,
    isTest: isTestParam,
    ...utmFilters,
    compare,
  },
);

export const ProductsQuery = strictObject(
  'ProductsQuery',
  {
    from: instant('Orders created at or after this instant.'),
    to: instant('Orders created at or before this instant; at most 366 days after `from`.'),
  },
  {
    model,
    isTest: isTestParam,
    ...utmFilters,
    sort: defaulted(
      described(single(oneOf(PRODUCT_METRICS)), 'The column rows are sorted by, descending; then by product and currency.'),
      'paidRevenueCents',
    ),
    limit,
    compare,
  },
);

export const UncostedProductsQuery = strictObject(
  'UncostedProductsQuery',
  {
    from: instant('Orders created at or after this instant.'),
    to: instant('Orders created at or before this instant; at most 366 days after `from`.'),
  },
  { isTest: isTestParam, limit },
);

const count = int(0, Number.MAX_SAFE_INTEGER);
/**
 * A sum of cents: lines of up to 1,000,000 units of 10^13 cents add up past 2^53 − 1, where a JSON
 * number is no longer exact, so the sums have no maximum (docs/limits.md: exact up to 2^53 − 1).
 */
const centsSum = (minimum?: number): Documented<number> =>
  check(
    minimum === undefined ? 'integer' : `integer(${minimum}..)`,
    (u): u is number => typeof u === 'number' && Number.isInteger(u) && (minimum === undefined || u >= minimum),
    minimum === undefined ? 'must be an integer' : `must be an integer from ${minimum}`,
    minimum === undefined ? { type: 'integer' } : { type: 'integer', minimum },
  );
const money = described(centsSum(0), 'Cents; exact up to 2^53 − 1.');
const signedCents = centsSum();
const signedMoney = described(signedCents, 'Cents; negative for a loss; exact up to 2^53 − 1.');
const ratio = nullable(t.number);
const ROUNDING = 'rounded half away from zero';

const PRODUCT = described(
  t.string,
  "The lines' sku, else their externalId, else `(not set)`: the same product sold on several channels under one sku is one row.",
);

/** What a report's profit leaves out, beside its rows. */
const uncosted = described(
  strictObject('Uncosted', {
    units: described(count, 'Paid units of the period (every row, not only those answered) that no cost priced.'),
    products: described(count, 'How many distinct products those units are (0 when `units` is 0).'),
  }),
  'What profit, margin and ROI leave out: units sold without a cost, and how many products they are. ' +
    '`GET /api/v1/reports/uncosted-products` lists them.',
);

/** Each metric of a row or bucket, its definition in its description (decisions 0016, 0020). */
const metricFields = {
  orders: described(count, 'Orders created in the range, each counted with its status now.'),
  pending: count,
  paid: count,
  refused: count,
  refunded: count,
  chargedback: count,
  grossCents: described(money, '`grossCents` of every order.'),
  paidGrossCents: described(money, '`grossCents` of the orders now `paid`: what was kept after refunds and chargebacks.'),
  paidNetCents: described(money, '`netToSellerCents` of the orders now `paid`.'),
  refundedCents: described(money, '`grossCents` (gross, not net) of the orders now `refunded`.'),
  chargedbackCents: described(money, '`grossCents` (gross, not net) of the orders now `chargedback`.'),
  approvalRate: described(
    ratio,
    `(paid + refunded + chargedback) / (orders − pending), 4 decimals ${ROUNDING}; null when no order is decided.`,
  ),
  averageOrderCents: described(nullable(count), `paidGrossCents / paid, ${ROUNDING}; null without a paid order.`),
  spendCents: described(nullable(count), 'The spend of the days that start in the range; null where spend cannot join the row.'),
  roas: described(ratio, `paidGrossCents / spendCents, 4 decimals ${ROUNDING}; null without spend (none joins, or 0).`),
  cpaCents: described(nullable(count), `spendCents / paid, ${ROUNDING}; null without spend (none joins, or 0) or without a paid order.`),
  productCostCents: described(
    money,
    "Σ quantity × unit cost of the lines of the orders now `paid`, each at the cost in force at the order's `createdAt` for its " +
      "product (the line's sku, else its externalId) and currency: the entry with the latest `from` whose day (of the dashboard's " +
      "time zone now) has begun; for a line with a sku and an externalId, the externalId's cost where the sku has none in force.",
  ),
  uncostedUnits: described(
    count,
    'Σ quantity of the lines of the orders now `paid` that no cost is in force for: a profit without their cost.',
  ),
  taxCents: described(money, `paidGrossCents × taxRate / 100 (the dashboard's tax rate, percent), ${ROUNDING}.`),
  contributionCents: described(signedMoney, 'paidNetCents − productCostCents − taxCents.'),
  profitCents: described(nullable(signedCents), 'contributionCents − spendCents; null where spend cannot join the row.'),
  marginRate: described(ratio, `profitCents / paidGrossCents, 4 decimals ${ROUNDING}; null without profit or without paid revenue.`),
  roi: described(ratio, `profitCents / spendCents, 4 decimals ${ROUNDING}; null without profit or without spend (none joins, or 0).`),
};

const ReportMetrics = strictObject('ReportMetrics', metricFields, {}, { description: 'The figures of a row or bucket.' });

const ReportKey = strictObject(
  'ReportKey',
  {},
  Object.fromEntries(REPORT_DIMENSIONS.map((d) => [d, t.string])) as Record<ReportDimension, t.StringC>,
  { description: 'The value of each `by` dimension; `(not set)` where an order has none.' },
);

const BreakdownRow = strictObject(
  'BreakdownRow',
  { key: ReportKey, currency, ...metricFields },
  { previous: described(ReportMetrics, 'With `compare=previous`: the same key and currency over the previous period.') },
);

export const BreakdownResponse = strictObject('Breakdown', {
  from: t.string,
  to: t.string,
  by: t.array(oneOf(REPORT_DIMENSIONS)),
  model: oneOf(ATTRIBUTION_MODELS),
  rows: described(
    t.array(BreakdownRow),
    'Sorted by `sort` in `order`; one row per key and currency (money is never added across currencies).',
  ),
  totalRows: count,
  uncosted,
});

const bucketFields = {
  start: described(t.string, "The bucket's first instant, on the zone's clock with its offset."),
  end: described(t.string, 'The first instant after the bucket (after `to` for the last one).'),
  ...metricFields,
};

const TimeseriesBucket = strictObject('TimeseriesBucket', bucketFields, {
  previous: described(
    strictObject('PreviousBucket', bucketFields),
    "With `compare=previous`: the bucket moved back by the period's length (`to` − `from` + 1 ms), and its figures.",
  ),
});

export const TimeseriesResponse = strictObject('Timeseries', {
  interval: oneOf(REPORT_INTERVALS),
  timezone: t.string,
  series: described(
    t.array(strictObject('TimeseriesSeries', { currency, buckets: t.array(TimeseriesBucket) })),
    'One series per currency, each with every bucket of the range (zeros when empty).',
  ),
  uncosted,
});

const productFields = {
  orders: described(count, 'Orders with at least one line of the product, created in the range, each with its status now.'),
  units: described(count, 'Σ quantity of its lines over every order.'),
  paidUnits: described(count, 'Σ quantity of its lines over the orders now `paid`.'),
  paidRevenueCents: described(money, 'Σ quantity × unitPriceCents of its lines over the orders now `paid`.'),
  productCostCents: described(money, 'Σ quantity × the unit cost in force, over the orders now `paid` (as in a breakdown).'),
  grossMarginCents: described(signedMoney, 'paidRevenueCents − productCostCents.'),
  uncostedUnits: described(count, 'Σ quantity of its paid lines that no cost is in force for.'),
};

const ProductRow = strictObject(
  'ProductRow',
  {
    product: PRODUCT,
    currency,
    name: described(t.string, 'As its latest order of the report names it (latest by createdAt, then by order id).'),
    ...productFields,
  },
  {
    previous: described(strictObject('ProductFigures', productFields), 'With `compare=previous`: its figures over the previous period.'),
  },
);

export const ProductsResponse = strictObject('Products', {
  from: t.string,
  to: t.string,
  model: oneOf(ATTRIBUTION_MODELS),
  rows: described(
    t.array(ProductRow),
    'Sorted by `sort`, descending, then by product and currency by code point; one row per product and currency.',
  ),
  totalRows: count,
  uncosted,
});

const UncostedProductRow = strictObject('UncostedProduct', {
  product: PRODUCT,
  currency,
  name: described(t.string, 'As the products report of the same period names it.'),
  uncostedUnits: described(count, 'Its paid units of the period that no cost priced.'),
});

export const UncostedProductsResponse = strictObject('UncostedProducts', {
  from: t.string,
  to: t.string,
  rows: described(
    t.array(UncostedProductRow),
    'By `uncostedUnits`, descending, then by product and currency by code point; one row per product and currency.',
  ),
  totalRows: count,
  units: described(count, 'Σ `uncostedUnits` over every row, not only those answered.'),
  products: described(count, 'How many distinct products the rows are.'),
});
