import { COSTS_CSV_ALIASES, COSTS_CSV_HEADER, parseCostsCsv } from '../../../application/costs/costs-csv';
import { registerCsvUpload } from '../kit/csv-upload';
import type { ConsoleFeature } from '../kit/feature';
import { counted } from '../kit/format';
import { html } from '../kit/html';
import { table } from '../kit/table';
import { registerUncostedCsv, uncostedSection } from './uncosted-products';

/** As many cost entries as the page lists, in the store's order (product, currency, from). */
const LISTED = 200;

/**
 * Product costs (decisions 0020, 0022): every member reads them and the products sold without one;
 * owners upload them as the CLI's `costs import` reads them.
 */
export const costsFeature: ConsoleFeature = {
  menu: { path: '/console/costs', label: 'Costs', access: 'member' },
  register: (r) => {
    const { useCases } = r.deps;
    registerUncostedCsv(r);
    registerCsvUpload(r, {
      path: '/console/costs',
      title: 'Product costs',
      access: 'owner',
      help: {
        lines: 'One line per product, currency and first day: it sets the product’s cost from that day on.',
        header: COSTS_CSV_HEADER,
        aliases: COSTS_CSV_ALIASES,
        values: html`Unit costs in units of the currency (<code>12.50</code>), days as <code>2026-03-01</code>.`,
      },
      shows: async (viewer, query) => {
        const listed = await useCases.listProductCosts.execute(viewer.dashboard.id, { pageSize: LISTED });
        const entries =
          listed.entries.length === 0
            ? html`<p>No product cost yet: profit counts the units without one.</p>`
            : html`${listed.more ? html`<p class="muted">The first ${LISTED} entries.</p>` : ''}
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
        return html`${await uncostedSection(useCases, viewer, query)}
          <h2>Costs</h2>
          ${entries}`;
      },
      parse: parseCostsCsv,
      store: (viewer, entries) => useCases.importProductCosts.execute(viewer.dashboard.id, entries),
      stored: (upserted) => `${counted(upserted, 'cost', 'costs')} stored.`,
    });
  },
};
