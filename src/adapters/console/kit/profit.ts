import * as E from 'fp-ts/Either';
import type { ReportScope } from '../../../domain/report';
import { counted } from './format';
import { html, type Html } from './html';
import type { Period } from './period';
import type { ConsoleRouter } from './router';

/**
 * A figure of profit (profit, margin, ROI, contribution, gross margin) as a person reads it: below
 * zero it keeps its sign and says "loss" in the colour of losses, so that a loss never rests on colour.
 */
export const lossMarked = (value: number | null, text: string): Html =>
  value !== null && value < 0 ? html`<span class="loss" data-loss>${text} <span class="loss-word">loss</span></span>` : html`${text}`;

/** Where the units sold without a cost get one. */
const COSTS_PAGE = '/console/costs';

/** The units a figure counts without a product cost, and how many products they are of, when that is known. */
export interface Uncosted {
  readonly units: number;
  readonly products?: number;
  /** The products were counted up to a limit: there are at least `products`. */
  readonly atLeast?: boolean;
}

const unitsOf = ({ units, products, atLeast }: Uncosted): string =>
  products === undefined || products === 0
    ? counted(units, 'unit')
    : `${counted(units, 'unit')} of ${atLeast === true ? `${counted(products, 'product')} or more` : counted(products, 'product')}`;

/**
 * Under a figure of profit in a table's row: how many of its units have no cost (profit counts them at
 * none), linked to the Costs page; nothing when every unit has one.
 */
export const uncostedInCell = (units: number): Html =>
  units > 0
    ? html`<a class="uncosted" href="${COSTS_PAGE}" data-uncosted-units="${units}">Incomplete: ${counted(units, 'unit')} without a cost</a>`
    : html``;

/** Beside a card's or a table's figure of profit: the units without a cost, of how many products, and the way to add their costs. */
export const uncostedNote = (uncosted: Uncosted, tag: 'dd' | 'p' = 'p'): Html => {
  if (uncosted.units <= 0) return html``;
  const words = html`Incomplete: ${unitsOf(uncosted)} without a cost. <a href="${COSTS_PAGE}">Add their costs</a>`;
  const data = { units: uncosted.units, products: uncosted.products ?? '' };
  return tag === 'dd'
    ? html`<dd class="uncosted" data-uncosted-units="${data.units}" data-uncosted-products="${data.products}">${words}</dd>`
    : html`<p class="uncosted" data-uncosted-units="${data.units}" data-uncosted-products="${data.products}">${words}</p>`;
};

/** As many products as the count of those without a cost reads: a page says "or more" beyond it. */
const COUNTED_PRODUCTS = 1_000;

/**
 * The products sold without a cost in a period and scope, per currency and in all: the products
 * report's rows ranked by their units without a cost, so those come first, counted up to its limit.
 */
export const uncostedProducts = async (
  useCases: ConsoleRouter['deps']['useCases'],
  dashboardId: string,
  period: Period,
  scope: ReportScope,
): Promise<{ readonly byCurrency: ReadonlyMap<string, Uncosted>; readonly all: Uncosted }> => {
  const report = await useCases.getProducts.execute(dashboardId, {
    ...scope,
    from: period.from,
    to: period.to,
    sort: 'uncostedUnits',
    limit: COUNTED_PRODUCTS,
  });
  const rows = E.isRight(report) ? report.right.rows.filter((row) => row.uncostedUnits > 0) : [];
  const atLeast = rows.length === COUNTED_PRODUCTS;
  const byCurrency = new Map<string, Uncosted>();
  for (const row of rows) {
    const sum = byCurrency.get(row.currency) ?? { units: 0, products: 0, atLeast };
    byCurrency.set(row.currency, { units: sum.units + row.uncostedUnits, products: sum.products! + 1, atLeast });
  }
  const all = {
    units: rows.reduce((sum, row) => sum + row.uncostedUnits, 0),
    // A product sold in two currencies is one product.
    products: new Set(rows.map((row) => row.product)).size,
    atLeast,
  };
  return { byCurrency, all };
};
