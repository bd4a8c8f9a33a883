import * as E from 'fp-ts/Either';
import { COSTS_CSV_HEADER, parseCostsCsv } from '../../../application/costs/costs-csv';
import { redirect, show } from '../kit/answers';
import type { ConsoleFeature } from '../kit/feature';
import { counted, money } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { csrfField, notice, page, problem, type Viewer } from '../kit/layout';
import type { PostRequest } from '../kit/router';
import { csvRefusal } from './csv-refusal';

/** As many cost entries as the page lists, in the store's order (product, currency, from). */
const LISTED = 200;

const costsPage = (viewer: Viewer, entries: Html, result?: Fragment) =>
  page(
    viewer,
    '/console/costs',
    'Product costs',
    html`${result ?? ''}
      ${
        viewer.role === 'owner'
          ? html`<h2>Upload a CSV</h2>
              <p>
                One line per product, currency and first day, with the header <code>${COSTS_CSV_HEADER.join(',')}</code>; unit costs in
                units of the currency (<code>12.50</code>). Each line sets the product's cost from that day on; every line is checked first,
                and nothing is stored when one is wrong.
              </p>
              <form class="stack" method="post" action="/console/costs" enctype="multipart/form-data">
                ${csrfField(viewer)}
                <div><label for="file">CSV file</label><input id="file" name="file" type="file" accept=".csv,text/csv" required /></div>
                <div><button type="submit">Upload</button></div>
              </form>`
          : ''
      }
      <h2>Costs</h2>
      ${entries}`,
  );

/** Product costs (DECISIONS D20, D22): every member reads them; owners upload them as the CLI's `costs import` reads them. */
export const costsFeature: ConsoleFeature = {
  menu: { path: '/console/costs', label: 'Costs', access: 'member' },
  register: (r) => {
    const { useCases } = r.deps;

    const entriesOf = async (viewer: Viewer): Promise<Html> => {
      const listed = await useCases.listProductCosts.execute(viewer.dashboard.id, { pageSize: LISTED });
      if (listed.entries.length === 0) return html`<p>No product cost yet: profit counts the units without one.</p>`;
      return html`${listed.more ? html`<p class="muted">The first ${LISTED} entries.</p>` : ''}
        <div class="scroll" tabindex="0" role="region" aria-label="Product costs">
          <table class="keyed">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Currency</th>
                <th scope="col" class="num">Unit cost</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              ${listed.entries.map(
                (e) =>
                  html`<tr>
                    <th scope="row">${e.product}</th>
                    <td>${e.currency}</td>
                    <td class="num">${money(e.unitCostCents, e.currency)}</td>
                    <td>${e.from}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`;
    };

    r.get('/console/costs', 'member', async ({ viewer }) => show(costsPage(viewer, await entriesOf(viewer), r.flashes.take(viewer))));
    r.post(
      '/console/costs',
      'owner',
      async ({ viewer, file }: PostRequest) => {
        const answer = async (result: Fragment, status?: number) => show(costsPage(viewer, await entriesOf(viewer), result), status);
        if (file === undefined || file.length === 0) return answer(problem('Choose a CSV file to upload.'), 400);
        const read = await parseCostsCsv(file);
        if (E.isLeft(read)) {
          const { result, status } = csvRefusal(read.left);
          return answer(result, status);
        }
        const upserted = await useCases.putProductCosts.execute(viewer.dashboard.id, read.right);
        r.flashes.put(viewer, notice(`${counted(upserted, 'cost', 'costs')} stored.`));
        return redirect('/console/costs');
      },
      'file',
    );
  },
};
