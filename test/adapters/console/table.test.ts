import { expect } from 'chai';
import { html } from '../../../src/adapters/console/kit/html';
import { lossMarked } from '../../../src/adapters/console/kit/profit';
import { table, type Column } from '../../../src/adapters/console/kit/table';

interface Entry {
  readonly name: string;
  readonly units: number;
  readonly cents: number | null;
}

const COLUMNS: readonly Column<Entry>[] = [
  { header: 'Name', rowHeader: true, cell: (e) => e.name },
  { header: 'Units', count: (e) => e.units, data: { 'data-metric': 'units' } },
  { header: 'Amount', money: (e) => ({ cents: e.cents, currency: 'BRL' }), sort: { href: '/x?sort=amount&order=asc', now: 'descending' } },
];

const squeezed = (markup: string): string => markup.replace(/\s+/g, ' ').replace(/> </g, '><').trim();

describe('the console’s table component', () => {
  it('builds the region, the headings and a row per entry from the columns declared once, text escaped', () => {
    const markup = squeezed(
      table({
        label: 'Entries',
        columns: COLUMNS,
        rows: [{ name: '<b>Shirt</b> & co', units: 1234, cents: -54_099 }],
        rowData: (e) => ({ 'data-name': e.name }),
      }).markup,
    );
    expect(markup).to.equal(
      squeezed(`<div class="scroll" tabindex="0" role="region" aria-label="Entries">
        <table class="keyed">
          <thead><tr>
            <th scope="col">Name</th>
            <th scope="col" class="num" data-metric="units">Units</th>
            <th scope="col" class="num" aria-sort="descending"><a href="/x?sort=amount&amp;order=asc">Amount</a></th>
          </tr></thead>
          <tbody>
            <tr data-name="&lt;b&gt;Shirt&lt;/b&gt; &amp; co">
              <th scope="row">&lt;b&gt;Shirt&lt;/b&gt; &amp; co</th>
              <td class="num" data-metric="units">1,234</td>
              <td class="num">-R$540.99</td>
            </tr>
          </tbody>
        </table>
      </div>`),
    );
  });

  it('says what is empty instead of a table of headings, when told what to say', () => {
    expect(table({ label: 'Entries', columns: COLUMNS, rows: [], empty: html`<p>Nothing yet.</p>` }).markup).to.equal(
      '<p>Nothing yet.</p>',
    );
    expect(table({ label: 'Entries', columns: COLUMNS, rows: [] }).markup).to.contain('<tbody>');
  });

  it('marks a report table, and refuses an attribute name it would not escape', () => {
    expect(table({ label: 'Report', columns: COLUMNS, rows: [], report: true }).markup).to.contain('<table class="keyed report">');
    const bad = { 'data-x" onclick="alert(1)': 'v' } as Column<Entry>['data'];
    expect(() => table({ label: 'Entries', columns: [{ header: 'Name', cell: (e: Entry) => e.name, data: bad }], rows: [] })).to.throw(
      /not a data attribute name/,
    );
  });

  it('marks a loss with its sign, the class of losses and the word, and nothing else', () => {
    expect(lossMarked(-54_099, '-R$540.99').markup).to.equal(
      '<span class="loss" data-loss>-R$540.99 <span class="loss-word">loss</span></span>',
    );
    expect(lossMarked(0, 'R$0.00').markup).to.equal('R$0.00');
    expect(lossMarked(null, '—').markup).to.equal('—');
  });
});
