import type { OrderStatus } from '../../../domain/order-status';
import type { UnitCostOf } from '../../../domain/product-cost';
import { costTotalsOf, reportLineOf, type ReportLine } from '../../../domain/report';
import type { OrderRow } from '../orders/order-rows';

/**
 * A priced row: an order's row as a write binds it, with what the rollups' cost sums take from it
 * (rollup-costs.ts prices it): its lines, and the unit cost of each product its paid lines hold and
 * of each of their cost aliases (none for an order not paid), from which both the order's cost
 * totals and each product's are made, so that one movement of prices moves the campaign rollups and
 * the products rollup alike.
 */
const PRODUCT_COST_CENTS = 'product_cost_cents';
const UNCOSTED_UNITS = 'uncosted_units';
/** Beside the columns, under a key no column has. */
const PRICING: unique symbol = Symbol('pricing');

interface Pricing {
  readonly lines: readonly ReportLine[];
  /** By product or cost alias: what the price list gives each name, before a line picks its own (unitCostOfLine). */
  readonly unitCosts: ReadonlyMap<string, number | undefined>;
}

type Priced = OrderRow & { readonly [PRICING]?: Pricing };

/** The lines of an order row, as a report reads them. */
const linesOf = (row: OrderRow): ReportLine[] =>
  (
    JSON.parse(row['products'] as string) as { name: string; quantity: number; unitPriceCents: number; externalId?: string; sku?: string }[]
  ).map(reportLineOf);

const NO_COSTS: ReadonlyMap<string, number | undefined> = new Map();

/** `row` priced under `unitCostOf` (the lines of an order not paid are not priced). */
export const pricedRow = (row: OrderRow, unitCostOf: UnitCostOf): OrderRow => {
  const lines = (row as Priced)[PRICING]?.lines ?? linesOf(row);
  let unitCosts = NO_COSTS;
  if (row['status'] === 'paid') {
    const currency = row['currency'] as string;
    const at = row['created_at'] as number;
    const costs = new Map<string, number | undefined>();
    for (const { product, costAlias } of lines)
      for (const name of costAlias === undefined ? [product] : [product, costAlias])
        if (!costs.has(name)) costs.set(name, unitCostOf(name, currency, at));
    unitCosts = costs;
  }
  const totals = costTotalsOf(
    { status: row['status'] as OrderStatus, currency: row['currency'] as string, createdAt: row['created_at'] as number, lines },
    (product) => unitCosts.get(product),
  );
  const priced: Priced = {
    ...row,
    [PRICING]: { lines, unitCosts },
    [PRODUCT_COST_CENTS]: totals.productCostCents,
    [UNCOSTED_UNITS]: totals.uncostedUnits,
  };
  return priced;
};

/** Whether `row` is priced already (a re-pricing gives its rows their prices). */
export const isPriced = (row: OrderRow): boolean => row[PRODUCT_COST_CENTS] !== undefined;

/** The lines and prices of a priced row. */
export const pricingOf = (row: OrderRow): { readonly lines: readonly ReportLine[]; readonly unitCostOf: UnitCostOf } => {
  const pricing = (row as Priced)[PRICING];
  if (pricing === undefined) throw new Error('an order reached the rollups without its prices');
  return { lines: pricing.lines, unitCostOf: (product) => pricing.unitCosts.get(product) };
};

/** Whether two pricings of one order give every product and cost alias the same unit cost. */
export const samePrices = (a: OrderRow, b: OrderRow): boolean => {
  const was = (a as Priced)[PRICING]!.unitCosts;
  const is = (b as Priced)[PRICING]!.unitCosts;
  for (const [product, cost] of was) if (is.get(product) !== cost) return false;
  return was.size === is.size;
};
