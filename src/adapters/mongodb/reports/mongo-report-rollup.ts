import { randomUUID } from 'node:crypto';
import type * as t from 'io-ts';
import type { AnyBulkWriteOperation, Collection, Db, Filter } from 'mongodb';
import type { BackgroundWorker } from '../../../application/ports/background-worker';
import type { Logger } from '../../../application/ports/logger';
import { EventLoopSlices } from '../../../application/shared/event-loop-slices';
import { nextPeriod, periodStart } from '../../persistence/report-pieces';
import { decodeDocument } from '../bson-codecs';
import { guarded, isDuplicateKey } from '../mongo-errors';
import { COLLECTIONS } from '../mongo-indexes';
import { REPORT_DIRTY } from '../orders/order-document';
import { factsOfDocument, REPORT_FIELDS, reportOrderCodec } from './mongo-report-reader';
import {
  addCell,
  cellDocumentCodec,
  cellsOfOrders,
  monthStateCodec,
  monthStateId,
  type CellDocument,
  type MonthState,
} from './report-documents';

const DAY = 86_400_000;
/**
 * How long a process holds a dashboard's rollup unless it renews it (every third of it while it works):
 * a process that dies leaves it for this long at most. Two processes must never recompute one month
 * side by side (the later write of its cells could be the older reading of its days).
 */
const LEASE_MS = 9_000;
/** Days recomputed together: one read of their orders, one write of their cells. */
const DAYS_PER_PASS = 7;
/**
 * How long a month's cells may lag its days' before they are summed again. Readers read the days of a
 * stale month meanwhile, so this bounds work, not exactness: a month written to every second is summed
 * (all its day cells read) once in this time, not every second.
 */
export const MONTH_DELAY_MS = 30_000;

type OrderCollection = Collection<{ _id: string } & Record<string, unknown>>;

/**
 * Keeps `report_cells` in step with the orders (decision 0016: at most a few seconds behind, never
 * counting an order twice). Every write of an order marks it (`reportDirty`) in the same document;
 * this worker finds marked orders and recomputes the cells of their whole UTC days from those days'
 * orders, a week of days at a time (a replacement, not an increment: running it twice, or after a
 * crash, gives the same cells), and only then clears the marks of the versions it counted. A report
 * reads marked days from the orders, so it is exact in between. A month's cells are the sum of its
 * days': the month is marked stale (`report_state`) before its days change, and summed again later
 * (MONTH_DELAY_MS), readers reading its days meanwhile. One process at a time works on a dashboard (a
 * lease in `report_state`), so two months are never recomputed side by side.
 */
export class MongoReportRollup implements BackgroundWorker {
  readonly name = 'reports';
  private readonly orders: OrderCollection;
  private readonly cells: Collection<CellDocument>;
  private readonly leases: Collection<{ _id: string; until: Date; holder: string }>;
  private readonly months: Collection<MonthState>;
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
    this.months = db.collection<MonthState>(COLLECTIONS.reportState);
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

  /**
   * Recomputes every day that has marked orders, then sums again the months stale for at least
   * `monthsStaleFor` ms; resolves how many days and months it recomputed.
   */
  async catchUp(monthsStaleFor = MONTH_DELAY_MS): Promise<number> {
    const marked = await guarded(() =>
      this.orders
        .find({ [REPORT_DIRTY]: true }, { projection: { dashboardId: 1, createdAt: 1 } })
        .limit(5_000)
        .toArray(),
    );
    const work = new Map<string, { days: Set<number>; months: number[] }>();
    const workOf = (dashboardId: string) => {
      const found = work.get(dashboardId) ?? { days: new Set<number>(), months: [] };
      work.set(dashboardId, found);
      return found;
    };
    for (const doc of marked) workOf(doc['dashboardId'] as string).days.add(periodStart((doc['createdAt'] as Date).getTime(), 'd'));
    const due = await guarded(() =>
      this.months
        .find({ staleSince: { $lte: new Date(Date.now() - monthsStaleFor) } }, { projection: { dashboardId: 1, month: 1 } })
        .toArray(),
    );
    for (const state of due) workOf(state.dashboardId).months.push(state.month);

    let done = 0;
    for (const [dashboardId, { days, months }] of work) {
      if (!(await this.lease(dashboardId))) continue;
      const renewal = setInterval(() => {
        this.leases
          .updateOne({ _id: dashboardId, holder: this.holder }, { $set: { until: new Date(Date.now() + LEASE_MS) } })
          .catch(() => undefined); // a renewal that fails lets the lease run out, as a stalled process does
      }, LEASE_MS / 3);
      renewal.unref();
      try {
        const sorted = [...days].sort((a, b) => a - b);
        for (let at = 0; at < sorted.length; at += DAYS_PER_PASS) {
          await this.recomputeDays(dashboardId, sorted.slice(at, at + DAYS_PER_PASS));
          done += Math.min(DAYS_PER_PASS, sorted.length - at);
        }
        for (const month of months) if (await this.recomputeMonth(dashboardId, month)) done++;
      } finally {
        clearInterval(renewal);
        await guarded(() => this.leases.deleteOne({ _id: dashboardId, holder: this.holder }));
      }
    }
    return done;
  }

  /** The cells of some UTC days from their orders, their months marked stale first, then the marks they counted cleared. */
  private async recomputeDays(dashboardId: string, days: readonly number[]): Promise<void> {
    const months = [...new Set(days.map((day) => periodStart(day, 'm')))];
    const now = new Date();
    await guarded(() =>
      this.months.bulkWrite(
        months.map((month) => ({
          updateOne: {
            filter: { _id: monthStateId(dashboardId, month) },
            update: { $set: { dashboardId, month }, $inc: { gen: 1 }, $min: { staleSince: now } },
            upsert: true,
          },
        })),
        { ordered: false },
      ),
    );

    const byDay = new Map<number, { doc: t.TypeOf<typeof reportOrderCodec>; marked: boolean }[]>(days.map((day) => [day, []]));
    await guarded(async () => {
      const within = days.map((day) => ({ createdAt: { $gte: new Date(day), $lt: new Date(day + DAY) } }));
      for await (const raw of this.orders.find({ dashboardId, $or: within }, { projection: { ...REPORT_FIELDS, [REPORT_DIRTY]: 1 } })) {
        const doc = decodeDocument(reportOrderCodec, raw, COLLECTIONS.orders, this.logger);
        byDay.get(periodStart(doc.createdAt.getTime(), 'd'))?.push({ doc, marked: raw[REPORT_DIRTY] === true });
      }
    });
    const slices = new EventLoopSlices();
    const cells: CellDocument[] = [];
    for (const [day, read] of byDay) {
      cells.push(
        ...cellsOfOrders(
          dashboardId,
          day,
          read.map(({ doc }) => factsOfDocument(doc)),
          (p) => p.grains.filter((g) => g !== 'm'),
        ),
      );
      await slices.pause();
    }
    await this.replace({ dashboardId, day: { $in: [...days] }, grain: { $ne: 'm' } }, cells);

    const clears: AnyBulkWriteOperation<{ _id: string } & Record<string, unknown>>[] = [...byDay.values()]
      .flat()
      .filter(({ marked }) => marked)
      .map(({ doc }) => ({
        updateOne: { filter: { _id: doc._id, version: doc.version, [REPORT_DIRTY]: true }, update: { $unset: { [REPORT_DIRTY]: '' } } },
      }));
    if (clears.length > 0) await guarded(() => this.orders.bulkWrite(clears, { ordered: false }));
  }

  /** A stale month's cells summed again from its days'; current from then on unless a day changed meanwhile. */
  private async recomputeMonth(dashboardId: string, month: number): Promise<boolean> {
    const raw = await guarded(() => this.months.findOne({ _id: monthStateId(dashboardId, month) }));
    const state = raw === null ? undefined : decodeDocument(monthStateCodec, raw, COLLECTIONS.reportState, this.logger);
    if (state?.staleSince === undefined) return false;
    const cells = new Map<string, CellDocument>();
    const slices = new EventLoopSlices();
    await guarded(async () => {
      for await (const doc of this.cells.find({ dashboardId, grain: 'd', start: { $gte: month, $lt: nextPeriod(month, 'm') } })) {
        const cell = decodeDocument(cellDocumentCodec, doc, COLLECTIONS.reportCells, this.logger);
        addCell(cells, {
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
        await slices.pause();
      }
    });
    await this.replace({ dashboardId, grain: 'm', start: month }, [...cells.values()]);
    await guarded(() => this.months.updateOne({ _id: state._id, gen: state.gen }, { $unset: { staleSince: '' } }));
    return true;
  }

  /**
   * Writes `cells` over those `filter` selects, then deletes what else it selects: a reader meanwhile
   * sees each cell as it was or as it is, never one missing.
   */
  private async replace(filter: Filter<CellDocument>, cells: readonly CellDocument[]): Promise<void> {
    const pass = randomUUID();
    if (cells.length > 0) {
      await guarded(() =>
        this.cells.bulkWrite(
          cells.map((cell) => ({ replaceOne: { filter: { _id: cell._id }, replacement: { ...cell, pass }, upsert: true } })),
          { ordered: false },
        ),
      );
    }
    await guarded(() => this.cells.deleteMany({ ...filter, pass: { $ne: pass } }));
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
