import type { ReportDimension } from '../../../domain/attribution';
import type { MetricName } from '../../../domain/report';
import type { BreakdownRow } from '../../../application/reports/get-breakdown';
import { changeInCell } from './comparison';
import { html, type Html } from './html';
import { lossMarked, uncostedInCell } from './profit';
import { table, type Column, type ColumnSort } from './table';
import { DIMENSION_WORDS, METRIC_WORDS, metricText } from './words';

export interface BreakdownTableOptions {
  /** Names the table's scrolling region. */
  readonly label: string;
  /** For a table the reader orders: where each metric's heading leads, and the order it shows now. */
  readonly sortOf?: (metric: MetricName) => ColumnSort;
}

/**
 * A metric's cell: its figure (a loss marked) and its change against the previous period; `noted`, the
 * row's first figure of profit, says under it what the row's profit leaves out (its margin and ROI
 * leave out the same).
 */
const metricColumn = (metric: MetricName, noted: boolean, sortOf: BreakdownTableOptions['sortOf']): Column<BreakdownRow> => {
  const { label, kind, profit } = METRIC_WORDS[metric];
  return {
    header: label,
    align: 'end',
    data: { 'data-metric': metric },
    ...(sortOf === undefined ? {} : { sort: sortOf(metric) }),
    cell: (row) =>
      html`${profit === true ? lossMarked(row[metric], metricText(metric, row, row.currency)) : metricText(metric, row, row.currency)}
      ${changeInCell(row[metric], row.previous?.[metric], kind === 'rate' ? 'points' : 'relative')}
      ${noted ? uncostedInCell(row.uncostedUnits) : ''}`,
  };
};

/**
 * A breakdown's rows as a report table: the key's dimensions (the first names the row), the currency,
 * then each of `metrics` headed with words. A row that carries the previous period's metrics
 * (compare=previous) shows each figure's change under it, rates in points.
 */
export const breakdownTable = (
  rows: readonly BreakdownRow[],
  by: readonly ReportDimension[],
  metrics: readonly MetricName[],
  options: BreakdownTableOptions,
): Html => {
  const noted = metrics.find((m) => METRIC_WORDS[m].profit === true);
  return table({
    label: options.label,
    report: true,
    rows,
    empty: html`<p>Nothing in this period.</p>`,
    columns: [
      ...by.map((d, i): Column<BreakdownRow> => ({
        header: DIMENSION_WORDS[d],
        rowHeader: i === 0,
        data: { 'data-dimension': d },
        cell: (row) => row.key[d] ?? '',
      })),
      { header: 'Currency', cell: (row) => row.currency },
      ...metrics.map((m) => metricColumn(m, m === noted, options.sortOf)),
    ],
  });
};
