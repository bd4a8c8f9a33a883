import type { AttributionModel, ReportDimension, UtmDimension } from './attribution';
import type { Product } from './order';
import type { OrderStatus } from './order-status';
import { costAliasOfLine, productOfLine, unitCostOfLine, type PricedLine, type UnitCostOf } from './product-cost';
import { divideRounded, ratio4 } from './rounding';
import { taxCentsOf } from './tax-rate';

/**
 * What a report adds up for a set of orders, each counted with its status now (decision 0016): how
 * many are in each status, and the sums of money by status. Stores keep these in step with the
 * writes (their rollups) and add them up.
 */
export interface StatusTotals {
  readonly pending: number;
  readonly paid: number;
  readonly refused: number;
  readonly refunded: number;
  readonly chargedback: number;
  /** `grossCents` of every order. */
  readonly grossCents: number;
  /** `grossCents` and `netToSellerCents` of the orders now `paid`. */
  readonly paidGrossCents: number;
  readonly paidNetCents: number;
  /** `grossCents` of the orders now `refunded`, now `chargedback`. */
  readonly refundedCents: number;
  readonly chargedbackCents: number;
}

/**
 * What the lines of the orders now `paid` cost (decision 0020): they depend on the dashboard's cost
 * entries and time zone as they are when the report is made, not as they were when the order was.
 */
export interface CostTotals {
  /** Σ quantity × the unit cost in force at the order's `createdAt` for its product and currency. */
  readonly productCostCents: number;
  /** Σ quantity of the lines no cost was in force for: a profit missing these costs must show it. */
  readonly uncostedUnits: number;
}

/** Everything a report row or bucket is computed from; `metricsOf` turns it into the figures a report shows. */
export interface CellTotals extends StatusTotals, CostTotals {}

export const ZERO_STATUS_TOTALS: StatusTotals = {
  pending: 0,
  paid: 0,
  refused: 0,
  refunded: 0,
  chargedback: 0,
  grossCents: 0,
  paidGrossCents: 0,
  paidNetCents: 0,
  refundedCents: 0,
  chargedbackCents: 0,
};

export const ZERO_COST_TOTALS: CostTotals = { productCostCents: 0, uncostedUnits: 0 };

export const ZERO_TOTALS: CellTotals = { ...ZERO_STATUS_TOTALS, ...ZERO_COST_TOTALS };

const STATUS_TOTAL_FIELDS = Object.keys(ZERO_STATUS_TOTALS) as (keyof StatusTotals)[];
const TOTAL_FIELDS = Object.keys(ZERO_TOTALS) as (keyof CellTotals)[];

export const addStatusTotals = (a: StatusTotals, b: StatusTotals): StatusTotals =>
  Object.fromEntries(STATUS_TOTAL_FIELDS.map((field) => [field, a[field] + b[field]])) as unknown as StatusTotals;

export const addTotals = (a: CellTotals, b: CellTotals): CellTotals =>
  Object.fromEntries(TOTAL_FIELDS.map((field) => [field, a[field] + b[field]])) as unknown as CellTotals;

/** An order line as reports read it: its product (productOfLine) and the other name its costs may be under. */
export interface ReportLine extends PricedLine {
  readonly name: string;
  readonly quantity: number;
  readonly unitPriceCents: number;
}

/** An order line (as stored, or as the API takes it) as reports read it: the one place a line becomes its product. */
export const reportLineOf = (line: Pick<Product, 'externalId' | 'sku' | 'name' | 'quantity' | 'unitPriceCents'>): ReportLine => {
  const costAlias = costAliasOfLine(line);
  return {
    product: productOfLine(line),
    ...(costAlias === undefined ? {} : { costAlias }),
    name: line.name,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
  };
};

export const reportLinesOf = (products: readonly Product[]): ReportLine[] => products.map(reportLineOf);

/** What pricing an order's lines reads of it. */
export interface OrderLines {
  readonly status: OrderStatus;
  readonly currency: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly lines: readonly ReportLine[];
}

/** What a report reads of an order to add it up. */
export interface OrderFigures extends OrderLines {
  readonly grossCents: number;
  readonly netToSellerCents: number;
}

/** The status totals of one order as it stands: what a rollup keeps of it. */
export const statusTotalsOf = (order: Pick<OrderFigures, 'status' | 'grossCents' | 'netToSellerCents'>): StatusTotals => ({
  ...ZERO_STATUS_TOTALS,
  [order.status]: 1,
  grossCents: order.grossCents,
  paidGrossCents: order.status === 'paid' ? order.grossCents : 0,
  paidNetCents: order.status === 'paid' ? order.netToSellerCents : 0,
  refundedCents: order.status === 'refunded' ? order.grossCents : 0,
  chargedbackCents: order.status === 'chargedback' ? order.grossCents : 0,
});

/** What the lines of one order cost as `unitCostOf` prices them now: nothing unless the order is `paid`. */
export const costTotalsOf = (order: OrderLines, unitCostOf: UnitCostOf): CostTotals => {
  if (order.status !== 'paid') return ZERO_COST_TOTALS;
  let productCostCents = 0;
  let uncostedUnits = 0;
  for (const line of order.lines) {
    const unitCost = unitCostOfLine(unitCostOf, line, order.currency, order.createdAt);
    if (unitCost === undefined) uncostedUnits += line.quantity;
    else productCostCents += line.quantity * unitCost;
  }
  return { productCostCents, uncostedUnits };
};

/** The totals of one order as it stands, its lines priced by `unitCostOf`. */
export const totalsOfOrder = (order: OrderFigures, unitCostOf: UnitCostOf): CellTotals => ({
  ...statusTotalsOf(order),
  ...costTotalsOf(order, unitCostOf),
});

/** The metrics of a report row or bucket: its totals, and what is computed from them (decisions 0016, 0020). */
export interface Metrics extends CellTotals {
  readonly orders: number;
  /** (paid + refunded + chargedback) / (orders − pending), 4 decimals; null when no order is decided. */
  readonly approvalRate: number | null;
  /** round(paidGrossCents / paid); null without a paid order. */
  readonly averageOrderCents: number | null;
  /** null where spend cannot be joined to the row. */
  readonly spendCents: number | null;
  /** paidGrossCents / spendCents, 4 decimals; null without spend to divide by. */
  readonly roas: number | null;
  /** round(spendCents / paid); null without spend (none joined, or 0) or without a paid order. */
  readonly cpaCents: number | null;
  /** round(paidGrossCents × taxRate / 100). */
  readonly taxCents: number;
  /** paidNetCents − productCostCents − taxCents. */
  readonly contributionCents: number;
  /** contributionCents − spendCents; null where spend cannot be joined to the row. */
  readonly profitCents: number | null;
  /** profitCents / paidGrossCents, 4 decimals; null without profit or paid revenue. */
  readonly marginRate: number | null;
  /** profitCents / spendCents, 4 decimals; null without profit or spend. */
  readonly roi: number | null;
}

export const METRICS = [
  'orders',
  'pending',
  'paid',
  'refused',
  'refunded',
  'chargedback',
  'grossCents',
  'paidGrossCents',
  'paidNetCents',
  'refundedCents',
  'chargedbackCents',
  'approvalRate',
  'averageOrderCents',
  'spendCents',
  'roas',
  'cpaCents',
  'productCostCents',
  'uncostedUnits',
  'taxCents',
  'contributionCents',
  'profitCents',
  'marginRate',
  'roi',
] as const satisfies readonly (keyof Metrics)[];
export type MetricName = (typeof METRICS)[number];

/**
 * The metrics of `totals`, with `spendCents` where spend joins the row (null where it cannot) and
 * the dashboard's tax rate. Each division is rounded once, here, half away from zero.
 */
export const metricsOf = (totals: CellTotals, spendCents: number | null, taxRate: number): Metrics => {
  const orders = totals.pending + totals.paid + totals.refused + totals.refunded + totals.chargedback;
  const decided = orders - totals.pending;
  const taxCents = taxCentsOf(totals.paidGrossCents, taxRate);
  const contributionCents = totals.paidNetCents - totals.productCostCents - taxCents;
  const profitCents = spendCents === null ? null : contributionCents - spendCents;
  return {
    orders,
    pending: totals.pending,
    paid: totals.paid,
    refused: totals.refused,
    refunded: totals.refunded,
    chargedback: totals.chargedback,
    grossCents: totals.grossCents,
    paidGrossCents: totals.paidGrossCents,
    paidNetCents: totals.paidNetCents,
    refundedCents: totals.refundedCents,
    chargedbackCents: totals.chargedbackCents,
    approvalRate: decided === 0 ? null : ratio4(totals.paid + totals.refunded + totals.chargedback, decided),
    averageOrderCents: totals.paid === 0 ? null : divideRounded(totals.paidGrossCents, totals.paid),
    spendCents,
    roas: spendCents === null || spendCents === 0 ? null : ratio4(totals.paidGrossCents, spendCents),
    cpaCents: spendCents === null || spendCents === 0 || totals.paid === 0 ? null : divideRounded(spendCents, totals.paid),
    productCostCents: totals.productCostCents,
    uncostedUnits: totals.uncostedUnits,
    taxCents,
    contributionCents,
    profitCents,
    marginRate: profitCents === null || totals.paidGrossCents === 0 ? null : ratio4(profitCents, totals.paidGrossCents),
    roi: profitCents === null || spendCents === null || spendCents === 0 ? null : ratio4(profitCents, spendCents),
  };
};

/** Which orders a report covers besides its time range. */
export interface ReportScope {
  readonly model: AttributionModel;
  /** `undefined`: test and real orders alike (`isTest=all`). */
  readonly isTest: boolean | undefined;
  /** Exact values the campaign fields must have. */
  readonly filters: Readonly<Partial<Record<UtmDimension, string>>>;
}

/** The fields spend is keyed by besides its date and currency (decision 0016). */
export const SPEND_DIMENSIONS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmContent'] as const satisfies readonly ReportDimension[];
export type SpendDimension = (typeof SPEND_DIMENSIONS)[number];

/** Whether spend can join a breakdown by `by`: only when every dimension is one spend is keyed by. */
export const spendJoins = (by: readonly ReportDimension[]): by is readonly SpendDimension[] =>
  by.every((dimension) => (SPEND_DIMENSIONS as readonly string[]).includes(dimension));

/** What a report may be compared with (decision 0020): `previous`, the equally long period that ends where it begins. */
export const COMPARISONS = ['previous'] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** `[start, end)` in milliseconds since the epoch. */
export interface Range {
  readonly start: number;
  readonly end: number;
}

/** The period a `compare=previous` report compares with: as long as `range`, ending where it begins. */
export const previousRange = (range: Range): Range => ({ start: 2 * range.start - range.end, end: range.start });

/** `range` moved back by `length` milliseconds: a timeseries bucket's previous is its bucket moved back by the period's length. */
export const shiftedBack = <R extends Range>(range: R, length: number): R => ({
  ...range,
  start: range.start - length,
  end: range.end - length,
});
