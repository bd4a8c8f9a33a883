import type { ReportCell, CellQuery } from '../../application/ports/report-reader';
import { attributionOf, UTM_DIMENSIONS, type Attribution, type ReportDimension, type Touch } from '../../domain/attribution';
import type { Order } from '../../domain/order';
import type { OrderStatus } from '../../domain/order-status';
import type { UnitCostOf } from '../../domain/product-cost';
import {
  reportLinesOf,
  statusTotalsOf,
  totalsOfOrder,
  ZERO_TOTALS,
  type CellTotals,
  type CostTotals,
  type OrderFigures,
  type ReportScope,
  type StatusTotals,
} from '../../domain/report';

/** What a report reads of one order: its instant, status, money, and both its touches resolved. */
export interface ReportFacts {
  readonly createdAt: number;
  readonly status: OrderStatus;
  readonly isTest: boolean;
  readonly currency: string;
  readonly grossCents: number;
  readonly netToSellerCents: number;
  readonly platform: string;
  readonly paymentMethod: string;
  readonly attribution: Attribution;
}

/** What a report reads of an order whose lines it prices (decision 0020): its facts, id and lines too. */
export interface PricedFacts extends ReportFacts, OrderFigures {
  readonly id: string;
}

/** What a report reads of a whole order. */
export const factsOfOrder = (order: Order): PricedFacts => ({
  id: order.id,
  createdAt: order.createdAt.getTime(),
  status: order.status,
  isTest: order.isTest,
  currency: order.amounts.currency,
  grossCents: order.amounts.grossCents,
  netToSellerCents: order.amounts.netToSellerCents,
  platform: order.platform,
  paymentMethod: order.paymentMethod,
  lines: reportLinesOf(order.products),
  attribution: attributionOf(order),
});

/** The touch of an order under the scope's model when the order is in the scope (test flag, exact campaign filters); undefined when not. */
export const touchInScope = (facts: ReportFacts, scope: ReportScope): Touch | undefined => {
  if (scope.isTest !== undefined && facts.isTest !== scope.isTest) return undefined;
  const touch = scope.model === 'first' ? facts.attribution.first : facts.attribution.last;
  for (const dimension of UTM_DIMENSIONS) {
    const wanted = scope.filters[dimension];
    if (wanted !== undefined && touch[dimension] !== wanted) return undefined;
  }
  return touch;
};

/** The value of a dimension for an order under a model. */
const valueOf = (facts: ReportFacts, touch: Touch, dimension: ReportDimension): string =>
  dimension === 'platform' ? facts.platform : dimension === 'paymentMethod' ? facts.paymentMethod : touch[dimension];

/**
 * Groups orders into the cells of `query` as a store that reads them one by one would: each order in
 * the bucket that holds its `createdAt`, with its key under the query's model, if it passes the scope.
 * `bucket` says which bucket (or -1); the in-memory store and the edges of the others use it.
 */
export class CellCollector {
  private readonly cells = new Map<string, { bucket: number; key: ReportCell['key']; currency: string; totals: Mutable<CellTotals> }>();

  constructor(private readonly query: CellQuery) {}

  /** Adds an order's status totals: a store whose costs are added apart (addTotals) reads its edges so. */
  add(facts: ReportFacts, bucket: number): void {
    const touch = bucket < 0 ? undefined : touchInScope(facts, this.query);
    if (touch !== undefined) this.addTotals(bucket, this.keyOf(facts, touch), facts.currency, statusTotalsOf(facts));
  }

  /** Adds an order's totals, its lines priced by `unitCostOf`. */
  addPriced(facts: PricedFacts, bucket: number, unitCostOf: UnitCostOf): void {
    const touch = bucket < 0 ? undefined : touchInScope(facts, this.query);
    if (touch !== undefined) this.addTotals(bucket, this.keyOf(facts, touch), facts.currency, totalsOfOrder(facts, unitCostOf));
  }

  /** The key of an order under the query's `by`: exactly its dimensions. */
  keyOf(facts: ReportFacts, touch: Touch): ReportCell['key'] {
    return Object.fromEntries(this.query.by.map((dimension) => [dimension, valueOf(facts, touch, dimension)]));
  }

  /**
   * Adds totals already grouped: a row of a store's rollups (which keep no costs), costs alone, or
   * both. Called for every row read, so it allocates only for a new cell.
   */
  addTotals(bucket: number, key: ReportCell['key'], currency: string, totals: StatusTotals | CostTotals): void {
    let id = `${bucket}\u0000${currency}`;
    for (const dimension of this.query.by) id += `\u0000${key[dimension]}`;
    const cell = this.cells.get(id);
    if (cell === undefined) {
      // Exactly the dimensions of `by`: a rollup's row may hold more (decision 0020).
      const own = Object.fromEntries(this.query.by.map((dimension) => [dimension, key[dimension]]));
      this.cells.set(id, { bucket, key: own, currency, totals: { ...ZERO_TOTALS } });
      this.sumInto(this.cells.get(id)!.totals, totals);
    } else this.sumInto(cell.totals, totals);
  }

  result(): ReportCell[] {
    return [...this.cells.values()].map(({ bucket, key, currency, totals }) => ({ bucket, key, currency, ...totals }));
  }

  private sumInto(into: Mutable<CellTotals>, totals: StatusTotals | CostTotals): void {
    if ('pending' in totals) {
      into.pending += totals.pending;
      into.paid += totals.paid;
      into.refused += totals.refused;
      into.refunded += totals.refunded;
      into.chargedback += totals.chargedback;
      into.grossCents += totals.grossCents;
      into.paidGrossCents += totals.paidGrossCents;
      into.paidNetCents += totals.paidNetCents;
      into.refundedCents += totals.refundedCents;
      into.chargedbackCents += totals.chargedbackCents;
    }
    if ('productCostCents' in totals) {
      into.productCostCents += totals.productCostCents;
      into.uncostedUnits += totals.uncostedUnits;
    }
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
