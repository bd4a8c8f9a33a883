import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import type { ValidationDetail } from '../kit/codec-kit';
import { UTM_DIMENSIONS } from '../../../domain/attribution';
import { isoInZone, wallTimeAt } from '../../../domain/time-zone';
import type { BucketMetrics } from '../../../application/reports/get-timeseries';
import type { UseCases } from '../../../application/use-cases';
import { reply } from '../kit/replies';
import { route } from '../kit/route';
import {
  BreakdownQuery,
  BreakdownResponse,
  ProductsQuery,
  ProductsResponse,
  TimeseriesQuery,
  TimeseriesResponse,
  UncostedProductsQuery,
  UncostedProductsResponse,
} from './report-codecs';

const DAY = 86_400_000;

/** `from` ≤ `to`, at most `days` apart: each problem at its parameter. */
const rangeProblems = (from: Date, to: Date, days: number, why: string): ValidationDetail[] => {
  if (from.getTime() > to.getTime()) return [{ path: 'query.from', message: 'must not be later than query.to' }];
  return to.getTime() - from.getTime() > days * DAY
    ? [{ path: 'query.to', message: `must be at most ${days} days after query.from${why}` }]
    : [];
};

/** Milliseconds on the zone's clock: what a range of calendar days measures, 23- and 25-hour days included. */
const onClock = (instant: Date, zone: string): number => {
  const wall = wallTimeAt(instant.getTime(), zone);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, instant.getUTCMilliseconds());
};

/**
 * An hourly series covers at most 31 days of the calendar of its zone (decision 0016): a month of 31
 * days with a DST change has 745 hours, and is one series. The zone is read (the dashboard's, when
 * the query names none) only for a range longer than 31 days of 24 hours.
 */
const hourlyProblems = async (
  query: { from: Date; to: Date; timezone?: string },
  dashboardId: string,
  useCases: UseCases,
): Promise<ValidationDetail[]> => {
  const within = rangeProblems(query.from, query.to, 31, ' by hour');
  if (within.length === 0 || within[0].path === 'query.from') return within;
  let zone = query.timezone;
  if (zone === undefined) {
    const dashboard = await useCases.getDashboard.execute(dashboardId);
    if (E.isLeft(dashboard)) return [];
    zone = dashboard.right.timezone;
  }
  return onClock(query.to, zone) - onClock(query.from, zone) > 31 * DAY ? within : [];
};

const isTestOf = (value: 'false' | 'true' | 'all'): boolean | undefined => (value === 'all' ? undefined : value === 'true');

const filtersOf = (query: Partial<Record<(typeof UTM_DIMENSIONS)[number], string>>) =>
  Object.fromEntries(UTM_DIMENSIONS.flatMap((d) => (query[d] === undefined ? [] : [[d, query[d]]])));

/** What a ranked report's query (a breakdown, the products) shares: its range, scope, order and size. */
interface RankedParams<S> {
  readonly from: Date;
  readonly to: Date;
  readonly model: 'last' | 'first';
  readonly isTest: 'false' | 'true' | 'all';
  readonly sort: S;
  readonly limit: number;
  readonly compare?: 'previous';
}

/** The use case's part of a ranked report's query: within 366 days, or the problems. */
const rankedAsk = <S>(query: RankedParams<S>) => {
  const problems = rangeProblems(query.from, query.to, 366, '');
  if (problems.length > 0) return E.left({ _tag: 'ValidationFailed' as const, details: problems });
  return E.right({
    from: query.from,
    to: query.to,
    model: query.model,
    isTest: isTestOf(query.isTest),
    sort: query.sort,
    limit: query.limit,
    ...(query.compare === undefined ? {} : { compare: query.compare }),
  });
};

/** What a ranked report's answer repeats of its query. */
const rankedEcho = <S>(query: RankedParams<S>) => ({ from: query.from.toISOString(), to: query.to.toISOString(), model: query.model });

export const breakdownRoute = route({
  method: 'get',
  path: '/api/v1/reports/breakdown',
  operationId: 'getBreakdown',
  summary: 'Which campaigns made money: orders, spend, costs and profit grouped by campaign fields, platform or payment method',
  description:
    'The orders created between `from` and `to` (inclusive), each counted with its status now, grouped by the `by` dimensions ' +
    'and by currency (money is never added across currencies), attributed by `model`. Spend joins a breakdown whose `by` names only ' +
    "`utmSource`, `utmMedium`, `utmCampaign` and `utmContent`: the spend of the days (of the dashboard's time zone) that start within " +
    'the range, summed over what `by` leaves open; a key with spend and no orders is a row. Other breakdowns have `spendCents: null`, ' +
    "and so no profit. The paid orders' lines are priced with the dashboard's product costs and taxed at its tax rate as they are " +
    'now (decision 0020). Rows equal on `sort` are ordered by their key values in `by` order, then currency, by code point.',
  tag: 'reports',
  guards: ['token', 'rateLimit'],
  scope: 'reports:read',
  query: BreakdownQuery,
  responses: { 200: { description: 'The rows, sorted and limited, and how many there are.', body: BreakdownResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ principal, query }, { useCases }) => {
    const asked = rankedAsk(query);
    if (E.isLeft(asked)) return asked;
    return pipe(
      await useCases.getBreakdown.execute(principal.dashboardId, {
        ...asked.right,
        by: query.by,
        order: query.order === 'asc' ? 'ascending' : 'descending',
        filters: {},
      }),
      reply(200, (breakdown) => ({
        ...rankedEcho(query),
        by: [...query.by],
        rows: breakdown.rows.map(({ key, ...row }) => ({ key: { ...key }, ...row })),
        totalRows: breakdown.totalRows,
        uncosted: breakdown.uncosted,
      })),
    );
  },
});

export const timeseriesRoute = route({
  method: 'get',
  path: '/api/v1/reports/timeseries',
  operationId: 'getTimeseries',
  summary: "Orders, spend, costs and profit bucket by bucket, in a time zone's calendar",
  description:
    'One series per currency, every bucket of the range present (zeros when empty). Buckets follow the calendar of `timezone` ' +
    "(the dashboard's by default): a day of 23 or 25 hours at a DST change, +05:30 and +05:45 zones exact; the first and last " +
    "are cut at `from` and `to`. `start` and `end` carry the zone's offset. Spend counts in the bucket its day starts in; a " +
    'series filtered by `utmTerm` has `spendCents: null` (spend is not kept by term). By hour, the range is at most 31 days of ' +
    "the zone's calendar (745 hours when a DST change falls in it).",
  tag: 'reports',
  guards: ['token', 'rateLimit'],
  scope: 'reports:read',
  query: TimeseriesQuery,
  responses: { 200: { description: 'The series.', body: TimeseriesResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ principal, query }, { useCases }) => {
    const problems =
      query.interval === 'hour'
        ? await hourlyProblems(query, principal.dashboardId, useCases)
        : rangeProblems(query.from, query.to, 366, '');
    if (problems.length > 0) return E.left({ _tag: 'ValidationFailed', details: problems });
    const result = await useCases.getTimeseries.execute(principal.dashboardId, {
      from: query.from,
      to: query.to,
      interval: query.interval,
      ...(query.timezone === undefined ? {} : { timezone: query.timezone }),
      model: query.model,
      isTest: isTestOf(query.isTest),
      filters: filtersOf(query),
      ...(query.compare === undefined ? {} : { compare: query.compare }),
    });
    if (E.isLeft(result)) return result;
    const { timezone, series, uncosted } = result.right;
    const inZone = ({ start, end, ...metrics }: BucketMetrics) => ({
      start: isoInZone(start, timezone),
      end: isoInZone(end, timezone),
      ...metrics,
    });
    return E.right({
      status: 200 as const,
      body: {
        interval: query.interval,
        timezone,
        series: series.map(({ currency, buckets }) => ({
          currency,
          buckets: buckets.map(({ previous, ...bucket }) => ({
            ...inZone(bucket),
            ...(previous === undefined ? {} : { previous: inZone(previous) }),
          })),
        })),
        uncosted,
      },
    });
  },
});

export const productsRoute = route({
  method: 'get',
  path: '/api/v1/reports/products',
  operationId: 'getProducts',
  summary: 'Which products sell and what they leave: units, paid revenue, cost and gross margin per product',
  description:
    'The orders created between `from` and `to` (inclusive) in the scope of `model`, `isTest` and the campaign filters, a row per ' +
    "product (the lines' sku, else their externalId) and currency, each order counted with its status now: paid revenue, cost and " +
    "margin come from the orders now `paid`, priced with the dashboard's product costs as they are now (decision 0020). Rows equal " +
    'on `sort` are ordered by product, then currency, by code point.',
  tag: 'reports',
  guards: ['token', 'rateLimit'],
  scope: 'reports:read',
  query: ProductsQuery,
  responses: { 200: { description: 'The rows, sorted and limited, and how many there are.', body: ProductsResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ principal, query }, { useCases }) => {
    const asked = rankedAsk(query);
    if (E.isLeft(asked)) return asked;
    return pipe(
      await useCases.getProducts.execute(principal.dashboardId, { ...asked.right, filters: filtersOf(query) }),
      reply(200, (products) => ({
        ...rankedEcho(query),
        rows: products.rows.map((row) => ({ ...row })),
        totalRows: products.totalRows,
        uncosted: products.uncosted,
      })),
    );
  },
});

export const uncostedProductsRoute = route({
  method: 'get',
  path: '/api/v1/reports/uncosted-products',
  operationId: 'getUncostedProducts',
  summary: 'The products sold without a cost: what profit leaves out, to be costed',
  description:
    'The products (a row per product and currency, as the products report has them) some of whose paid units created between ' +
    '`from` and `to` (inclusive) had no cost in force, the most such units first: what `uncostedUnits` counts and profit leaves ' +
    'out. A cost sent for the `product` and `currency` of a row from the first day of the period on (`PUT /api/v1/product-costs`) ' +
    'prices them all.',
  tag: 'reports',
  guards: ['token', 'rateLimit'],
  scope: 'reports:read',
  query: UncostedProductsQuery,
  responses: { 200: { description: 'The rows, limited, how many there are, and their units.', body: UncostedProductsResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ principal, query }, { useCases }) => {
    const problems = rangeProblems(query.from, query.to, 366, '');
    if (problems.length > 0) return E.left({ _tag: 'ValidationFailed', details: problems });
    const result = await useCases.listUncostedProducts.execute(principal.dashboardId, {
      from: query.from,
      to: query.to,
      model: 'last',
      isTest: isTestOf(query.isTest),
      filters: {},
      limit: query.limit,
    });
    if (E.isLeft(result)) return result;
    const { rows, totalRows, units, products } = result.right;
    return E.right({
      status: 200 as const,
      body: {
        from: query.from.toISOString(),
        to: query.to.toISOString(),
        rows: rows.map((row) => ({ ...row })),
        totalRows,
        units,
        products,
      },
    });
  },
});

export const reportRoutes = [breakdownRoute, timeseriesRoute, productsRoute, uncostedProductsRoute];
