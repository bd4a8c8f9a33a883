import type { ReportDimension } from '../../../domain/attribution';
import type { MetricName } from '../../../domain/report';
import type { BreakdownRow } from '../../../application/reports/get-breakdown';
import { changeInCell } from './comparison';
import { html, type Html } from './html';
import { DIMENSION_WORDS, METRIC_WORDS, metricText } from './words';

/**
 * A breakdown's rows as a table: the key's dimensions, the currency, then each of `metrics`, headed
 * with words (DECISIONS D22). The key's first column stays in view while the table scrolls sideways;
 * the region scrolls by keyboard too (it is focusable and named by `label`). A row that carries the
 * previous period's metrics (compare=previous) shows each figure's change under it, rates in points.
 */
export const breakdownTable = (
  rows: readonly BreakdownRow[],
  by: readonly ReportDimension[],
  metrics: readonly MetricName[],
  label: string,
): Html =>
  rows.length === 0
    ? html`<p>Nothing in this period.</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="${label}">
        <table class="keyed">
          <thead>
            <tr>
              ${by.map((d) => html`<th scope="col" data-dimension="${d}">${DIMENSION_WORDS[d]}</th>`)}
              <th scope="col">Currency</th>
              ${metrics.map((m) => html`<th scope="col" class="num" data-metric="${m}">${METRIC_WORDS[m].label}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (row) =>
                html`<tr>
                  ${by.map((d, i) => (i === 0 ? html`<th scope="row">${row.key[d] ?? ''}</th>` : html`<td>${row.key[d] ?? ''}</td>`))}
                  <td>${row.currency}</td>
                  ${metrics.map(
                    (m) =>
                      html`<td class="num" data-metric="${m}">
                        ${metricText(m, row, row.currency)}
                        ${changeInCell(row[m], row.previous?.[m], METRIC_WORDS[m].kind === 'rate' ? 'points' : 'relative')}
                      </td>`,
                  )}
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
