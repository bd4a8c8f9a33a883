import type { ReportCell, CellQuery } from '../../application/ports/report-reader';
import { attributionOf, UTM_DIMENSIONS, type Attribution, type ReportDimension } from '../../domain/attribution';
import type { Order } from '../../domain/order';
import type { OrderStatus } from '../../domain/order-status';
import { totalsOfOrder, ZERO_TOTALS, type CellTotals } from '../../domain/report';

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

/** What a report reads of a whole order. */
export const factsOfOrder = (order: Order): ReportFacts => ({
  createdAt: order.createdAt.getTime(),
  status: order.status,
  isTest: order.isTest,
  currency: order.amounts.currency,
  grossCents: order.amounts.grossCents,
  netToSellerCents: order.amounts.netToSellerCents,
  platform: order.platform,
  paymentMethod: order.paymentMethod,
  attribution: attributionOf(order),
});

/** The value of a dimension for an order under a model. */
const valueOf = (facts: ReportFacts, touch: Attribution['last'], dimension: ReportDimension): string =>
  dimension === 'platform' ? facts.platform : dimension === 'paymentMethod' ? facts.paymentMethod : touch[dimension];

/**
 * Groups orders into the cells of `query` as a store that reads them one by one would: each order in
 * the bucket that holds its `createdAt`, with its key under the query's model, if it passes the scope.
 * `bucketOf` says which bucket (or -1); the in-memory store and the edges of the others use it.
 */
export class CellCollector {
  private readonly cells = new Map<string, { bucket: number; key: ReportCell['key']; currency: string; totals: Mutable<CellTotals> }>();

  constructor(private readonly query: CellQuery) {}

  add(facts: ReportFacts, bucket: number): void {
    const { query } = this;
    if (bucket < 0) return;
    if (query.isTest !== undefined && facts.isTest !== query.isTest) return;
    const touch = query.model === 'first' ? facts.attribution.first : facts.attribution.last;
    for (const dimension of UTM_DIMENSIONS) {
      const wanted = query.filters[dimension];
      if (wanted !== undefined && touch[dimension] !== wanted) return;
    }
    const key = Object.fromEntries(query.by.map((dimension) => [dimension, valueOf(facts, touch, dimension)]));
    this.addTotals(bucket, key, facts.currency, totalsOfOrder(facts.status, facts.grossCents, facts.netToSellerCents));
  }

  /** Adds totals already grouped (a row of a store's rollups); called for every row read, so it allocates only for a new cell. */
  addTotals(bucket: number, key: ReportCell['key'], currency: string, totals: CellTotals): void {
    let id = `${bucket}\u0000${currency}`;
    for (const dimension of this.query.by) id += `\u0000${key[dimension]}`;
    const cell = this.cells.get(id);
    if (cell === undefined) {
      // A rollup row may carry more dimensions than `by`: a cell's key holds those of `by` alone.
      const own = Object.fromEntries(this.query.by.map((dimension) => [dimension, key[dimension]]));
      this.cells.set(id, { bucket, key: own, currency, totals: { ...ZERO_TOTALS } });
      this.sumInto(this.cells.get(id)!.totals, totals);
    } else this.sumInto(cell.totals, totals);
  }

  result(): ReportCell[] {
    return [...this.cells.values()].map(({ bucket, key, currency, totals }) => ({ bucket, key, currency, ...totals }));
  }

  private sumInto(into: Mutable<CellTotals>, totals: CellTotals): void {
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
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
