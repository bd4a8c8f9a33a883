import * as E from 'fp-ts/Either';
import { PRODUCT_METRICS } from '../../../domain/product-report';
import { ConsoleRefusal, show } from '../kit/answers';
import { changeInCell, comparedWith } from '../kit/comparison';
import type { ConsoleFeature } from '../kit/feature';
import { count, money } from '../kit/format';
import { html } from '../kit/html';
import { page } from '../kit/layout';
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
  const table =
    rows.length === 0
      ? html`<p>No product sold in this period.</p>`
      : html`${comparedWith(period)}
          <div class="scroll" tabindex="0" role="region" aria-label="Products">
            <table class="keyed">
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Currency</th>
                  ${PRODUCT_METRICS.map((m) => html`<th scope="col" class="num" data-metric="${m}">${PRODUCT_METRIC_WORDS[m].label}</th>`)}
                </tr>
              </thead>
              <tbody>
                ${rows.map(
                  (row) =>
                    html`<tr data-product="${row.product}">
                      <th scope="row">${row.name} <span class="muted">${row.product}</span></th>
                      <td>${row.currency}</td>
                      ${PRODUCT_METRICS.map(
                        (m) =>
                          html`<td class="num" data-metric="${m}">
                            ${PRODUCT_METRIC_WORDS[m].kind === 'money' ? money(row[m], row.currency) : count(row[m])}
                            ${changeInCell(row[m], row.previous?.[m])}
                          </td>`,
                      )}
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`;
  return show(page(viewer, '/console/products', 'Products', html`${periodForm('/console/products', period)}${table}`));
};

/** The products report (DECISIONS D20, D22): what each product sold and left over the period, against the one before. */
export const productsFeature: ConsoleFeature = {
  menu: { path: '/console/products', label: 'Products', access: 'member' },
  register: (r) => r.get('/console/products', 'member', (request) => products(request, r.deps.useCases)),
};
