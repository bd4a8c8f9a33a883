import * as t from 'io-ts';
import { ATTRIBUTION_MODELS, REPORT_DIMENSIONS, UTM_DIMENSIONS, type ReportDimension } from '../../../domain/attribution';
import { METRICS } from '../../../domain/report';
import { isTimeZone, REPORT_INTERVALS, TIME_ZONES } from '../../../domain/time-zone';
import { defaulted, int, nullable, oneOf, str, strictObject } from '../kit/codec-kit';
import { queryInstant } from '../kit/dates';
import { described, Documented } from '../kit/json-schema';
import { intParam, QUERY_INSTANT_NOTE, single } from '../kit/list-query';
import { currency } from '../orders/order-codecs';

/** Reports of DECISIONS D16: what a caller asks, and what it is answered. */

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
      described(single(oneOf(METRICS)), 'The metric rows are sorted by, descending; a null after every number.'),
      'paidGrossCents',
    ),
    limit: defaulted(
      described(single(intParam(1, MAX_BREAKDOWN_ROWS)), 'At most this many rows; `totalRows` says how many there are.'),
      100,
    ),
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
  },
);

const count = int(0, Number.MAX_SAFE_INTEGER);
const money = described(int(0, Number.MAX_SAFE_INTEGER), 'Cents.');
const ratio = nullable(t.number);

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
  refundedCents: described(money, '`grossCents` of the orders now `refunded`.'),
  chargedbackCents: described(money, '`grossCents` of the orders now `chargedback`.'),
  approvalRate: described(ratio, '(paid + refunded + chargedback) / (orders − pending), 4 decimals; null when no order is decided.'),
  averageOrderCents: described(nullable(count), 'round(paidGrossCents / paid); null without a paid order.'),
  spendCents: described(nullable(count), 'The spend of the days that start in the range; null where spend cannot join the row.'),
  roas: described(ratio, 'paidGrossCents / spendCents, 4 decimals; null without spend.'),
  cpaCents: described(nullable(count), 'round(spendCents / paid); null without spend or without a paid order.'),
};

const ReportKey = strictObject(
  'ReportKey',
  {},
  Object.fromEntries(REPORT_DIMENSIONS.map((d) => [d, t.string])) as Record<ReportDimension, t.StringC>,
  { description: 'The value of each `by` dimension; `(not set)` where an order has none.' },
);

const BreakdownRow = strictObject('BreakdownRow', { key: ReportKey, currency, ...metricFields });

export const BreakdownResponse = strictObject('Breakdown', {
  from: t.string,
  to: t.string,
  by: t.array(oneOf(REPORT_DIMENSIONS)),
  model: oneOf(ATTRIBUTION_MODELS),
  rows: described(
    t.array(BreakdownRow),
    'Sorted by `sort`, descending; one row per key and currency (money is never added across currencies).',
  ),
  totalRows: count,
});

const TimeseriesBucket = strictObject('TimeseriesBucket', {
  start: described(t.string, "The bucket's first instant, on the zone's clock with its offset."),
  end: described(t.string, 'The first instant after the bucket (after `to` for the last one).'),
  ...metricFields,
});

export const TimeseriesResponse = strictObject('Timeseries', {
  interval: oneOf(REPORT_INTERVALS),
  timezone: t.string,
  series: described(
    t.array(strictObject('TimeseriesSeries', { currency, buckets: t.array(TimeseriesBucket) })),
    'One series per currency, each with every bucket of the range (zeros when empty).',
  ),
});
