import type { TimeseriesBucket } from '../../../application/reports/get-timeseries';
import { barChart } from '../kit/chart';
import { compactMoney, dateTime, longDay, money, shortDay } from '../kit/format';
import { html, type Html } from '../kit/html';
import { lossMarked, uncostedInCell } from '../kit/profit';
import { table, type Column } from '../kit/table';

/** The figures drawn day by day (decision 0022): what came in, what the ads cost, what was left. */
const CHARTS = [
  { metric: 'paidGrossCents', label: 'Paid revenue' },
  { metric: 'spendCents', label: 'Ad spend' },
  { metric: 'profitCents', label: 'Profit' },
] as const;

/**
 * The Overview's charts of one currency's days, side by side where the screen is wide and one under
 * another on a phone, and the table of their numbers behind them.
 */
export const dailyCharts = (currency: string, buckets: readonly TimeseriesBucket[], zone: string): Html => {
  const days = buckets.map((b) => ({ bucket: b, day: dateTime(new Date(b.start), zone).slice(0, 10) }));
  return html`<h2>By day (${currency})</h2>
    <div class="charts">
      ${CHARTS.map(
        ({ metric, label }) =>
          html`<section>
            <h3>${label}</h3>
            ${barChart({
              title: `${label} by day in ${currency}`,
              metric,
              points: days.map(({ bucket, day }) => ({ label: longDay(day), tick: shortDay(day), value: bucket[metric] })),
              format: (v) => money(v, currency),
              axis: (v) => compactMoney(v, currency),
            })}
          </section>`,
      )}
    </div>
    <details>
      <summary>The numbers of the charts</summary>
      ${table({
        label: 'The numbers of the charts',
        caption: `Orders, paid revenue, ad spend and profit by day, ${currency}`,
        rows: days,
        columns: [
          { header: 'Day', cell: ({ day }) => day },
          { header: 'Orders', count: ({ bucket }) => bucket.orders },
          ...CHARTS.map(({ metric, label }): Column<(typeof days)[number]> => ({
            header: label,
            align: 'end',
            data: { 'data-metric': metric },
            cell: ({ bucket }) =>
              metric === 'profitCents'
                ? html`${lossMarked(bucket.profitCents, money(bucket.profitCents, currency))}${uncostedInCell(bucket.uncostedUnits)}`
                : money(bucket[metric], currency),
          })),
        ],
      })}
    </details>`;
};
