import * as E from 'fp-ts/Either';
import { ATTRIBUTION_MODELS, REPORT_DIMENSIONS, type AttributionModel, type ReportDimension } from '../../domain/attribution';
import { ORDER_STATUSES, type OrderStatus } from '../../domain/order-status';
import { addTotals, METRICS, metricsOf, ZERO_TOTALS, type CellTotals, type MetricName, type Metrics } from '../../domain/report';
import { isCalendarDate, nextDate, startOfDate } from '../../domain/time-zone';
import type { BreakdownRow } from '../../application/reports/get-breakdown';
import { barChart } from './chart';
import { ConsoleRefusal, show, type ConsoleRouter, type SignedInRequest, param } from './console-kit';
import { csvDocument, csvNumber, csvText } from './csv';
import { count, dateTime, money, percent, ratio } from './format';
import { html, type Html } from './html';
import { notice, page, problem } from './layout';
import { PERIODS, periodOf, type Period } from './period';

const NOTICES: Readonly<Record<string, string>> = {
  password: 'Your password was changed; your other sessions have ended.',
};

const periodForm = (action: string, period: Period, extra: Html = html``) =>
  html`<form class="filters" method="get" action="${action}">
      <div>
        <label for="period">Period</label
        ><select id="period" name="period">
          ${PERIODS.map(([key, label]) => html`<option value="${key}" ${key === period.key ? html` selected` : ''}>${label}</option>`)}
        </select>
      </div>
      <div><label for="from">From (custom)</label><input id="from" name="from" type="date" value="${period.firstDay}" /></div>
      <div><label for="to">To (custom)</label><input id="to" name="to" type="date" value="${period.lastDay}" /></div>
      ${extra}
      <div><button type="submit">Show</button></div>
    </form>
    <p class="muted" id="period-range" data-from="${period.from.toISOString()}" data-to="${period.to.toISOString()}">
      ${period.firstDay} to ${period.lastDay}
    </p>
    ${problem(period.problem)}`;

const metricCell = (name: MetricName, metrics: Metrics, currency: string): string => {
  const value = metrics[name];
  if (name.endsWith('Cents')) return money(value, currency);
  if (name === 'approvalRate') return percent(value);
  if (name === 'roas') return ratio(value);
  return value === null ? '—' : count(value);
};

const overview = async ({ viewer, query }: SignedInRequest, useCases: ConsoleRouter['deps']['useCases']) => {
  const zone = viewer.dashboard.timezone;
  const period = periodOf(query, zone, new Date());
  const scope = { model: 'last' as const, isTest: false, filters: {} };
  const series = await useCases.getTimeseries.execute(viewer.dashboard.id, { ...scope, from: period.from, to: period.to, interval: 'day' });
  const top = await useCases.getBreakdown.execute(viewer.dashboard.id, {
    ...scope,
    from: period.from,
    to: period.to,
    by: ['utmSource', 'utmCampaign'],
    sort: 'paidGrossCents',
    limit: 10,
  });
  if (E.isLeft(series) || E.isLeft(top)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
  // Each currency's buckets added up, then the same metrics a report row has (domain/report.ts).
  const totals = series.right.series.map(({ currency, buckets }) => ({
    currency,
    ...metricsOf(
      buckets.reduce<CellTotals>((sum, bucket) => addTotals(sum, bucket), ZERO_TOTALS),
      buckets.reduce((sum, bucket) => sum + (bucket.spendCents ?? 0), 0),
      viewer.dashboard.taxRate,
    ),
  }));
  const cards = totals.map(
    (t) =>
      html`<h2>${t.currency}</h2>
        <dl class="cards" data-currency="${t.currency}">
          <div>
            <dt>Orders</dt>
            <dd data-metric="orders">${count(t.orders)}</dd>
          </div>
          <div>
            <dt>Paid revenue</dt>
            <dd data-metric="paidGrossCents" data-value="${t.paidGrossCents}">${money(t.paidGrossCents, t.currency)}</dd>
          </div>
          <div>
            <dt>Approval rate</dt>
            <dd data-metric="approvalRate">${percent(t.approvalRate)}</dd>
          </div>
          <div>
            <dt>Refunds</dt>
            <dd data-metric="refundedCents" data-value="${t.refundedCents}">${money(t.refundedCents, t.currency)}</dd>
          </div>
          <div>
            <dt>Chargebacks</dt>
            <dd data-metric="chargedbackCents" data-value="${t.chargedbackCents}">${money(t.chargedbackCents, t.currency)}</dd>
          </div>
          <div>
            <dt>Spend</dt>
            <dd data-metric="spendCents" data-value="${t.spendCents ?? 0}">${money(t.spendCents, t.currency)}</dd>
          </div>
          <div>
            <dt>ROAS</dt>
            <dd data-metric="roas">${ratio(t.roas)}</dd>
          </div>
        </dl>`,
  );
  const main = series.right.series[0];
  const chart =
    main === undefined
      ? ''
      : html`<h2>Paid revenue by day (${main.currency})</h2>
          ${barChart(
            `Paid revenue by day in ${main.currency}`,
            main.buckets.map((b) => ({ label: dateTime(new Date(b.start), zone).slice(0, 10), value: b.paidGrossCents })),
            (v) => money(v, main.currency),
          )}
          <details>
            <summary>The numbers of the chart</summary>
            <div class="scroll">
              <table>
                <caption class="muted">
                  Paid revenue and orders by day, ${main.currency}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col" class="num">Orders</th>
                    <th scope="col" class="num">Paid revenue</th>
                  </tr>
                </thead>
                <tbody>
                  ${main.buckets.map(
                    (b) =>
                      html`<tr>
                        <td>${dateTime(new Date(b.start), zone).slice(0, 10)}</td>
                        <td class="num">${count(b.orders)}</td>
                        <td class="num">${money(b.paidGrossCents, main.currency)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
          </details>`;
  const campaigns = html`<h2>Top campaigns</h2>
    ${breakdownTable(top.right.rows, ['utmSource', 'utmCampaign'], ['orders', 'paidGrossCents', 'approvalRate', 'spendCents', 'roas'])}`;
  return show(
    page(
      viewer,
      '/console/overview',
      'Overview',
      html`${notice(NOTICES[query.get('notice') ?? ''])}${periodForm('/console/overview', period)}${totals.length === 0 ? html`<p>No orders in this period.</p>` : cards}${chart}${campaigns}`,
    ),
  );
};

const breakdownTable = (rows: readonly BreakdownRow[], by: readonly ReportDimension[], metrics: readonly MetricName[]): Html =>
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

interface ReportForm {
  readonly by: ReportDimension[];
  readonly model: AttributionModel;
  readonly sort: MetricName;
  readonly isTest: boolean | undefined;
}

const reportFormOf = (query: URLSearchParams): ReportForm => {
  const by = ['by1', 'by2', 'by3']
    .map((k) => query.get(k) ?? '')
    .filter((v): v is ReportDimension => (REPORT_DIMENSIONS as readonly string[]).includes(v));
  const distinct = [...new Set(by)];
  const model = query.get('model') === 'first' ? 'first' : 'last';
  const sortName = query.get('sort') ?? 'paidGrossCents';
  const sort = (METRICS as readonly string[]).includes(sortName) ? (sortName as MetricName) : 'paidGrossCents';
  const test = query.get('isTest');
  return {
    by: distinct.length === 0 ? ['utmSource', 'utmCampaign'] : distinct,
    model,
    sort,
    isTest: test === 'true' ? true : test === 'all' ? undefined : false,
  };
};

const select = (name: string, label: string, options: readonly string[], chosen: string, empty?: string) =>
  html`<div>
    <label for="${name}">${label}</label
    ><select id="${name}" name="${name}">
      ${empty === undefined ? '' : html`<option value="">${empty}</option>`}${options.map(
        (o) => html`<option value="${o}" ${o === chosen ? html` selected` : ''}>${o}</option>`,
      )}
    </select>
  </div>`;

/**
 * The rows a Reports page shows, and a CSV holds (the API's most): a page of 1,000 rows is 500 KB of
 * HTML that takes the event loop about 40 ms to write (DECISIONS D23), and nobody reads it on a screen.
 */
const PAGE_ROWS = 200;
const CSV_ROWS = 1_000;

const reportOf = async ({ viewer, query }: SignedInRequest, useCases: ConsoleRouter['deps']['useCases'], limit: number) => {
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
    limit,
  });
  if (E.isLeft(breakdown)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
  return { period, form, breakdown: breakdown.right };
};

export const readingPages = (r: ConsoleRouter): void => {
  const { useCases } = r.deps;
  r.get('/console/overview', 'member', (request) => overview(request, useCases));

  r.get('/console/reports', 'member', async (request) => {
    const { period, form, breakdown } = await reportOf(request, useCases, PAGE_ROWS);
    const extra = html`${[0, 1, 2].map((i) => select(`by${i + 1}`, `Dimension ${i + 1}`, REPORT_DIMENSIONS, form.by[i] ?? '', i === 0 ? undefined : '(none)'))}
    ${select('model', 'Attribution', ATTRIBUTION_MODELS, form.model)} ${select('sort', 'Sort by', METRICS, form.sort)}
    ${select('isTest', 'Orders', ['false', 'true', 'all'], form.isTest === undefined ? 'all' : String(form.isTest))}`;
    const csv = `/console/reports.csv?${request.query.toString()}`;
    const shown =
      breakdown.totalRows > PAGE_ROWS
        ? `${count(breakdown.totalRows)} rows; the first ${count(PAGE_ROWS)} are shown, the CSV holds the first ${count(CSV_ROWS)}`
        : `${count(breakdown.totalRows)} rows`;
    return show(
      page(
        request.viewer,
        '/console/reports',
        'Reports',
        html`${periodForm('/console/reports', period, extra)}
          <p><a href="${csv}" download>Download as CSV</a> · ${shown}</p>
          ${breakdownTable(breakdown.rows, form.by, METRICS)}`,
      ),
    );
  });

  r.get('/console/reports.csv', 'member', async (request) => {
    const { form, breakdown } = await reportOf(request, useCases, CSV_ROWS);
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

  r.get('/console/orders', 'member', async ({ viewer, query }) => {
    const zone = viewer.dashboard.timezone;
    const status = (ORDER_STATUSES as readonly string[]).includes(query.get('status') ?? '')
      ? (query.get('status') as OrderStatus)
      : undefined;
    const pageNumber = Math.min(1_000_000, Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1));
    const from = query.get('from') ?? '';
    const to = query.get('to') ?? '';
    const listed = await useCases.listOrders.execute(viewer.dashboard.id, {
      ...(status === undefined ? {} : { status }),
      ...(isCalendarDate(from) ? { from: new Date(startOfDate(from, zone)) } : {}),
      ...(isCalendarDate(to) ? { to: new Date(startOfDate(nextDate(to), zone) - 1) } : {}),
      page: pageNumber,
      pageSize: 50,
    });
    const pages = Math.max(1, Math.ceil(listed.total / 50));
    const link = (p: number) => {
      const q = new URLSearchParams(query);
      q.set('page', String(p));
      return `/console/orders?${q.toString()}`;
    };
    return show(
      page(
        viewer,
        '/console/orders',
        'Orders',
        html`<form class="filters" method="get" action="/console/orders">
            ${select('status', 'Status', ORDER_STATUSES, status ?? '', 'Any')}
            <div><label for="from">From</label><input id="from" name="from" type="date" value="${isCalendarDate(from) ? from : ''}" /></div>
            <div><label for="to">To</label><input id="to" name="to" type="date" value="${isCalendarDate(to) ? to : ''}" /></div>
            <div><button type="submit">Filter</button></div>
          </form>
          <p class="muted">${count(listed.total)} orders · page ${pageNumber} of ${pages}</p>
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Created</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">Gross</th>
                  <th scope="col">Source / campaign</th>
                  <th scope="col">Payment</th>
                </tr>
              </thead>
              <tbody>
                ${listed.orders.map(
                  (o) =>
                    html`<tr>
                      <td>
                        <a href="/console/orders/${encodeURIComponent(o.externalId)}">${o.externalId}</a
                        >${o.isTest ? html` <span class="muted">(test)</span>` : ''}
                      </td>
                      <td>${dateTime(o.createdAt, zone)}</td>
                      <td>${o.status}</td>
                      <td class="num">${money(o.amounts.grossCents, o.amounts.currency)}</td>
                      <td>${o.tracking.utmSource} / ${o.tracking.utmCampaign}</td>
                      <td>${o.paymentMethod}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          <nav class="pages" aria-label="Pages">
            ${pageNumber > 1 ? html`<a href="${link(pageNumber - 1)}">Previous page</a>` : ''}${pageNumber < pages ? html`<a href="${link(pageNumber + 1)}">Next page</a>` : ''}
          </nav>`,
      ),
    );
  });

  r.get('/console/orders/:externalId', 'member', async ({ ctx, viewer }) => {
    const zone = viewer.dashboard.timezone;
    const found = await useCases.getOrder.execute(viewer.dashboard.id, param(ctx, 'externalId'));
    if (E.isLeft(found)) throw new ConsoleRefusal(404, 'There is no such order in this dashboard.');
    const o = found.right;
    const history: [string, Date | undefined][] = [
      ['Created', o.createdAt],
      ['Paid', o.paidAt],
      ['Refunded', o.refundedAt],
      ['Charged back', o.chargedbackAt],
      [`Last changed (version ${o.version})`, o.updatedAt],
    ];
    return show(
      page(
        viewer,
        '/console/orders',
        `Order ${o.externalId}`,
        html`<dl class="cards">
            <div>
              <dt>Status</dt>
              <dd>${o.status}</dd>
            </div>
            <div>
              <dt>Gross</dt>
              <dd>${money(o.amounts.grossCents, o.amounts.currency)}</dd>
            </div>
            <div>
              <dt>Net to seller</dt>
              <dd>${money(o.amounts.netToSellerCents, o.amounts.currency)}</dd>
            </div>
            <div>
              <dt>Payment</dt>
              <dd>${o.paymentMethod}</dd>
            </div>
            <div>
              <dt>Platform</dt>
              <dd>${o.platform}</dd>
            </div>
          </dl>
          <h2>Events</h2>
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                ${history
                  .filter(([, at]) => at !== undefined)
                  .map(
                    ([what, at]) =>
                      html`<tr>
                        <td>${what}</td>
                        <td>${dateTime(at!, zone)}</td>
                      </tr>`,
                  )}
              </tbody>
            </table>
          </div>
          <h2>Attribution</h2>
          <p>${o.tracking.utmSource} / ${o.tracking.utmMedium} / ${o.tracking.utmCampaign}</p>
          <h2>Products</h2>
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col" class="num">Quantity</th>
                  <th scope="col" class="num">Unit price</th>
                </tr>
              </thead>
              <tbody>
                ${o.products.map(
                  (p) =>
                    html`<tr>
                      <td>${p.name}</td>
                      <td class="num">${count(p.quantity)}</td>
                      <td class="num">${money(p.unitPriceCents, o.amounts.currency)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          <p><a href="/console/orders">All orders</a></p>`,
      ),
    );
  });
};
