import * as E from 'fp-ts/Either';
import type { ValidationDetail } from '../kit/codec-kit';
import { UTM_DIMENSIONS } from '../../../domain/attribution';
import { isoInZone } from '../../../domain/time-zone';
import { route } from '../kit/route';
import { BreakdownQuery, BreakdownResponse, TimeseriesQuery, TimeseriesResponse } from './report-codecs';

const DAY = 86_400_000;

/** `from` ≤ `to`, at most `days` apart: each problem at its parameter. */
const rangeProblems = (from: Date, to: Date, days: number, why: string): ValidationDetail[] => {
  if (from.getTime() > to.getTime()) return [{ path: 'query.from', message: 'must not be later than query.to' }];
  return to.getTime() - from.getTime() > days * DAY
    ? [{ path: 'query.to', message: `must be at most ${days} days after query.from${why}` }]
    : [];
};

const isTestOf = (value: 'false' | 'true' | 'all'): boolean | undefined => (value === 'all' ? undefined : value === 'true');

export const breakdownRoute = route({
  method: 'get',
  path: '/api/v1/reports/breakdown',
  operationId: 'getBreakdown',
  summary: 'Which campaigns made money: orders and spend grouped by campaign fields, platform or payment method',
  description:
    'The orders created between `from` and `to` (inclusive), each counted with its status now, grouped by the `by` dimensions ' +
    'and by currency (money is never added across currencies), attributed by `model`. Spend joins a breakdown whose `by` names only ' +
    "`utmSource`, `utmMedium`, `utmCampaign` and `utmContent`: the spend of the days (of the dashboard's time zone) that start within " +
    'the range, summed over what `by` leaves open; a key with spend and no orders is a row. Other breakdowns have `spendCents: null`.',
  tag: 'reports',
  guards: ['token', 'rateLimit'],
  scope: 'reports:read',
  query: BreakdownQuery,
  responses: { 200: { description: 'The rows, sorted and limited, and how many there are.', body: BreakdownResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ principal, query }, { useCases }) => {
    const problems = rangeProblems(query.from, query.to, 366, '');
    if (problems.length > 0) return E.left({ _tag: 'ValidationFailed', details: problems });
    const result = await useCases.getBreakdown.execute(principal.dashboardId, {
      from: query.from,
      to: query.to,
      by: query.by,
      model: query.model,
      isTest: isTestOf(query.isTest),
      filters: {},
      sort: query.sort,
      limit: query.limit,
    });
    if (E.isLeft(result)) return result;
    return E.right({
      status: 200 as const,
      body: {
        from: query.from.toISOString(),
        to: query.to.toISOString(),
        by: [...query.by],
        model: query.model,
        rows: result.right.rows.map(({ key, currency, ...metrics }) => ({ key: { ...key }, currency, ...metrics })),
        totalRows: result.right.totalRows,
      },
    });
  },
});

export const timeseriesRoute = route({
  method: 'get',
  path: '/api/v1/reports/timeseries',
  operationId: 'getTimeseries',
  summary: "Orders and spend bucket by bucket, in a time zone's calendar",
  description:
    'One series per currency, every bucket of the range present (zeros when empty). Buckets follow the calendar of `timezone` ' +
    "(the dashboard's by default): a day of 23 or 25 hours at a DST change, +05:30 and +05:45 zones exact; the first and last " +
    "are cut at `from` and `to`. `start` and `end` carry the zone's offset. Spend counts in the bucket its day starts in; a " +
    'series filtered by `utmTerm` has `spendCents: null` (spend is not kept by term).',
  tag: 'reports',
  guards: ['token', 'rateLimit'],
  scope: 'reports:read',
  query: TimeseriesQuery,
  responses: { 200: { description: 'The series.', body: TimeseriesResponse } },
  problems: ['DashboardNotFound'],
  handle: async ({ principal, query }, { useCases }) => {
    const problems = rangeProblems(query.from, query.to, query.interval === 'hour' ? 31 : 366, query.interval === 'hour' ? ' by hour' : '');
    if (problems.length > 0) return E.left({ _tag: 'ValidationFailed', details: problems });
    const filters = Object.fromEntries(UTM_DIMENSIONS.flatMap((d) => (query[d] === undefined ? [] : [[d, query[d]]])));
    const result = await useCases.getTimeseries.execute(principal.dashboardId, {
      from: query.from,
      to: query.to,
      interval: query.interval,
      ...(query.timezone === undefined ? {} : { timezone: query.timezone }),
      model: query.model,
      isTest: isTestOf(query.isTest),
      filters,
    });
    if (E.isLeft(result)) return result;
    const { timezone, series } = result.right;
    return E.right({
      status: 200 as const,
      body: {
        interval: query.interval,
        timezone,
        series: series.map(({ currency, buckets }) => ({
          currency,
          buckets: buckets.map(({ start, end, ...metrics }) => ({
            start: isoInZone(start, timezone),
            end: isoInZone(end, timezone),
            ...metrics,
          })),
        })),
      },
    });
  },
});

export const reportRoutes = [breakdownRoute, timeseriesRoute];
