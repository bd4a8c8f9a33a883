import type { Collection, Db, Filter } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../../application/ports/logger';
import type { ProductCostRepository } from '../../../application/ports/product-cost-repository';
import type {
  CellQuery,
  Costing,
  ProductCell,
  ProductQuery,
  ProductReport,
  UncostedProducts,
  UncostedQuery,
  UncostedSummary,
} from '../../../application/ports/report-reader';
import { readProducts, rankUncosted } from '../../../application/reports/rank-products';
import { uncostedOfCells } from '../../../application/reports/uncosted-summary';
import { EventLoopSlices } from '../../../application/shared/event-loop-slices';
import { unitCostLookup, type UnitCostOf } from '../../../domain/product-cost';
import { costTotalsOf, reportLinesOf, type Range, type ReportScope } from '../../../domain/report';
import { bucketIndexOf } from '../../../domain/time-zone';
import { ProductCollector } from '../../persistence/product-cells';
import { touchInScope, type CellCollector, type PricedFacts } from '../../persistence/report-cells';
import { bsonCents, bsonCount, decodeDocument } from '../bson-codecs';
import { guarded } from '../mongo-errors';
import { COLLECTIONS } from '../mongo-indexes';
import { factsOfDocument, REPORT_FIELDS, reportOrderCodec } from './mongo-report-reader';

const pricedOrderCodec = t.intersection([
  reportOrderCodec,
  t.type({
    products: t.array(
      t.intersection([
        t.type({ name: t.string, quantity: bsonCount, unitPriceCents: bsonCents }),
        t.partial({ externalId: t.string, sku: t.string }),
      ]),
    ),
  }),
]);

const PRICED_FIELDS = { ...REPORT_FIELDS, products: 1 } as const;

/**
 * What a MongoDB report prices (decision 0020), apart from the cells of decision 0016: the orders of the range
 * read from `orders` with their lines (the paid ones for a report's costs, all of them for the
 * products report), priced from the dashboard's cost entries as they are now. Exact whether or not
 * the rollup has caught up, since it reads the orders themselves; proportional to the orders of the
 * range, added up in stretches of the event loop (decision 0023). Cells of units sold kept by the
 * rollup would replace it to make it fast.
 */
export class MongoProfitReads {
  private readonly orders: Collection;

  constructor(
    db: Db,
    private readonly logger: Logger,
    private readonly costs: ProductCostRepository,
  ) {
    this.orders = db.collection(COLLECTIONS.orders);
  }

  async priceList(dashboardId: string, zone: string): Promise<UnitCostOf> {
    return unitCostLookup(await this.costs.priceList(dashboardId), zone);
  }

  /** Adds into `collector` what the lines of the query's paid orders cost, each order in its bucket under its key. */
  async addCosts(dashboardId: string, query: CellQuery, collector: CellCollector): Promise<void> {
    if (query.buckets.length === 0) return;
    const unitCostOf = await this.priceList(dashboardId, query.costZone);
    const range = { start: query.buckets[0].start, end: query.buckets[query.buckets.length - 1].end };
    await this.eachOrder({ dashboardId, status: 'paid', ...createdWithin(range) }, (facts) => {
      const bucket = bucketIndexOf(query.buckets, facts.createdAt);
      const touch = bucket < 0 ? undefined : touchInScope(facts, query);
      if (touch !== undefined) collector.addTotals(bucket, collector.keyOf(facts, touch), facts.currency, costTotalsOf(facts, unitCostOf));
    });
  }

  /** The products report (ReportReader.products): both periods' orders added up, ranked and cut. */
  async products(dashboardId: string, query: ProductQuery): Promise<ProductReport> {
    return readProducts(query, (range) => this.productCells(dashboardId, query, range));
  }

  /** The products sold without a cost (ReportReader.uncostedProducts), from the products report's cells. */
  async uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts> {
    return rankUncosted(await this.productCells(dashboardId, query, query.range), query.limit);
  }

  /** ReportReader.uncosted, from the products report's cells. */
  async uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): Promise<UncostedSummary> {
    return uncostedOfCells(await this.productCells(dashboardId, query, query.range));
  }

  /** The products report's cells of the orders of `range` in the scope. */
  private async productCells(dashboardId: string, scope: ReportScope & Costing, range: Range): Promise<ProductCell[]> {
    const collector = new ProductCollector(await this.priceList(dashboardId, scope.costZone));
    await this.eachOrder({ dashboardId, ...createdWithin(range) }, (facts) => {
      if (touchInScope(facts, scope) !== undefined) collector.add(facts);
    });
    return collector.result();
  }

  private async eachOrder(filter: Filter<Record<string, unknown>>, use: (facts: PricedFacts) => void): Promise<void> {
    const slices = new EventLoopSlices();
    const found = await guarded(() => this.orders.find(filter, { projection: PRICED_FIELDS }).toArray());
    for (const raw of found) {
      const doc = decodeDocument(pricedOrderCodec, raw, COLLECTIONS.orders, this.logger);
      use({ ...factsOfDocument(doc), id: doc._id, lines: reportLinesOf(doc.products) });
      await slices.pause();
    }
  }
}

const createdWithin = (range: Range) => ({ createdAt: { $gte: new Date(range.start), $lt: new Date(range.end) } });
