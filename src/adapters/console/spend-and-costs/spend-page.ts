import { parseSpendCsv, SPEND_CSV_ALIASES, SPEND_CSV_HEADER } from '../../../application/spend/spend-csv';
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
      ${csvUploadForm(viewer, '/console/spend', {
        lines: 'One line per day and campaign: it sets that day’s amount.',
        header: SPEND_CSV_HEADER,
        aliases: SPEND_CSV_ALIASES,
        optional: ['utm_medium', 'utm_content'],
        values: html`Amounts in units of the currency (<code>1234.50</code>), days as <code>2026-03-01</code>.`,
      })}
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
      store: (viewer, entries) => useCases.importSpend.execute(viewer.dashboard.id, entries),
      stored: (upserted) => `${counted(upserted, 'entry', 'entries')} stored.`,
      page: async (viewer, refusal) => spendPage(viewer, await entriesOf(viewer, 1), refusal),
    });
  },
};
