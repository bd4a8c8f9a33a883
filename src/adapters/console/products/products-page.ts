import * as E from 'fp-ts/Either';
import { PRODUCT_METRICS, type ProductRow } from '../../../domain/product-report';
import { ConsoleRefusal, show } from '../kit/answers';
import { changeInCell, comparedWith } from '../kit/comparison';
import type { ConsoleFeature } from '../kit/feature';
import { count, money } from '../kit/format';
import { html } from '../kit/html';
import { page } from '../kit/layout';
import { lossMarked, uncostedInCell } from '../kit/profit';
import { table, type Column } from '../kit/table';
import { periodForm, periodOf } from '../kit/period';
import type { ConsoleRouter, SignedInRequest } from '../kit/router';
import { PRODUCT_METRIC_WORDS } from '../kit/words';

/** As many products as a page shows: the report ranks them by paid revenue. */
const LIMIT = 100;

const products = async ({ viewer, query }: SignedInRequest, useCases: ConsoleRouter['deps']['useCases']) => {
  const period = periodOf(query, viewer.dashboard.timezone, new Date());
  const report = await useCases.getProducts.execute(viewer.dashboard.id, {
    model: 'last',
    isTest: false,
    filters: {},
    from: period.from,
    to: period.to,
    sort: 'paidRevenueCents',
    limit: LIMIT,
    compare: 'previous',
  });
  if (E.isLeft(report)) throw new ConsoleRefusal(404, 'This dashboard no longer exists.');
  const rows = report.right.rows;
  const products = table({
    label: 'Products',
    report: true,
    rows,
    empty: html`<p>No product sold in this period.</p>`,
    rowData: (row) => ({ 'data-product': row.product }),
    columns: [
      { header: 'Product', rowHeader: true, cell: (row) => html`${row.name} <span class="muted">${row.product}</span>` },
      { header: 'Currency', cell: (row) => row.currency },
      ...PRODUCT_METRICS.map((m): Column<ProductRow> => {
        const { label, kind, profit } = PRODUCT_METRIC_WORDS[m];
        return {
          header: label,
          align: 'end',
          data: { 'data-metric': m },
          cell: (row) => {
            const text = kind === 'money' ? money(row[m], row.currency) : count(row[m]);
            return html`${profit === true ? lossMarked(row[m], text) : text} ${changeInCell(row[m], row.previous?.[m])}
            ${profit === true ? uncostedInCell(row.uncostedUnits) : ''}`;
          },
        };
      }),
    ],
  });
  return show(
    page(
      viewer,
      '/console/products',
      'Products',
      html`${periodForm('/console/products', period)}${rows.length === 0 ? '' : comparedWith(period)}${products}`,
    ),
  );
};

/** The products report (decisions 0020, 0022): what each product sold and left over the period, against the one before. */
export const productsFeature: ConsoleFeature = {
  menu: { path: '/console/products', label: 'Products', access: 'member' },
  register: (r) => r.get('/console/products', 'member', (request) => products(request, r.deps.useCases)),
};
