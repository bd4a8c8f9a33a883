import * as E from 'fp-ts/Either';
import type { BreakdownRow } from '../../../application/reports/get-breakdown';
import type { ReportDimension } from '../../../domain/attribution';
import { addTotals, metricsOf, ZERO_TOTALS, type CellTotals, type MetricName } from '../../../domain/report';
import { ConsoleRefusal, show } from '../kit/answers';
import { breakdownTable } from '../kit/breakdown-table';
import { lossMarked, uncostedNote, uncostedProducts, type Uncosted } from '../kit/profit';
import { changeLine, previousPeriodWords } from '../kit/comparison';
import type { ConsoleFeature } from '../kit/feature';
import { html, type Html } from '../kit/html';
import { notice, page } from '../kit/layout';
import { periodForm, periodOf } from '../kit/period';
import { METRIC_WORDS, metricText } from '../kit/words';
import { dailyCharts } from './daily-charts';
import { onboarding } from './onboarding';
import type { ConsoleRouter, SignedInRequest } from '../kit/router';

/** The campaigns the Overview lists, by paid revenue. */
const TOP_CAMPAIGNS = 10;

/** The losing campaigns the Overview lists, biggest loss first; Reports lists them all. */
const LOSING_CAMPAIGNS = 10;

const CAMPAIGN: readonly ReportDimension[] = ['utmSource', 'utmCampaign'];

/** A currency's cards, in this order. */
const CARDS: readonly MetricName[] = [
  'orders',
  'paidGrossCents',
  'approvalRate',
  'refundedCents',
  'chargedbackCents',
  'spendCents',
  'roas',
  'profitCents',
];

/**
 * The campaigns whose profit was below zero, biggest loss first, or a sentence saying that none lost
 * money; a link opens Reports ordered the same way when the list may go on.
 */
const losingCampaigns = (rows: readonly BreakdownRow[], query: URLSearchParams): Html => {
  const lost = rows.filter((row) => row.profitCents !== null && row.profitCents < 0);
  const all = new URLSearchParams({ by1: 'utmSource', by2: 'utmCampaign', sort: 'profitCents', order: 'asc' });
  for (const name of ['period', 'from', 'to']) if (query.has(name)) all.set(name, query.get(name)!);
  return html`<h2 id="losing-campaigns">Campaigns that lost money</h2>
    ${
      lost.length === 0
        ? html`<p data-none-lost>No campaign lost money in this period.</p>`
        : html`${breakdownTable(lost, CAMPAIGN, ['orders', 'paidGrossCents', 'spendCents', 'profitCents', 'marginRate', 'roi'], {
            label: 'Campaigns that lost money',
          })}
          ${lost.length === LOSING_CAMPAIGNS ? html`<p><a href="/console/reports?${all.toString()}">Every campaign by its profit, lowest first</a></p>` : ''}`
    }`;
};

const NOTICES: Readonly<Record<string, string>> = {
  password: 'Your password was changed; your other sessions have ended.',
};

const overview = async ({ viewer, query }: SignedInRequest, useCases: ConsoleRouter['deps']['useCases'], base: string) => {
  const zone = viewer.dashboard.timezone;
  const period = periodOf(query, zone, new Date());
  const scope = { model: 'last' as const, isTest: false, filters: {} };
  const series = await useCases.getTimeseries.execute(viewer.dashboard.id, {
    ...scope,
    from: period.from,
    to: period.to,
    interval: 'day',
    compare: 'previous',
  });
  const top = await useCases.getBreakdown.execute(viewer.dashboard.id, {
    ...scope,
    from: period.from,
    to: period.to,
    by: CAMPAIGN,
    sort: 'paidGrossCents',
    limit: TOP_CAMPAIGNS,
    compare: 'previous',
  });
  // The lowest profits first: those below zero are the campaigns that lost money.
  const losing = await useCases.getBreakdown.execute(viewer.dashboard.id, {
    ...scope,
    from: period.from,
    to: period.to,
    by: CAMPAIGN,
    sort: 'profitCents',
    order: 'ascending',
    limit: LOSING_CAMPAIGNS,
  });
  if (E.isLeft(series) || E.isLeft(top) || E.isLeft(losing)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
  if (series.right.series.length === 0) {
    // No order in the period: one in any period says whether the dashboard is new, and needs showing the ways in.
    const any = await useCases.listOrders.execute(viewer.dashboard.id, { page: 1, pageSize: 1 });
    if (any.total === 0)
      return show(
        page(
          viewer,
          '/console/overview',
          'Overview',
          html`${notice(NOTICES[query.get('notice') ?? ''])}${onboarding(base, viewer.role === 'owner')}`,
        ),
      );
  }
  // Each currency's buckets added up, then the same metrics a report row has (domain/report.ts).
  const totals = series.right.series.map(({ currency, buckets }) => ({
    currency,
    ...metricsOf(
      buckets.reduce<CellTotals>((sum, bucket) => addTotals(sum, bucket), ZERO_TOTALS),
      buckets.reduce((sum, bucket) => sum + (bucket.spendCents ?? 0), 0),
      viewer.dashboard.taxRate,
    ),
    // The same buckets moved back by the period's length: the previous period's cards (compare=previous).
    before: metricsOf(
      buckets.reduce<CellTotals>((sum, bucket) => (bucket.previous === undefined ? sum : addTotals(sum, bucket.previous)), ZERO_TOTALS),
      buckets.reduce((sum, bucket) => sum + (bucket.previous?.spendCents ?? 0), 0),
      viewer.dashboard.taxRate,
    ),
  }));
  const against = previousPeriodWords(period);
  const uncosted = totals.some((t) => t.uncostedUnits > 0)
    ? (await uncostedProducts(useCases, viewer.dashboard.id, period, scope)).byCurrency
    : new Map<string, Uncosted>();
  const cards = totals.map(
    (t) =>
      html`<h2>${t.currency}</h2>
        <dl class="cards" data-currency="${t.currency}">
          ${CARDS.map((metric) => {
            const { label, kind, profit } = METRIC_WORDS[metric];
            const text = metricText(metric, t, t.currency);
            const value = kind === 'money' ? html` data-value="${t[metric] ?? 0}"` : '';
            return html`<div>
              <dt>${label}</dt>
              <dd data-metric="${metric}" ${value}>${profit === true ? lossMarked(t[metric], text) : text}</dd>
              ${changeLine(t[metric], t.before[metric], against, kind === 'rate' ? 'points' : 'relative')}
              ${profit === true ? uncostedNote({ ...uncosted.get(t.currency), units: t.uncostedUnits }, 'dd') : ''}
            </div>`;
          })}
        </dl>`,
  );
  const main = series.right.series[0];
  const chart = main === undefined ? '' : dailyCharts(main.currency, main.buckets, zone);
  const campaigns = html`<h2>Top campaigns</h2>
    ${breakdownTable(
      // This period's campaigns, each figure with its change; a campaign of the previous period only is the Reports page's.
      top.right.rows.filter((row) => row.orders > 0),
      CAMPAIGN,
      ['orders', 'paidGrossCents', 'approvalRate', 'spendCents', 'roas', 'profitCents'],
      { label: 'Top campaigns' },
    )}
    ${losingCampaigns(losing.right.rows, query)}`;
  return show(
    page(
      viewer,
      '/console/overview',
      'Overview',
      html`${notice(NOTICES[query.get('notice') ?? ''])}${periodForm('/console/overview', period)}${totals.length === 0 ? html`<p>No orders in this period.</p>` : cards}${chart}${campaigns}`,
    ),
  );
};

/** The Overview (decisions 0018, 0022): the period's cards, the daily charts, the top campaigns. */
export const overviewFeature: ConsoleFeature = {
  menu: { path: '/console/overview', label: 'Overview', access: 'member' },
  register: (r) => r.get('/console/overview', 'member', (request) => overview(request, r.deps.useCases, r.deps.publicBaseUrl())),
};
