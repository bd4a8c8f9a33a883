import type { SortOrder } from '../../../application/ports/report-reader';
import { count, money } from './format';
import { html, trusted, type Fragment, type Html } from './html';

/** `data-…` attributes of a row or a column's cells: what they show, for a script or a test to find. */
export type DataAttributes = Readonly<Record<`data-${string}`, string>>;

/**
 * How a heading orders its table: where a click on it leads, and the order it shows now, if it orders
 * the table (`aria-sort` for a screen reader; the stylesheet draws an arrow after it for the eye).
 */
export interface ColumnSort {
  readonly href: string;
  readonly now?: SortOrder;
}

interface ColumnBase {
  readonly header: Fragment;
  /** The column that names each row: its cells are row headers, and it stays in view while the table scrolls sideways. */
  readonly rowHeader?: boolean;
  /** Numbers line up on their last digit; text starts at the left. */
  readonly align?: 'start' | 'end';
  /** On the heading and on each cell. */
  readonly data?: DataAttributes;
  readonly sort?: ColumnSort;
}

/**
 * One column of a table, declared once: its heading and how a row fills its cell, either any markup
 * (`cell`) or a figure the table formats (`count`, `money`: aligned as numbers).
 */
export type Column<Row> = ColumnBase &
  (
    | { readonly cell: (row: Row) => Fragment }
    | { readonly count: (row: Row) => number }
    | { readonly money: (row: Row) => { readonly cents: number | null; readonly currency: string } }
  );

export interface TableOf<Row> {
  /** Names the region that scrolls the table sideways, which keyboard users reach with Tab. */
  readonly label: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  /** Shown instead of the table when there are no rows; without it, the table shows its headings alone. */
  readonly empty?: Fragment;
  readonly caption?: Fragment;
  readonly rowData?: (row: Row) => DataAttributes;
  /**
   * A report's figures: the table takes the window's width rather than the page's column, and names
   * break only where a space or a hyphen lets them.
   */
  readonly report?: boolean;
}

const ATTRIBUTE_NAME = /^data-[a-z][a-z0-9-]*$/;

/** Attribute names come from the console's code, never from a request; checked anyway, as they are not escaped. */
const attributes = (data: DataAttributes | undefined): Fragment =>
  Object.entries(data ?? {}).map(([name, value]) => {
    if (!ATTRIBUTE_NAME.test(name)) throw new Error(`not a data attribute name: ${name}`);
    return html` ${trusted(name)}="${value}"`;
  });

/** A number's cell: aligned on its last digit. Each attribute fragment starts with its space, so that the markup has none to spare. */
const numClass = <Row>(column: Column<Row>): Fragment =>
  column.align === 'end' || 'count' in column || 'money' in column ? html` class="num"` : '';

const contentOf = <Row>(column: Column<Row>, row: Row): Fragment => {
  if ('count' in column) return count(column.count(row));
  if ('money' in column) {
    const { cents, currency } = column.money(row);
    return money(cents, currency);
  }
  return column.cell(row);
};

const heading = <Row>(column: Column<Row>): Html => {
  const sort = column.sort;
  const label = sort === undefined ? column.header : html`<a href="${sort.href}">${column.header}</a>`;
  const sorted = sort?.now === undefined ? '' : html` aria-sort="${sort.now}"`;
  const attributed = html` scope="col"${numClass(column)}${sorted}${attributes(column.data)}`;
  return html`<th${attributed}>${label}</th>`;
};

const cell = <Row>(column: Column<Row>, row: Row): Html => {
  const attributed = html`${numClass(column)}${attributes(column.data)}`;
  return column.rowHeader === true
    ? html`<th${html` scope="row"${attributed}`}>${contentOf(column, row)}</th>`
    : html`<td${attributed}>${contentOf(column, row)}</td>`;
};

/**
 * A table in its scrolling region: every console table is one, so a page says what its columns show
 * and not how the markup is built. The region scrolls sideways within its box (a phone's 375 px
 * included) and by keyboard; a table whose first column names its rows keeps that column in view.
 */
export const table = <Row>(spec: TableOf<Row>): Html => {
  if (spec.rows.length === 0 && spec.empty !== undefined) return html`${spec.empty}`;
  const classes = [spec.columns[0]?.rowHeader === true ? 'keyed' : '', spec.report === true ? 'report' : ''].filter((c) => c !== '');
  return html`<div class="scroll" tabindex="0" role="region" aria-label="${spec.label}">
    <table${classes.length === 0 ? '' : html` class="${classes.join(' ')}"`}>
      ${
        spec.caption === undefined
          ? ''
          : html`<caption class="muted">
              ${spec.caption}
            </caption>`
      }
      <thead>
        <tr>
          ${spec.columns.map(heading)}
        </tr>
      </thead>
      <tbody>
        ${spec.rows.map(
          (row) =>
            html`<tr${attributes(spec.rowData?.(row))}>
              ${spec.columns.map((column) => cell(column, row))}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
};
