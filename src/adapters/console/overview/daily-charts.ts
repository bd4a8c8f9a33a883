import type { TimeseriesBucket } from '../../../application/reports/get-timeseries';
import { barChart } from '../kit/chart';
import { compactMoney, count, dateTime, longDay, money, shortDay } from '../kit/format';
import { html, type Html } from '../kit/html';

/** The figures drawn day by day (DECISIONS D22): what came in, what the ads cost, what was left. */
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
      <div class="scroll" tabindex="0" role="region" aria-label="The numbers of the charts">
        <table>
          <caption class="muted">
            Orders, paid revenue, ad spend and profit by day, ${currency}
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" class="num">Orders</th>
              ${CHARTS.map(({ label }) => html`<th scope="col" class="num">${label}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${days.map(
              ({ bucket, day }) =>
                html`<tr>
                  <td>${day}</td>
                  <td class="num">${count(bucket.orders)}</td>
                  ${CHARTS.map(({ metric }) => html`<td class="num">${money(bucket[metric], currency)}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>`;
};
