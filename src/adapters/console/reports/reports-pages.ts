import * as E from 'fp-ts/Either';
import { ATTRIBUTION_MODELS, REPORT_DIMENSIONS, type AttributionModel, type ReportDimension } from '../../../domain/attribution';
import type { SortOrder } from '../../../application/ports/report-reader';
import { METRICS, type MetricName } from '../../../domain/report';
import { ConsoleRefusal, show } from '../kit/answers';
import { breakdownTable } from '../kit/breakdown-table';
import { uncostedNote, uncostedProducts } from '../kit/profit';
import type { ColumnSort } from '../kit/table';
import { comparedWith } from '../kit/comparison';
import { csvDocument, csvNumber, csvText } from '../kit/csv';
import type { ConsoleFeature } from '../kit/feature';
import { select } from '../kit/fields';
import { count, counted } from '../kit/format';
import { html } from '../kit/html';
import { DIMENSION_WORDS, METRIC_WORDS, MODEL_WORDS, TEST_ORDER_WORDS } from '../kit/words';
import { page } from '../kit/layout';
import { periodForm, periodOf } from '../kit/period';
import type { ConsoleRouter, SignedInRequest } from '../kit/router';

interface ReportForm {
  readonly by: ReportDimension[];
  readonly model: AttributionModel;
  readonly sort: MetricName;
  readonly order: SortOrder;
  readonly isTest: boolean | undefined;
  /** The metric columns shown, in the API's order; the CSV holds them all. */
  readonly columns: readonly MetricName[];
}

/** The columns shown until the reader chooses (decision 0022): what a campaign brought, cost and made. */
const DEFAULT_COLUMNS: readonly MetricName[] = ['orders', 'paidGrossCents', 'spendCents', 'roas', 'profitCents', 'cpaCents'];

const reportFormOf = (query: URLSearchParams): ReportForm => {
  const by = ['by1', 'by2', 'by3']
    .map((k) => query.get(k) ?? '')
    .filter((v): v is ReportDimension => (REPORT_DIMENSIONS as readonly string[]).includes(v));
  const distinct = [...new Set(by)];
  const model = query.get('model') === 'first' ? 'first' : 'last';
  const sortName = query.get('sort') ?? 'paidGrossCents';
  const sort = (METRICS as readonly string[]).includes(sortName) ? (sortName as MetricName) : 'paidGrossCents';
  const order = query.get('order') === 'asc' ? 'ascending' : 'descending';
  const test = query.get('isTest');
  const chosen = query.getAll('col');
  const columns = METRICS.filter((m) => chosen.includes(m));
  return {
    columns: columns.length === 0 ? DEFAULT_COLUMNS : columns,
    by: distinct.length === 0 ? ['utmSource', 'utmCampaign'] : distinct,
    model,
    sort,
    order,
    isTest: test === 'true' ? true : test === 'all' ? undefined : false,
  };
};

/**
 * The rows a Reports page shows, and a CSV holds (the API's most): a page of 1,000 rows is 500 KB of
 * HTML that takes the event loop about 40 ms to write (decision 0023), and nobody reads it on a screen.
 */
const PAGE_ROWS = 200;
const CSV_ROWS = 1_000;

/**
 * The breakdown a Reports page or CSV shows. The page compares with the previous period (decision
 * 0022), where a key found only then is a row too; the CSV holds the chosen period's rows as the API
 * answers them without `compare`.
 */
const reportOf = async (
  { viewer, query }: SignedInRequest,
  useCases: ConsoleRouter['deps']['useCases'],
  limit: number,
  compare: 'previous' | undefined,
) => {
  const period = periodOf(query, viewer.dashboard.timezone, new Date());
  const form = reportFormOf(query);
  const breakdown = await useCases.getBreakdown.execute(viewer.dashboard.id, {
    from: period.from,
    to: period.to,
    by: form.by,
    model: form.model,
    isTest: form.isTest,
    filters: {},
    sort: form.sort,
    order: form.order,
    limit,
    ...(compare === undefined ? {} : { compare }),
  });
  if (E.isLeft(breakdown)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
  return { period, form, breakdown: breakdown.right };
};

const METRIC_LABELS: Readonly<Record<string, string>> = Object.fromEntries(METRICS.map((m) => [m, METRIC_WORDS[m].label]));

/** The sort orders as the query names them: short, so that a link stays readable. */
const ORDERS: Readonly<Record<SortOrder, string>> = { descending: 'desc', ascending: 'asc' };
const ORDER_WORDS: Readonly<Record<string, string>> = { desc: 'Highest first', asc: 'Lowest first' };

/**
 * A metric's heading orders the table by it, highest first; the heading of the metric it is ordered by
 * reverses the order. The link keeps the rest of the report's query, so a bookmark keeps the order.
 */
const sortLinks =
  (query: URLSearchParams, form: ReportForm) =>
  (metric: MetricName): ColumnSort => {
    const now = metric === form.sort ? form.order : undefined;
    const next = new URLSearchParams(query);
    next.set('sort', metric);
    next.set('order', now === 'descending' ? ORDERS.ascending : ORDERS.descending);
    return { href: `/console/reports?${next.toString()}`, ...(now === undefined ? {} : { now }) };
  };

/** Reports (decisions 0018, 0022): a breakdown by the dimensions chosen, on the page and as CSV. */
export const reportsFeature: ConsoleFeature = {
  menu: { path: '/console/reports', label: 'Reports', access: 'member' },
  register: (r) => {
    const { useCases } = r.deps;
    r.get('/console/reports', 'member', async (request) => {
      const { period, form, breakdown } = await reportOf(request, useCases, PAGE_ROWS, 'previous');
      const showsProfit = form.columns.some((m) => METRIC_WORDS[m].profit === true);
      const scope = { model: form.model, isTest: form.isTest, filters: {} };
      const uncosted =
        showsProfit && breakdown.rows.some((row) => row.uncostedUnits > 0)
          ? (await uncostedProducts(useCases, request.viewer.dashboard.id, period, scope)).all
          : undefined;
      const extra = html`${[0, 1, 2].map((i) =>
          select(
            `by${i + 1}`,
            i === 0 ? 'Group by' : 'Then by',
            REPORT_DIMENSIONS,
            form.by[i] ?? '',
            i === 0 ? undefined : '(none)',
            DIMENSION_WORDS,
          ),
        )}
        ${select('model', 'Attribution', ATTRIBUTION_MODELS, form.model, undefined, MODEL_WORDS)}
        ${select('sort', 'Sort by', METRICS, form.sort, undefined, METRIC_LABELS)}
        ${select('order', 'Order', [ORDERS.descending, ORDERS.ascending], ORDERS[form.order], undefined, ORDER_WORDS)}
        ${select('isTest', 'Test orders', ['false', 'true', 'all'], form.isTest === undefined ? 'all' : String(form.isTest), undefined, TEST_ORDER_WORDS)}
        <details class="columns">
          <summary>Columns</summary>
          ${METRICS.map(
            (m) =>
              html`<div class="check">
                <input type="checkbox" id="col-${m}" name="col" value="${m}" ${form.columns.includes(m) ? html` checked` : ''} /><label
                  for="col-${m}"
                  >${METRIC_WORDS[m].label}</label
                >
              </div>`,
          )}
        </details>`;
      const csv = `/console/reports.csv?${request.query.toString()}`;
      const shown =
        breakdown.totalRows > PAGE_ROWS
          ? `${counted(breakdown.totalRows, 'row')}; the first ${count(PAGE_ROWS)} are shown, the CSV holds the first ${count(CSV_ROWS)}`
          : counted(breakdown.totalRows, 'row');
      return show(
        page(
          request.viewer,
          '/console/reports',
          'Reports',
          html`${periodForm('/console/reports', period, extra)}
            <p><a href="${csv}" download>Download as CSV</a> (every column, named as the API names them) · ${shown}</p>
            ${breakdown.rows.length === 0 ? '' : comparedWith(period)} ${uncosted === undefined ? '' : uncostedNote(uncosted)}
            ${breakdownTable(breakdown.rows, form.by, form.columns, { label: 'The report, by row', sortOf: sortLinks(request.query, form) })}`,
        ),
      );
    });

    r.get('/console/reports.csv', 'member', async (request) => {
      const { form, breakdown } = await reportOf(request, useCases, CSV_ROWS, undefined);
      const body = csvDocument([
        [...form.by, 'currency', ...METRICS].map(csvText),
        ...breakdown.rows.map((row) => [
          ...form.by.map((d) => csvText(row.key[d] ?? '')),
          csvText(row.currency),
          ...METRICS.map((m) => csvNumber(row[m])),
        ]),
      ]);
      return { kind: 'file', name: 'report.csv', type: 'text/csv; charset=utf-8', body };
    });
  },
};
