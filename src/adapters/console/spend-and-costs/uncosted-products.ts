import * as E from 'fp-ts/Either';
import { COSTS_CSV_HEADER } from '../../../application/costs/costs-csv';
import type { UncostedProducts } from '../../../application/ports/report-reader';
import { ConsoleRefusal, type Answer } from '../kit/answers';
import { csvDocument, csvText } from '../kit/csv';
import { count, counted } from '../kit/format';
import { html, type Html } from '../kit/html';
import type { Viewer } from '../kit/layout';
import { periodForm, periodOf, type Period } from '../kit/period';
import { table } from '../kit/table';
import type { ConsoleRouter } from '../kit/router';

/** Where the Costs page lists them: the incomplete-profit notes of other pages link here, with their period's query. */
export const UNCOSTED_PATH = '/console/costs';
export const UNCOSTED_ANCHOR = 'uncosted';
const CSV_PATH = '/console/costs/uncosted.csv';

/** As many as the page lists; the CSV holds up to CSV_ROWS, the most units first. */
const LISTED = 100;
const CSV_ROWS = 10_000;

type UseCases = ConsoleRouter['deps']['useCases'];

const uncostedOf = async (useCases: UseCases, viewer: Viewer, period: Period, limit: number): Promise<UncostedProducts> => {
  const listed = await useCases.listUncostedProducts.execute(viewer.dashboard.id, {
    from: period.from,
    to: period.to,
    model: 'last',
    isTest: false,
    filters: {},
    limit,
  });
  if (E.isLeft(listed)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
  return listed.right;
};

/** The period's query, as the page's form sends it: the CSV of the same period. */
const periodQuery = (period: Period): string =>
  new URLSearchParams(
    period.key === 'custom' ? { period: 'custom', from: period.firstDay, to: period.lastDay } : { period: period.key },
  ).toString();

/**
 * The Costs page's list of the products sold without a cost over a period of the dashboard's calendar
 * (the query's, as the other pages take it): their units leave profit incomplete. The list offers them
 * as a CSV to fill in and upload back.
 */
export const uncostedSection = async (useCases: UseCases, viewer: Viewer, query: URLSearchParams): Promise<Html> => {
  const period = periodOf(query, viewer.dashboard.timezone, new Date());
  const uncosted = await uncostedOf(useCases, viewer, period, LISTED);
  const body =
    uncosted.totalRows === 0
      ? html`<p class="summary">Every unit sold in this period has a cost.</p>`
      : html`<p class="summary">
            ${counted(uncosted.units, 'unit')} of ${counted(uncosted.products, 'product')} sold in this period had no cost: profit, margin
            and ROI leave them out.
            <a href="${CSV_PATH}?${periodQuery(period)}" download>Download them as a CSV to fill in</a>: write each unit cost, then upload
            the file above. Each line's cost holds from ${period.firstDay}, the first day of the period.
          </p>
          ${uncosted.totalRows > LISTED ? html`<p class="muted">The ${count(LISTED)} with the most units of ${count(uncosted.totalRows)}.</p>` : ''}
          ${table({
            label: 'Products sold without a cost',
            rows: uncosted.rows,
            rowData: (row) => ({ 'data-product': row.product }),
            columns: [
              { header: 'Product', rowHeader: true, cell: (row) => html`${row.name} <span class="muted">${row.product}</span>` },
              { header: 'Currency', cell: (row) => row.currency },
              { header: 'Units', count: (row) => row.uncostedUnits },
            ],
          })}`;
  return html`<section aria-labelledby="${UNCOSTED_ANCHOR}">
    <h2 id="${UNCOSTED_ANCHOR}">Sold without a cost</h2>
    ${periodForm(UNCOSTED_PATH, period)} ${body}
  </section>`;
};

/**
 * The CSV of the products sold without a cost over the query's period, in the columns the costs
 * upload takes: each product and currency, `unit_cost` empty to fill in, `from` the period's first day
 * (so the cost covers every unit the list counted).
 */
export const registerUncostedCsv = (r: ConsoleRouter): void =>
  r.get(CSV_PATH, 'member', async ({ viewer, query }): Promise<Answer> => {
    const period = periodOf(query, viewer.dashboard.timezone, new Date());
    const uncosted = await uncostedOf(r.deps.useCases, viewer, period, CSV_ROWS);
    const body = csvDocument([
      [...COSTS_CSV_HEADER],
      ...uncosted.rows.map((row) => [csvText(row.product), csvText(row.currency), '', period.firstDay]),
    ]);
    return { kind: 'file', name: `costs-to-fill-${period.firstDay}.csv`, type: 'text/csv; charset=utf-8', body };
  });
