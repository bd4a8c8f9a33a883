import * as E from 'fp-ts/Either';
import { parseSpendCsv, SPEND_CSV_HEADER } from '../../../application/spend/spend-csv';
import { MAX_SPEND_ENTRIES } from '../../../domain/spend';
import { redirect, show } from '../kit/answers';
import { csvRefusal } from './csv-refusal';
import type { ConsoleFeature } from '../kit/feature';
import { count, counted, money } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { csrfField, notice, page, problem, type Viewer } from '../kit/layout';
import type { PostRequest } from '../kit/router';

const spendPage = (viewer: Viewer, entries: Html, result?: Fragment) =>
  page(
    viewer,
    '/console/spend',
    'Spend',
    html`${result ?? ''}
      <h2>Upload a CSV</h2>
      <p>
        One line per day and campaign, with the header <code>${SPEND_CSV_HEADER.join(',')}</code>; amounts in units of the currency
        (<code>1234.50</code>). Each line sets that day's amount; every line is checked first, and nothing is stored when one is wrong.
      </p>
      <form class="stack" method="post" action="/console/spend" enctype="multipart/form-data">
        ${csrfField(viewer)}
        <div><label for="file">CSV file</label><input id="file" name="file" type="file" accept=".csv,text/csv" required /></div>
        <div><button type="submit">Upload</button></div>
      </form>
      <h2>Entries</h2>
      ${entries}`,
  );

/** Spend (DECISIONS D16, D18): the entries, newest days first, and the CSV upload. */
export const spendFeature: ConsoleFeature = {
  menu: { path: '/console/spend', label: 'Spend', access: 'member' },
  register: (r) => {
    const { useCases } = r.deps;

    const entriesOf = async (viewer: Viewer, pageNumber: number): Promise<Html> => {
      const listed = await useCases.listSpend.execute(viewer.dashboard.id, { page: pageNumber, pageSize: 100 });
      if (listed.entries.length === 0) return html`<p>No spend yet.</p>`;
      return html`<p class="muted">${count(listed.total)} entries, newest days first.</p>
        <div class="scroll" tabindex="0" role="region" aria-label="Spend entries">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Source</th>
                <th scope="col">Medium</th>
                <th scope="col">Campaign</th>
                <th scope="col">Content</th>
                <th scope="col" class="num">Amount</th>
              </tr>
            </thead>
            <tbody>
              ${listed.entries.map(
                (e) =>
                  html`<tr>
                    <td>${e.date}</td>
                    <td>${e.utmSource}</td>
                    <td>${e.utmMedium}</td>
                    <td>${e.utmCampaign}</td>
                    <td>${e.utmContent}</td>
                    <td class="num">${money(e.amountCents, e.currency)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`;
    };

    r.get('/console/spend', 'member', async ({ viewer }) => show(spendPage(viewer, await entriesOf(viewer, 1), r.flashes.take(viewer))));
    r.post(
      '/console/spend',
      'member',
      async ({ viewer, file }: PostRequest) => {
        const answer = async (result: Fragment, status?: number) => show(spendPage(viewer, await entriesOf(viewer, 1), result), status);
        if (file === undefined || file.length === 0) return answer(problem('Choose a CSV file to upload.'), 400);
        const read = await parseSpendCsv(file);
        if (E.isLeft(read)) {
          const { result, status } = csvRefusal(read.left);
          return answer(result, status);
        }
        const entries = read.right;
        let upserted = 0;
        for (let at = 0; at < entries.length; at += MAX_SPEND_ENTRIES)
          upserted += await useCases.putSpend.execute(viewer.dashboard.id, entries.slice(at, at + MAX_SPEND_ENTRIES));
        r.flashes.put(viewer, notice(`${counted(upserted, 'entry', 'entries')} stored.`));
        return redirect('/console/spend');
      },
      'file',
    );
  },
};
