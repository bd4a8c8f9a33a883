import { unitCostOfLine, type UnitCostOf } from './product-cost';
import type { OrderLines } from './report';

/**
 * What the products report adds up for one product and currency (decision 0020), over the orders
 * created in its range, each with its status now.
 */
export interface ProductTotals {
  /** Orders with at least one line of the product. */
  readonly orders: number;
  /** Σ quantity over every order. */
  readonly units: number;
  /** Σ quantity over the orders now `paid`. */
  readonly paidUnits: number;
  /** Σ quantity × unitPriceCents over the orders now `paid`. */
  readonly paidRevenueCents: number;
  /** Σ quantity × the unit cost in force, over the orders now `paid`. */
  readonly productCostCents: number;
  /** Σ quantity of the paid lines no cost was in force for. */
  readonly uncostedUnits: number;
}

export const ZERO_PRODUCT_TOTALS: ProductTotals = {
  orders: 0,
  units: 0,
  paidUnits: 0,
  paidRevenueCents: 0,
  productCostCents: 0,
  uncostedUnits: 0,
};

const PRODUCT_TOTAL_FIELDS = Object.keys(ZERO_PRODUCT_TOTALS) as (keyof ProductTotals)[];

export const addProductTotals = (a: ProductTotals, b: ProductTotals): ProductTotals =>
  Object.fromEntries(PRODUCT_TOTAL_FIELDS.map((field) => [field, a[field] + b[field]])) as unknown as ProductTotals;

export interface ProductMetrics extends ProductTotals {
  /** paidRevenueCents − productCostCents. */
  readonly grossMarginCents: number;
}

/** What a products report may be sorted by: every column is a number. */
export const PRODUCT_METRICS = [
  'orders',
  'units',
  'paidUnits',
  'paidRevenueCents',
  'productCostCents',
  'grossMarginCents',
  'uncostedUnits',
] as const satisfies readonly (keyof ProductMetrics)[];
export type ProductMetricName = (typeof PRODUCT_METRICS)[number];

export const productMetricsOf = (totals: ProductTotals): ProductMetrics => ({
  orders: totals.orders,
  units: totals.units,
  paidUnits: totals.paidUnits,
  paidRevenueCents: totals.paidRevenueCents,
  productCostCents: totals.productCostCents,
  grossMarginCents: totals.paidRevenueCents - totals.productCostCents,
  uncostedUnits: totals.uncostedUnits,
});

/** The name a product is given by an order, with what says which order is the latest. */
export interface ProductName {
  readonly name: string;
  /** The naming order's `createdAt` (milliseconds) and id: the latest by `createdAt`, then by id, names the product. */
  readonly namedAt: number;
  readonly namedBy: string;
}

/** The later of two names: by `createdAt`, then by order id (code unit order: ids are ASCII). */
export const laterName = (a: ProductName, b: ProductName): ProductName =>
  b.namedAt > a.namedAt || (b.namedAt === a.namedAt && b.namedBy > a.namedBy) ? b : a;

/** What one order adds to the row of each product it holds. */
export interface ProductShare extends ProductName {
  readonly product: string;
  readonly totals: ProductTotals;
}

/**
 * The share of each product of `order` (a product on several lines of it counts once in `orders`, and
 * is named by the first of them), its lines priced by `unitCostOf` when the order is `paid`.
 */
export const productSharesOf = (order: OrderLines & { readonly id: string }, unitCostOf: UnitCostOf): ProductShare[] => {
  const shares = new Map<string, { name: string; totals: { -readonly [K in keyof ProductTotals]: number } }>();
  const paid = order.status === 'paid';
  for (const line of order.lines) {
    let share = shares.get(line.product);
    if (share === undefined) {
      share = { name: line.name, totals: { ...ZERO_PRODUCT_TOTALS, orders: 1 } };
      shares.set(line.product, share);
    }
    const totals = share.totals;
    totals.units += line.quantity;
    if (!paid) continue;
    totals.paidUnits += line.quantity;
    totals.paidRevenueCents += line.quantity * line.unitPriceCents;
    const unitCost = unitCostOfLine(unitCostOf, line, order.currency, order.createdAt);
    if (unitCost === undefined) totals.uncostedUnits += line.quantity;
    else totals.productCostCents += line.quantity * unitCost;
  }
  return [...shares].map(([product, { name, totals }]) => ({ product, name, namedAt: order.createdAt, namedBy: order.id, totals }));
};

/** A row of the products report: a product in a currency, and what it sold and cost. */
export interface ProductRow extends ProductMetrics {
  readonly product: string;
  readonly currency: string;
  /** As the latest order of the row names it. */
  readonly name: string;
  /** With `compare=previous`: the same figures over the previous period. */
  readonly previous?: ProductMetrics;
}
