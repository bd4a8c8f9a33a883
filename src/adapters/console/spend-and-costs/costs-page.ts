import { COSTS_CSV_ALIASES, COSTS_CSV_HEADER, parseCostsCsv } from '../../../application/costs/costs-csv';
import { show } from '../kit/answers';
import { csvUploadForm, registerCsvUpload } from '../kit/csv-upload';
import type { ConsoleFeature } from '../kit/feature';
import { counted } from '../kit/format';
import { html, type Fragment, type Html } from '../kit/html';
import { page, type Viewer } from '../kit/layout';
import { table } from '../kit/table';

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
          ? csvUploadForm(viewer, '/console/costs', {
              lines: 'One line per product, currency and first day: it sets the product’s cost from that day on.',
              header: COSTS_CSV_HEADER,
              aliases: COSTS_CSV_ALIASES,
              values: html`Unit costs in units of the currency (<code>12.50</code>), days as <code>2026-03-01</code>.`,
            })
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
      ${table({
        label: 'Product costs',
        rows: listed.entries,
        columns: [
          { header: 'Product', rowHeader: true, cell: (e) => e.product },
          { header: 'Currency', cell: (e) => e.currency },
          { header: 'Unit cost', money: (e) => ({ cents: e.unitCostCents, currency: e.currency }) },
          { header: 'From', cell: (e) => e.from },
        ],
      })}`;
    };

    r.get('/console/costs', 'member', async ({ viewer }) => show(costsPage(viewer, await entriesOf(viewer), r.flashes.take(viewer))));
    registerCsvUpload(r, {
      path: '/console/costs',
      access: 'owner',
      parse: parseCostsCsv,
      store: (viewer, entries) => useCases.importProductCosts.execute(viewer.dashboard.id, entries),
      stored: (upserted) => `${counted(upserted, 'cost', 'costs')} stored.`,
      page: async (viewer, refusal) => costsPage(viewer, await entriesOf(viewer), refusal),
    });
  },
};
