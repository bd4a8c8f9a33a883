import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { BackgroundWorker } from '../../application/ports/background-worker';
import type { Logger } from '../../application/ports/logger';
import { nextPeriod, periodStart } from '../persistence/report-pieces';
import { decodeDocument } from './bson-codecs';
import { guarded, isDuplicateKey } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';
import { REPORT_DIRTY } from './order-document';
import { factsOfDocument, REPORT_FIELDS, reportOrderCodec } from './mongo-report-reader';
import { addCell, cellDocumentCodec, cellsOfOrders, type CellDocument } from './report-documents';

const DAY = 86_400_000;
/**
 * How long a process holds a dashboard's rollup unless it renews it (every third of it while it works):
 * a process that dies leaves it for this long at most. Two processes must never recompute one month
 * side by side (the later write of its cells could be the older reading of its days).
 */
const LEASE_MS = 9_000;

/**
 * Keeps `report_cells` in step with the orders (DECISIONS D16: at most a few seconds behind, never
 * counting an order twice). Every write of an order marks it (`reportDirty`) in the same document;
 * this worker finds marked orders, recomputes the cells of their whole UTC day from that day's orders
 * (a replacement, not an increment: running it twice, or after a crash, gives the same cells), then
 * the month's cells from its days', and only then clears the marks of the versions it counted. A
 * report reads marked days from the orders, so it is exact in between. One process at a time works
 * on a dashboard (a lease in `report_state`), so two months are never recomputed side by side.
 */
export class MongoReportRollup implements BackgroundWorker {
  readonly name = 'reports';
  private readonly orders: Collection<{ _id: string } & Record<string, unknown>>;
  private readonly cells: Collection<CellDocument>;
  private readonly leases: Collection<{ _id: string; until: Date; holder: string }>;
  private readonly holder = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    db: Db,
    private readonly logger: Logger,
    private readonly intervalMs = 1_000,
  ) {
    this.orders = db.collection(COLLECTIONS.orders);
    this.cells = db.collection<CellDocument>(COLLECTIONS.reportCells);
    this.leases = db.collection(COLLECTIONS.reportState);
  }

  start(): void {
    const tick = (): void => {
      if (this.stopped) return;
      this.running = this.catchUp()
        .then(() => undefined)
        .catch((err: unknown) =>
          this.logger.warn('report rollup failed; it will try again', { error: err instanceof Error ? err.message : 'unknown' }),
        )
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Recomputes every day that has marked orders; resolves how many days it recomputed. */
  async catchUp(): Promise<number> {
    const marked = await guarded(() =>
      this.orders
        .find({ [REPORT_DIRTY]: true }, { projection: { dashboardId: 1, createdAt: 1 } })
        .limit(5_000)
        .toArray(),
    );
    const days = new Map<string, Set<number>>();
    for (const doc of marked) {
      const dashboardId = doc['dashboardId'] as string;
      const day = periodStart((doc['createdAt'] as Date).getTime(), 'd');
      days.set(dashboardId, (days.get(dashboardId) ?? new Set()).add(day));
    }
    let done = 0;
    for (const [dashboardId, set] of days) {
      if (!(await this.lease(dashboardId))) continue;
      const renewal = setInterval(() => {
        this.leases
          .updateOne({ _id: dashboardId, holder: this.holder }, { $set: { until: new Date(Date.now() + LEASE_MS) } })
          .catch(() => undefined); // a renewal that fails lets the lease run out, as a stalled process does
      }, LEASE_MS / 3);
      renewal.unref();
      try {
        for (const day of [...set].sort((a, b) => a - b)) {
          await this.recomputeDay(dashboardId, day);
          done++;
        }
      } finally {
        clearInterval(renewal);
        await guarded(() => this.leases.deleteOne({ _id: dashboardId, holder: this.holder }));
      }
    }
    return done;
  }

  /** The cells of one UTC day from its orders, then its month's from the days', then the marks it counted. */
  async recomputeDay(dashboardId: string, day: number): Promise<void> {
    const raw = await guarded(() =>
      this.orders
        .find(
          { dashboardId, createdAt: { $gte: new Date(day), $lt: new Date(day + DAY) } },
          { projection: { ...REPORT_FIELDS, [REPORT_DIRTY]: 1 } },
        )
        .toArray(),
    );
    const read = raw.map((doc) => ({
      doc: decodeDocument(reportOrderCodec, doc, COLLECTIONS.orders, this.logger),
      marked: doc[REPORT_DIRTY] === true,
    }));
    const dayCells = cellsOfOrders(
      dashboardId,
      day,
      read.map(({ doc }) => factsOfDocument(doc)),
      (p) => p.grains.filter((g) => g !== 'm'),
    );
    await this.replace({ dashboardId, day, grain: { $ne: 'm' } }, dayCells);

    const month = periodStart(day, 'm');
    const days = await guarded(() =>
      this.cells.find({ dashboardId, grain: 'd', start: { $gte: month, $lt: nextPeriod(month, 'm') } }).toArray(),
    );
    const monthCells = new Map<string, CellDocument>();
    for (const doc of days) {
      const cell = decodeDocument(cellDocumentCodec, doc, COLLECTIONS.reportCells, this.logger);
      addCell(monthCells, {
        dashboardId,
        proj: cell.proj,
        grain: 'm',
        start: month,
        day: month,
        ...(cell.model === undefined ? {} : { model: cell.model }),
        isTest: cell.isTest,
        currency: cell.currency,
        key: cell.key,
        totals: cell,
      });
    }
    await this.replace({ dashboardId, grain: 'm', start: month }, [...monthCells.values()]);

    const clears: AnyBulkWriteOperation<{ _id: string } & Record<string, unknown>>[] = read
      .filter(({ marked }) => marked)
      .map(({ doc }) => ({
        updateOne: { filter: { _id: doc._id, version: doc.version, [REPORT_DIRTY]: true }, update: { $unset: { [REPORT_DIRTY]: '' } } },
      }));
    if (clears.length > 0) await guarded(() => this.orders.bulkWrite(clears, { ordered: false }));
  }

  private async replace(filter: Record<string, unknown>, cells: readonly CellDocument[]): Promise<void> {
    await guarded(() => this.cells.deleteMany(filter));
    if (cells.length > 0) {
      await guarded(() =>
        this.cells.bulkWrite(
          cells.map((cell) => ({ replaceOne: { filter: { _id: cell._id }, replacement: cell, upsert: true } })),
          { ordered: false },
        ),
      );
    }
  }

  private async lease(dashboardId: string): Promise<boolean> {
    const now = new Date();
    try {
      const result = await guarded(() =>
        this.leases.updateOne(
          { _id: dashboardId, until: { $lt: now } },
          { $set: { until: new Date(now.getTime() + LEASE_MS), holder: this.holder } },
          { upsert: true },
        ),
      );
      return result.matchedCount + result.upsertedCount === 1;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }
}

/**
 * Orders written before reports existed carry no mark, so the rollup would never count them: the
 * first start of this version marks them all, once (recorded in `report_state`). Idempotent, so
 * instances starting together may both do it.
 */
export const markOrdersWrittenBeforeReports = async (db: Db): Promise<void> => {
  const state = db.collection<{ _id: string; at: Date }>(COLLECTIONS.reportState);
  if ((await guarded(() => state.findOne({ _id: BACKFILL }))) !== null) return;
  await guarded(() =>
    db.collection(COLLECTIONS.orders).updateMany({ [REPORT_DIRTY]: { $exists: false } }, { $set: { [REPORT_DIRTY]: true } }),
  );
  try {
    await guarded(() => state.insertOne({ _id: BACKFILL, at: new Date() }));
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
};

const BACKFILL = '(orders before reports marked)';
