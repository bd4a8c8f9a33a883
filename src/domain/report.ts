import type { AttributionModel, ReportDimension, UtmDimension } from './attribution';
import type { OrderStatus } from './order-status';

/**
 * What a report adds up for a set of orders, each counted with its status now (DECISIONS D16): how
 * many are in each status, and the sums every metric is computed from. Stores keep these in step with
 * the writes and add them up; `metricsOf` turns them into the figures a report shows.
 */
export interface CellTotals {
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

export const ZERO_TOTALS: CellTotals = {
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

const TOTAL_FIELDS = Object.keys(ZERO_TOTALS) as (keyof CellTotals)[];

export const addTotals = (a: CellTotals, b: CellTotals): CellTotals =>
  Object.fromEntries(TOTAL_FIELDS.map((field) => [field, a[field] + b[field]])) as unknown as CellTotals;

/** The totals of one order as it stands. */
export const totalsOfOrder = (status: OrderStatus, grossCents: number, netToSellerCents: number): CellTotals => ({
  ...ZERO_TOTALS,
  [status]: 1,
  grossCents,
  paidGrossCents: status === 'paid' ? grossCents : 0,
  paidNetCents: status === 'paid' ? netToSellerCents : 0,
  refundedCents: status === 'refunded' ? grossCents : 0,
  chargedbackCents: status === 'chargedback' ? grossCents : 0,
});

/** The metrics of a report row or bucket: its totals, and what is computed from them. */
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
  /** round(spendCents / paid); null without spend or without a paid order. */
  readonly cpaCents: number | null;
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
] as const satisfies readonly (keyof Metrics)[];
export type MetricName = (typeof METRICS)[number];

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** The metrics of `totals`, with `spendCents` where spend joins the row (null where it cannot). */
export const metricsOf = (totals: CellTotals, spendCents: number | null): Metrics => {
  const orders = totals.pending + totals.paid + totals.refused + totals.refunded + totals.chargedback;
  const decided = orders - totals.pending;
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
    approvalRate: decided === 0 ? null : round4((totals.paid + totals.refunded + totals.chargedback) / decided),
    averageOrderCents: totals.paid === 0 ? null : Math.round(totals.paidGrossCents / totals.paid),
    spendCents,
    roas: spendCents === null || spendCents === 0 ? null : round4(totals.paidGrossCents / spendCents),
    cpaCents: spendCents === null || totals.paid === 0 ? null : Math.round(spendCents / totals.paid),
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

/** The fields spend is keyed by besides its date and currency (DECISIONS D16). */
export const SPEND_DIMENSIONS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmContent'] as const satisfies readonly ReportDimension[];
export type SpendDimension = (typeof SPEND_DIMENSIONS)[number];

/** Whether spend can join a breakdown by `by`: only when every dimension is one spend is keyed by. */
export const spendJoins = (by: readonly ReportDimension[]): by is readonly SpendDimension[] =>
  by.every((dimension) => (SPEND_DIMENSIONS as readonly string[]).includes(dimension));
