import * as E from 'fp-ts/Either';
import { addTotals, metricsOf, ZERO_TOTALS, type CellTotals } from '../../../domain/report';
import { ConsoleRefusal, show } from '../kit/answers';
import { breakdownTable } from '../kit/breakdown-table';
import { changeLine, previousPeriodWords } from '../kit/comparison';
import type { ConsoleFeature } from '../kit/feature';
import { count, money, percent, ratio } from '../kit/format';
import { html } from '../kit/html';
import { notice, page } from '../kit/layout';
import { periodForm, periodOf } from '../kit/period';
import { dailyCharts } from './daily-charts';
import { onboarding } from './onboarding';
import type { ConsoleRouter, SignedInRequest } from '../kit/router';

/** The campaigns the Overview lists, by paid revenue. */
const TOP_CAMPAIGNS = 10;

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
    by: ['utmSource', 'utmCampaign'],
    sort: 'paidGrossCents',
    limit: TOP_CAMPAIGNS,
    compare: 'previous',
  });
  if (E.isLeft(series) || E.isLeft(top)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
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
  const cards = totals.map(
    (t) =>
      html`<h2>${t.currency}</h2>
        <dl class="cards" data-currency="${t.currency}">
          <div>
            <dt>Orders</dt>
            <dd data-metric="orders">${count(t.orders)}</dd>
            ${changeLine(t.orders, t.before.orders, against)}
          </div>
          <div>
            <dt>Paid revenue</dt>
            <dd data-metric="paidGrossCents" data-value="${t.paidGrossCents}">${money(t.paidGrossCents, t.currency)}</dd>
            ${changeLine(t.paidGrossCents, t.before.paidGrossCents, against)}
          </div>
          <div>
            <dt>Approval rate</dt>
            <dd data-metric="approvalRate">${percent(t.approvalRate)}</dd>
            ${changeLine(t.approvalRate, t.before.approvalRate, against, 'points')}
          </div>
          <div>
            <dt>Refunds</dt>
            <dd data-metric="refundedCents" data-value="${t.refundedCents}">${money(t.refundedCents, t.currency)}</dd>
            ${changeLine(t.refundedCents, t.before.refundedCents, against)}
          </div>
          <div>
            <dt>Chargebacks</dt>
            <dd data-metric="chargedbackCents" data-value="${t.chargedbackCents}">${money(t.chargedbackCents, t.currency)}</dd>
            ${changeLine(t.chargedbackCents, t.before.chargedbackCents, against)}
          </div>
          <div>
            <dt>Ad spend</dt>
            <dd data-metric="spendCents" data-value="${t.spendCents ?? 0}">${money(t.spendCents, t.currency)}</dd>
            ${changeLine(t.spendCents, t.before.spendCents, against)}
          </div>
          <div>
            <dt>ROAS</dt>
            <dd data-metric="roas">${ratio(t.roas)}</dd>
            ${changeLine(t.roas, t.before.roas, against)}
          </div>
          <div>
            <dt>Profit</dt>
            <dd data-metric="profitCents" data-value="${t.profitCents ?? 0}">${money(t.profitCents, t.currency)}</dd>
            ${changeLine(t.profitCents, t.before.profitCents, against)}
          </div>
        </dl>`,
  );
  const main = series.right.series[0];
  const chart = main === undefined ? '' : dailyCharts(main.currency, main.buckets, zone);
  const campaigns = html`<h2>Top campaigns</h2>
    ${breakdownTable(
      // This period's campaigns, each figure with its change; a campaign of the previous period only is the Reports page's.
      top.right.rows.filter((row) => row.orders > 0),
      ['utmSource', 'utmCampaign'],
      ['orders', 'paidGrossCents', 'approvalRate', 'spendCents', 'roas', 'profitCents'],
      'Top campaigns',
    )}`;
  return show(
    page(
      viewer,
      '/console/overview',
      'Overview',
      html`${notice(NOTICES[query.get('notice') ?? ''])}${periodForm('/console/overview', period)}${totals.length === 0 ? html`<p>No orders in this period.</p>` : cards}${chart}${campaigns}`,
    ),
  );
};

/** The Overview (DECISIONS D18, D22): the period's cards, the daily charts, the top campaigns. */
export const overviewFeature: ConsoleFeature = {
  menu: { path: '/console/overview', label: 'Overview', access: 'member' },
  register: (r) => r.get('/console/overview', 'member', (request) => overview(request, r.deps.useCases, r.deps.publicBaseUrl())),
};
