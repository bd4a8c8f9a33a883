import { parseSpendCsv, SPEND_CSV_ALIASES, SPEND_CSV_HEADER } from '../../../application/spend/spend-csv';
import { registerCsvUpload } from '../kit/csv-upload';
import type { ConsoleFeature } from '../kit/feature';
import { count, counted } from '../kit/format';
import { html } from '../kit/html';
import { table } from '../kit/table';

/** Spend (decisions 0016, 0018): the entries, newest days first, and the CSV upload. */
export const spendFeature: ConsoleFeature = {
  menu: { path: '/console/spend', label: 'Spend', access: 'member' },
  register: (r) => {
    const { useCases } = r.deps;
    registerCsvUpload(r, {
      path: '/console/spend',
      title: 'Spend',
      access: 'member',
      help: {
        lines: 'One line per day and campaign: it sets that day’s amount.',
        header: SPEND_CSV_HEADER,
        aliases: SPEND_CSV_ALIASES,
        optional: ['utm_medium', 'utm_content'],
        values: html`Amounts in units of the currency (<code>1234.50</code>), days as <code>2026-03-01</code>.`,
      },
      shows: async (viewer) => {
        const listed = await useCases.listSpend.execute(viewer.dashboard.id, { page: 1, pageSize: 100 });
        if (listed.entries.length === 0)
          return html`<h2>Entries</h2>
            <p>No spend yet.</p>`;
        return html`<h2>Entries</h2>
          <p class="muted">${count(listed.total)} entries, newest days first.</p>
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
      },
      parse: parseSpendCsv,
      store: (viewer, entries) => useCases.importSpend.execute(viewer.dashboard.id, entries),
      stored: (upserted) => `${counted(upserted, 'entry', 'entries')} stored.`,
    });
  },
};
