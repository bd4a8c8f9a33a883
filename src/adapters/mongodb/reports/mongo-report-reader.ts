import type { Collection, Db, Filter } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../../application/ports/logger';
import type {
  Breakdown,
  CellQuery,
  ProductQuery,
  ProductReport,
  RankedBreakdownQuery,
  ReportCell,
  ReportReader,
  UncostedProducts,
  UncostedQuery,
  UncostedSummary,
} from '../../../application/ports/report-reader';
import type { SpendRepository } from '../../../application/ports/spend-repository';
import { readBreakdown } from '../../../application/reports/rank-breakdown';
import { EventLoopSlices } from '../../../application/shared/event-loop-slices';
import { attributionOf, UTM_DIMENSIONS, type ReportDimension } from '../../../domain/attribution';
import { bucketIndexOf } from '../../../domain/time-zone';
import { CellCollector, type ReportFacts } from '../../persistence/report-cells';
import { nextPeriod, periodStart, piecesOf, type Grain } from '../../persistence/report-pieces';
import { bsonCents, bsonDate, bsonJsonObject, decodeDocument } from '../bson-codecs';
import { guarded } from '../mongo-errors';
import { COLLECTIONS } from '../mongo-indexes';
import type { MongoProfitReads } from './mongo-profit-reads';
import { REPORT_DIRTY } from '../orders/order-document';
import { cellDocumentCodec, monthStateCodec, MONGO_PROJECTIONS, type CellDocument, type MonthState } from './report-documents';

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
/** Periods per command: a year of a +05:45 zone's days is about 8,400 hours and 1,500 quarters. */
const MAX_STARTS = 10_000;
/** Edges per command: the ends of a range, and the days the rollup has not counted yet. */
const MAX_EDGES = 500;

/**
 * Whether ascending `starts` fill at least half of the periods of `grain` from the first to the last:
 * read then as one range, the cells of the others left aside (a +05:45 zone's days use 23 hours in 24),
 * and otherwise as a list of periods (its quarters, 4 in 96).
 */
const denseIn = (starts: readonly number[], grain: Grain): boolean => {
  let periods = 1;
  for (let at = starts[0]; at < starts[starts.length - 1] && periods <= 2 * starts.length; at = nextPeriod(at, grain)) periods++;
  return periods <= 2 * starts.length;
};

const chunksOf = <A>(items: readonly A[], size: number): A[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Reports from `report_cells`, which mongo-report-rollup.ts recomputes from the orders a few seconds
 * after they change. Days whose orders still carry the rollup's mark (changed since their day was
 * counted) are read from the orders themselves, and so is any month or shorter period within them:
 * a report never counts an order twice nor misses one, whether or not the rollup has caught up. What
 * it reads is added up on the event loop in stretches (decision 0023), the driver's batches apart.
 */
export class MongoReportReader implements ReportReader {
  private readonly cells_: Collection<CellDocument>;
  private readonly orders: Collection;
  private readonly months: Collection<MonthState>;

  constructor(
    db: Db,
    private readonly logger: Logger,
    private readonly spend: SpendRepository,
    /** What prices the lines, apart from the cells (mongo-profit-reads.ts). */
    private readonly profit: MongoProfitReads,
  ) {
    this.cells_ = db.collection<CellDocument>(COLLECTIONS.reportCells);
    this.orders = db.collection(COLLECTIONS.orders);
    this.months = db.collection<MonthState>(COLLECTIONS.reportState);
  }

  async breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown> {
    return readBreakdown(
      query,
      (range) => this.cells(dashboardId, { ...query, buckets: [range] }),
      (sums) => this.spend.sums(dashboardId, sums),
    );
  }

  /** See MongoProfitReads: read from the orders. */
  async products(dashboardId: string, query: ProductQuery): Promise<ProductReport> {
    return this.profit.products(dashboardId, query);
  }

  async uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts> {
    return this.profit.uncostedProducts(dashboardId, query);
  }

  async uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): Promise<UncostedSummary> {
    return this.profit.uncosted(dashboardId, query);
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
    const stale = await this.staleMonths(dashboardId, from, to);
    const usable = (grain: Grain, start: number, end: number): boolean => {
      if (grain === 'm' && stale.has(start)) return false;
      for (let day = periodStart(start, 'd'); day < end; day += DAY) if (dirty.has(day)) return false;
      return true;
    };
    const pieces = piecesOf(query.buckets, projection.grains, usable);
    const filter = (grain: string, starts: readonly number[]): Filter<CellDocument> => ({
      dashboardId,
      proj: projection.name,
      grain: grain as CellDocument['grain'],
      start: denseIn(starts, grain as Grain) ? { $gte: starts[0], $lte: starts[starts.length - 1] } : { $in: starts },
      ...(projection.modelled ? { model: query.model === 'first' ? 'f' : 'l' } : {}),
      ...(query.isTest === undefined ? {} : { isTest: query.isTest }),
      ...Object.fromEntries(UTM_DIMENSIONS.filter((d) => query.filters[d] !== undefined).map((d) => [`key.${d}`, query.filters[d]])),
    });
    // One command per grain, however the periods fall: a +05:45 zone's days are runs of three quarters
    // and twenty-three hours, and a command per run was two a day.
    for (const grain of projection.grains) {
      const bucketOf = new Map(pieces.filter((piece) => piece.grain === grain).map((piece) => [piece.start, piece.bucket]));
      for (const starts of chunksOf(
        [...bucketOf.keys()].sort((a, b) => a - b),
        MAX_STARTS,
      )) {
        await guarded(async () => {
          for await (const raw of this.cells_.find(filter(grain, starts))) {
            const cell = decodeDocument(cellDocumentCodec, raw, COLLECTIONS.reportCells, this.logger);
            const bucket = bucketOf.get(cell.start);
            if (bucket !== undefined) collector.addTotals(bucket, cell.key, cell.currency, cell);
            await slices.pause();
          }
        });
      }
    }
    for (const edges of chunksOf(
      pieces.filter((piece) => piece.grain === 'edge'),
      MAX_EDGES,
    )) {
      const within = edges.map((edge) => ({ createdAt: { $gte: new Date(edge.start), $lt: new Date(edge.end) } }));
      await guarded(async () => {
        for await (const raw of this.orders.find({ dashboardId, $or: within }, { projection: REPORT_FIELDS })) {
          const facts = factsOfDocument(decodeDocument(reportOrderCodec, raw, COLLECTIONS.orders, this.logger));
          const edge = edges[bucketIndexOf(edges, facts.createdAt)];
          collector.add(facts, edge === undefined ? -1 : edge.bucket);
          await slices.pause();
        }
      });
    }
    await this.profit.addCosts(dashboardId, query, collector);
    return collector.result();
  }

  /** Drops every cell and marks every order: the rollup counts them all again (see MongoReportRollup). */
  async rebuild(): Promise<void> {
    await guarded(() => this.orders.updateMany({}, { $set: { [REPORT_DIRTY]: true } }));
    await guarded(() => this.cells_.deleteMany({}));
  }

  /** The UTC months in `[from, to)` whose cells are not the sum of their days' now (MongoReportRollup). */
  private async staleMonths(dashboardId: string, from: number, to: number): Promise<Set<number>> {
    const found = await guarded(() =>
      this.months.find({ dashboardId, month: { $gte: periodStart(from, 'm'), $lt: to }, staleSince: { $exists: true } }).toArray(),
    );
    return new Set(found.map((raw) => decodeDocument(monthStateCodec, raw, COLLECTIONS.reportState, this.logger).month));
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
