import { parseSpendCsv, SPEND_CSV_HEADER } from '../../../application/spend/spend-csv';
import { MAX_SPEND_ENTRIES } from '../../../domain/spend';
import { show } from '../kit/answers';
import { csvUploadForm, registerCsvUpload } from '../kit/csv-upload';
import type { ConsoleFeature } from '../kit/feature';
import { count, counted } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { page, type Viewer } from '../kit/layout';
import { table } from '../kit/table';

const spendPage = (viewer: Viewer, entries: Html, result?: Fragment) =>
  page(
    viewer,
    '/console/spend',
    'Spend',
    html`${result ?? ''}
      ${csvUploadForm(
        viewer,
        '/console/spend',
        html`One line per day and campaign, with the header <code>${SPEND_CSV_HEADER.join(',')}</code>; amounts in units of the currency
          (<code>1234.50</code>). Each line sets that day's amount; every line is checked first, and nothing is stored when one is wrong.`,
      )}
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
        ${table({
          label: 'Spend entries',
          rows: listed.entries,
          columns: [
            { header: 'Day', cell: (e) => e.date },
            { header: 'Source', cell: (e) => e.utmSource },
            { header: 'Medium', cell: (e) => e.utmMedium },
            { header: 'Campaign', cell: (e) => e.utmCampaign },
            { header: 'Content', cell: (e) => e.utmContent },
            { header: 'Amount', money: (e) => ({ cents: e.amountCents, currency: e.currency }) },
          ],
        })}`;
    };

    r.get('/console/spend', 'member', async ({ viewer }) => show(spendPage(viewer, await entriesOf(viewer, 1), r.flashes.take(viewer))));
    registerCsvUpload(r, {
      path: '/console/spend',
      access: 'member',
      parse: parseSpendCsv,
      store: async (viewer, entries) => {
        let upserted = 0;
        for (let at = 0; at < entries.length; at += MAX_SPEND_ENTRIES)
          upserted += await useCases.putSpend.execute(viewer.dashboard.id, entries.slice(at, at + MAX_SPEND_ENTRIES));
        return upserted;
      },
      stored: (upserted) => `${counted(upserted, 'entry', 'entries')} stored.`,
      page: async (viewer, refusal) => spendPage(viewer, await entriesOf(viewer, 1), refusal),
    });
  },
};
