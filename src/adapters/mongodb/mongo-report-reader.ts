import type { Collection, Db, Filter } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';
import type {
  Breakdown,
  CellQuery,
  ProductQuery,
  ProductReport,
  RankedBreakdownQuery,
  ReportCell,
  ReportReader,
} from '../../application/ports/report-reader';
import type { SpendRepository } from '../../application/ports/spend-repository';
import { joinedSpend, rankBreakdown } from '../../application/reports/rank-breakdown';
import { EventLoopSlices } from '../../application/shared/event-loop-slices';
import { attributionOf, UTM_DIMENSIONS, type ReportDimension } from '../../domain/attribution';
import type { Range } from '../../domain/report';
import { bucketIndexOf } from '../../domain/time-zone';
import { CellCollector, type ReportFacts } from '../persistence/report-cells';
import { nextPeriod, periodStart, piecesOf, runsOf } from '../persistence/report-pieces';
import { bsonCents, bsonDate, bsonJsonObject, decodeDocument } from './bson-codecs';
import { guarded } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';
import type { MongoProfitReads } from './mongo-profit-reads';
import { REPORT_DIRTY } from './order-document';
import { cellDocumentCodec, MONGO_PROJECTIONS, type CellDocument } from './report-documents';

/** What a report reads of an order document. */
export const REPORT_FIELDS = {
  createdAt: 1,
  status: 1,
  isTest: 1,
  'amounts.currency': 1,
  'amounts.grossCents': 1,
  'amounts.netToSellerCents': 1,
  platform: 1,
  paymentMethod: 1,
  tracking: 1,
  trackingExtras: 1,
  version: 1,
} as const;

export const reportOrderCodec = t.intersection([
  t.type({
    _id: t.string,
    createdAt: bsonDate,
    status: t.keyof({ pending: null, paid: null, refused: null, refunded: null, chargedback: null }),
    isTest: t.boolean,
    amounts: t.type({ currency: t.string, grossCents: bsonCents, netToSellerCents: bsonCents }),
    platform: t.string,
    paymentMethod: t.string,
    tracking: t.intersection([
      t.type({ utmSource: t.string, utmMedium: t.string, utmCampaign: t.string }),
      t.partial({ utmContent: t.string, utmTerm: t.string }),
    ]),
    version: t.number,
  }),
  t.partial({ trackingExtras: bsonJsonObject }),
]);

export const factsOfDocument = (doc: t.TypeOf<typeof reportOrderCodec>): ReportFacts => ({
  createdAt: doc.createdAt.getTime(),
  status: doc.status,
  isTest: doc.isTest,
  currency: doc.amounts.currency,
  grossCents: doc.amounts.grossCents,
  netToSellerCents: doc.amounts.netToSellerCents,
  platform: doc.platform,
  paymentMethod: doc.paymentMethod,
  attribution: attributionOf({
    tracking: doc.tracking,
    ...(doc.trackingExtras === undefined ? {} : { trackingExtras: doc.trackingExtras }),
  }),
});

const DAY = 86_400_000;

/**
 * Reports from `report_cells`, which mongo-report-rollup.ts recomputes from the orders a few seconds
 * after they change. Days whose orders still carry the rollup's mark (changed since their day was
 * counted) are read from the orders themselves, and so is any month or shorter period within them:
 * a report never counts an order twice nor misses one, whether or not the rollup has caught up. What
 * it reads is added up on the event loop in stretches (DECISIONS D23), the driver's batches apart.
 */
export class MongoReportReader implements ReportReader {
  private readonly cells_: Collection<CellDocument>;
  private readonly orders: Collection;

  constructor(
    db: Db,
    private readonly logger: Logger,
    private readonly spend: SpendRepository,
    /** What prices the lines, apart from the cells (mongo-profit-reads.ts). */
    private readonly profit: MongoProfitReads,
  ) {
    this.cells_ = db.collection<CellDocument>(COLLECTIONS.reportCells);
    this.orders = db.collection(COLLECTIONS.orders);
  }

  async breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown> {
    const period = async (range: Range, days = query.spend?.days) => ({
      cells: await this.cells(dashboardId, { ...query, buckets: [range] }),
      spend: await joinedSpend(query.spend, (sums) => this.spend.sums(dashboardId, sums), days),
    });
    const current = await period(query.range);
    const previous = query.previous === undefined ? undefined : await period(query.previous.range, query.previous.spend?.days);
    return rankBreakdown(current.cells, current.spend, query, previous);
  }

  /** See MongoProfitReads: read from the orders. */
  async products(dashboardId: string, query: ProductQuery): Promise<ProductReport> {
    return this.profit.products(dashboardId, query);
  }

  async cells(dashboardId: string, query: CellQuery): Promise<readonly ReportCell[]> {
    const collector = new CellCollector(query);
    const slices = new EventLoopSlices();
    if (query.buckets.length === 0) return [];
    const from = query.buckets[0].start;
    const to = query.buckets[query.buckets.length - 1].end;
    const used = new Set<ReportDimension>([...query.by, ...UTM_DIMENSIONS.filter((d) => query.filters[d] !== undefined)]);
    const projection = MONGO_PROJECTIONS.find((p) => [...used].every((d) => p.dimensions.includes(d)))!;
    const dirty = await this.dirtyDays(dashboardId, from, to);
    const clean = (start: number, end: number): boolean => {
      for (let day = periodStart(start, 'd'); day < end; day += DAY) if (dirty.has(day)) return false;
      return true;
    };
    const pieces = piecesOf(query.buckets, projection.grains, (_grain, start, end) => clean(start, end));
    const filter = (grain: string, first: number, last: number): Filter<CellDocument> => ({
      dashboardId,
      proj: projection.name,
      grain: grain as CellDocument['grain'],
      start: { $gte: first, $lte: last },
      ...(projection.modelled ? { model: query.model === 'first' ? 'f' : 'l' } : {}),
      ...(query.isTest === undefined ? {} : { isTest: query.isTest }),
      ...Object.fromEntries(UTM_DIMENSIONS.filter((d) => query.filters[d] !== undefined).map((d) => [`key.${d}`, query.filters[d]])),
    });
    for (const grain of projection.grains) {
      const bucketOf = new Map(pieces.filter((piece) => piece.grain === grain).map((piece) => [piece.start, piece.bucket]));
      for (const { first, last } of runsOf(pieces, grain)) {
        const found = await guarded(() => this.cells_.find(filter(grain, first, last)).toArray());
        for (const raw of found) {
          const cell = decodeDocument(cellDocumentCodec, raw, COLLECTIONS.reportCells, this.logger);
          const bucket = bucketOf.get(cell.start);
          if (bucket !== undefined) collector.addTotals(bucket, cell.key, cell.currency, cell);
          await slices.pause();
        }
      }
    }
    for (const edge of pieces.filter((piece) => piece.grain === 'edge')) {
      const found = await guarded(() =>
        this.orders
          .find({ dashboardId, createdAt: { $gte: new Date(edge.start), $lt: new Date(edge.end) } }, { projection: REPORT_FIELDS })
          .toArray(),
      );
      for (const raw of found) {
        const facts = factsOfDocument(decodeDocument(reportOrderCodec, raw, COLLECTIONS.orders, this.logger));
        collector.add(facts, bucketIndexOf([edge], facts.createdAt) === 0 ? edge.bucket : -1);
        await slices.pause();
      }
    }
    await this.profit.addCosts(dashboardId, query, collector);
    return collector.result();
  }

  /** Drops every cell and marks every order: the rollup counts them all again (see MongoReportRollup). */
  async rebuild(): Promise<void> {
    await guarded(() => this.orders.updateMany({}, { $set: { [REPORT_DIRTY]: true } }));
    await guarded(() => this.cells_.deleteMany({}));
  }

  /** The UTC days in `[from, to)` with an order the rollup has not counted as it is now. */
  private async dirtyDays(dashboardId: string, from: number, to: number): Promise<Set<number>> {
    const marked = await guarded(() =>
      this.orders
        .find(
          {
            [REPORT_DIRTY]: true,
            dashboardId,
            createdAt: { $gte: new Date(periodStart(from, 'd')), $lt: new Date(nextPeriod(periodStart(to - 1, 'd'), 'd')) },
          },
          { projection: { createdAt: 1 } },
        )
        .toArray(),
    );
    return new Set(marked.map((doc) => periodStart((doc['createdAt'] as Date).getTime(), 'd')));
  }
}
