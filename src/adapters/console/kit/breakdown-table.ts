import type { ReportDimension } from '../../../domain/attribution';
import type { MetricName, Metrics } from '../../../domain/report';
import type { BreakdownRow } from '../../../application/reports/get-breakdown';
import { count, money, percent, ratio } from './format';
import { html, type Html } from './html';

export const metricCell = (name: MetricName, metrics: Metrics, currency: string): string => {
  const value = metrics[name];
  if (name.endsWith('Cents')) return money(value, currency);
  if (name === 'approvalRate' || name === 'marginRate') return percent(value);
  if (name === 'roas' || name === 'roi') return ratio(value);
  return value === null ? '—' : count(value);
};

/** A breakdown's rows as a table: the key's dimensions, the currency, then each of `metrics`. */
export const breakdownTable = (rows: readonly BreakdownRow[], by: readonly ReportDimension[], metrics: readonly MetricName[]): Html =>
  rows.length === 0
    ? html`<p>Nothing in this period.</p>`
    : html`<div class="scroll">
        <table>
          <thead>
            <tr>
              ${by.map((d) => html`<th scope="col">${d}</th>`)}
              <th scope="col">Currency</th>
              ${metrics.map((m) => html`<th scope="col" class="num">${m}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (row) =>
                html`<tr>
                  ${by.map((d) => html`<td>${row.key[d] ?? ''}</td>`)}
                  <td>${row.currency}</td>
                  ${metrics.map((m) => html`<td class="num">${metricCell(m, row, row.currency)}</td>`)}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
