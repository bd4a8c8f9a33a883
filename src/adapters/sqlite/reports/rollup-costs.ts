import type { Database, Statement } from 'better-sqlite3';
import { unitCostLookup, type ProductCostEntry, type UnitCostOf } from '../../../domain/product-cost';
import { startOfDate } from '../../../domain/time-zone';
import type { OrderRow } from '../orders/order-rows';
import { isPriced, pricedRow, samePrices } from './priced-rows';
import { ORDER_ROLLUPS, rebuildStatements } from './report-schema';
import { RollupFold } from './rollup-fold';
import { SLICE_MS } from '../../../application/shared/event-loop-slices';

/**
 * What the rollups keep of an order's costs (decision 0020), beside its status totals: its paid lines
 * priced at the dashboard's product costs, on the calendar of its time zone. A write prices the order
 * it records as the costs stand in its transaction, so a report reads costs from the rows it reads
 * anyway. A change of prices (a cost upload, a change of time zone) moves the paid orders it
 * re-prices from the old price to the new one in the rollups, never rewriting an order:
 *
 * - at once, in the change's own transaction, when it re-prices few orders (`inlineMax`);
 * - otherwise through a re-pricing job (`reprice_jobs`): the change stores what the prices were
 *   before it (the history of each product and currency it touched, and the zone), and a runner
 *   (reprice-runner.ts) moves the orders in chunks of sequence numbers, each chunk one write of the
 *   group commit, so that no write holds the event loop long. Until a job ends, each order the job has
 *   not reached stays at the prices before it, and a write that records such an order prices it so;
 *   reports of that dashboard price costs from the orders meanwhile (exact, slower).
 *
 * Jobs of a dashboard run in the order they were made; job j moves its orders from the prices before
 * j to the prices before j + 1 (the costs as they are, after the last).
 */

/** The cost history of one product and currency as it was before a change. */
export interface PairHistory {
  readonly product: string;
  readonly currency: string;
  readonly entries: readonly { readonly from: string; readonly unitCostCents: number }[];
}

/** A change of prices waiting to be, or being, carried into the rollups. */
interface Job {
  readonly id: number;
  readonly dashboardId: string;
  /** No order created before this instant changes price. */
  readonly fromAt: number;
  /** The orders it moves: sequence numbers up to this one (later orders were priced after the change). */
  readonly maxSeq: number;
  /** Moved so far: sequence numbers up to this one. */
  readonly doneSeq: number;
  /** The price before the change of each product and currency it touched, by `currency\0product`. */
  readonly before: HistoryLookups;
}

const pairKey = (product: string, currency: string): string => `${currency}\u0000${product}`;

/**
 * The histories a change kept, by `currency\0product`, each made into a lookup when first asked for: a
 * slice of a costs file touches hundreds of products, and an order asks for the few it holds.
 */
class HistoryLookups {
  private readonly histories: ReadonlyMap<string, PairHistory>;
  private readonly lookups = new Map<string, UnitCostOf>();

  constructor(
    pairs: readonly PairHistory[],
    private readonly zone: string,
  ) {
    this.histories = new Map(pairs.map((pair) => [pairKey(pair.product, pair.currency), pair]));
  }

  has(key: string): boolean {
    return this.histories.has(key);
  }

  get(key: string): UnitCostOf | undefined {
    let lookup = this.lookups.get(key);
    const pair = this.histories.get(key);
    if (lookup === undefined && pair !== undefined) {
      lookup = unitCostLookup(
        pair.entries.map((entry) => ({ ...entry, product: pair.product, currency: pair.currency })),
        this.zone,
      );
      this.lookups.set(key, lookup);
    }
    return lookup;
  }
}

/** Whether the job has still to move the order `row` (which carries `seq` when it is stored). */
const awaits = (job: Job, row: OrderRow): boolean => {
  const seq = row['seq'] as number | undefined;
  return seq !== undefined && seq > job.doneSeq && seq <= job.maxSeq && (row['created_at'] as number) >= job.fromAt;
};

/** Before every instant an order can have (the earliest a JavaScript date holds). */
const EARLIEST = -8.64e15;

/** How many (zone, day) starts are remembered: the days costs begin on are few. */
const KNOWN_DAYS = 4_096;

/** What re-pricing needs of a connection: the service's (SqliteDatabase, inside a write) or a raw one. */
interface Preparing {
  prepare(sql: string): Statement;
}

/**
 * Each connection's statements, prepared once: a chunk of a job used to prepare five, which took a
 * twentieth of its time. The same text is always used the same way (plucked or not) below.
 */
const preparedOn = new WeakMap<Preparing, Map<string, Statement>>();
const statement = (db: Preparing, sql: string): Statement => {
  let known = preparedOn.get(db);
  if (known === undefined) preparedOn.set(db, (known = new Map<string, Statement>()));
  let prepared = known.get(sql);
  if (prepared === undefined) known.set(sql, (prepared = db.prepare(sql)));
  return prepared;
};

/**
 * The prices of a dashboard as the rollups hold them, on the write's connection, inside its
 * transaction (so two processes writing one file price alike): the costs as they stand, or, for an
 * order a job has still to move, the prices before that job. A dashboard without costs or jobs costs
 * two lookups per paid order.
 */
export class RollupPricer {
  private readonly anyCost: Statement;
  private readonly zone: Statement;
  private readonly history: Statement;
  private readonly jobRows: Statement;
  private readonly jobPairs: Statement;
  private dayStarts = new Map<string, number>();
  /** Each job's prices before it, read once: they never change. */
  private readonly befores = new Map<number, HistoryLookups>();

  constructor(db: Preparing) {
    this.anyCost = db.prepare('SELECT 1 FROM product_costs WHERE dashboard_id = ? LIMIT 1').pluck();
    this.zone = db.prepare('SELECT timezone FROM dashboards WHERE id = ?').pluck();
    this.history = db
      .prepare(
        'SELECT from_date, unit_cost_cents FROM product_costs WHERE dashboard_id = ? AND product = ? AND currency = ? ORDER BY from_date DESC',
      )
      .raw();
    this.jobRows = db.prepare(
      'SELECT id, dashboard_id AS dashboardId, from_at AS fromAt, max_seq AS maxSeq, done_seq AS doneSeq FROM reprice_jobs WHERE dashboard_id = ? ORDER BY id',
    );
    this.jobPairs = db.prepare('SELECT zone, pairs FROM reprice_jobs WHERE id = ?');
  }

  /** `row` priced as the rollups hold it, unless it already is (a re-pricing gives its rows their prices). */
  priced(row: OrderRow): OrderRow {
    if (isPriced(row)) return row;
    if (row['status'] !== 'paid') return pricedRow(row, () => undefined);
    const dashboardId = row['dashboard_id'] as string;
    const jobs = this.jobsOf(dashboardId);
    const waiting = jobs.findIndex((job) => awaits(job, row));
    return pricedRow(row, this.pricesBefore(dashboardId, jobs, waiting < 0 ? jobs.length : waiting));
  }

  /** The dashboard's jobs, oldest first. */
  jobsOf(dashboardId: string): Job[] {
    return (this.jobRows.all(dashboardId) as Omit<Job, 'before'>[]).map((job) => ({ ...job, before: this.beforeOf(job.id) }));
  }

  /**
   * The prices before `jobs[at]` (the costs as they stand when `at` is past the last): for each product
   * and currency, the history kept by the first job from `at` on that touched it, else the table's.
   */
  pricesBefore(dashboardId: string, jobs: readonly Job[], at: number): UnitCostOf {
    const later = jobs.slice(at);
    if (later.length === 0 && this.anyCost.get(dashboardId) === undefined) return () => undefined;
    let zone: string | undefined;
    // Each product and currency's history, found once (the lookup lives within one write): a chunk prices
    // up to CHUNK_SEQS orders twice, and a file uploaded in slices leaves many jobs to look through.
    const chosen = new Map<string, UnitCostOf | readonly (readonly [start: number, cents: number])[]>();
    return (product, currency, instant) => {
      const key = pairKey(product, currency);
      let before = chosen.get(key);
      if (before === undefined) {
        zone ??= (this.zone.get(dashboardId) as string | undefined) ?? 'UTC';
        const inZone = zone;
        before =
          later.find((job) => job.before.has(key))?.before.get(key) ??
          (this.history.all(dashboardId, product, currency) as [string, number][]).map(
            ([from, cents]) => [this.startOf(from, inZone), cents] as const,
          );
        chosen.set(key, before);
      }
      if (typeof before === 'function') return before(product, currency, instant);
      return before.find(([start]) => start <= instant)?.[1];
    };
  }

  private beforeOf(id: number): HistoryLookups {
    let before = this.befores.get(id);
    if (before === undefined) {
      const { zone, pairs } = this.jobPairs.get(id) as { zone: string; pairs: string };
      before = new HistoryLookups(JSON.parse(pairs) as PairHistory[], zone);
      if (this.befores.size >= KNOWN_DAYS) this.befores.clear();
      this.befores.set(id, before);
    }
    return before;
  }

  private startOf(date: string, zone: string): number {
    const id = `${zone}\u0000${date}`;
    let start = this.dayStarts.get(id);
    if (start === undefined) {
      if (this.dayStarts.size >= KNOWN_DAYS) this.dayStarts = new Map();
      start = startOfDate(date, zone);
      this.dayStarts.set(id, start);
    }
    return start;
  }
}

/** A change of prices as it is made: what each touched product and currency cost before, in which zone, from when. */
export interface PriceChange {
  readonly dashboardId: string;
  readonly pairs: readonly PairHistory[];
  readonly zone: string;
  readonly fromAt: number;
  /** Through a job, however few the orders (a slice of a file: one pass carries out its slices' jobs). */
  readonly later?: boolean;
}

/**
 * Carries a change of prices just made (inside its write: the table already holds the new costs) into
 * the rollups: at once when the dashboard has no job running and at most `inlineMax` paid orders
 * were created from `fromAt` on (and the change is not to wait: `later`), else as a job. Returns how
 * it went.
 */
export const carryPriceChange = (
  db: Preparing,
  fold: RollupFold,
  pricer: RollupPricer,
  change: PriceChange,
  inlineMax: number,
): 'nothing to move' | 'moved' | 'queued' => {
  const affected = statement(
    db,
    `SELECT count(*) FROM (SELECT 1 FROM orders INDEXED BY orders_by_status_newest_first
       WHERE dashboard_id = ? AND status = 'paid' AND created_at >= ? LIMIT ?)`,
  )
    .pluck()
    .get(change.dashboardId, change.fromAt, inlineMax + 1) as number;
  if (affected === 0) return 'nothing to move';
  // Whether the dashboard has a job, not its jobs: the slices of a file leave one each, and every
  // slice would read all of them again.
  const running = statement(db, 'SELECT 1 FROM reprice_jobs WHERE dashboard_id = ? LIMIT 1').pluck().get(change.dashboardId) !== undefined;
  if (change.later !== true && !running && affected <= inlineMax) {
    const before = new HistoryLookups(change.pairs, change.zone);
    const was = pricer.pricesBefore(
      change.dashboardId,
      [{ id: 0, dashboardId: change.dashboardId, fromAt: change.fromAt, maxSeq: 0, doneSeq: 0, before }],
      0,
    );
    repriceOrders(db, fold, change.dashboardId, change.fromAt, was, pricer.pricesBefore(change.dashboardId, [], 0));
    return 'moved';
  }
  const maxSeq = (statement(db, 'SELECT max(seq) FROM orders').pluck().get() as number | null) ?? 0;
  statement(db, 'INSERT INTO reprice_jobs (dashboard_id, from_at, max_seq, done_seq, zone, pairs) VALUES (?, ?, ?, 0, ?, ?)').run(
    change.dashboardId,
    change.fromAt,
    maxSeq,
    change.zone,
    JSON.stringify(change.pairs),
  );
  return 'queued';
};

/**
 * What one chunk of a job may do: scan this many sequence numbers, or move this many orders (each
 * moves about a dozen rollup rows, written before the chunk's COMMIT), whichever comes first. Writing
 * those rows into large rollup tables is most of a chunk's time: at 1,000,000 orders, 100 orders took
 * about 55 ms of the event loop; 25 take about 15.
 */
export const CHUNK_SEQS = 2_000;
export const CHUNK_MOVES = 25;
/**
 * The orders a chunk reads, at most: it used to read all the paid orders of its range (up to
 * CHUNK_SEQS) and then stop after CHUNK_MOVES moves or CHUNK_MS, building rows it never looked at.
 */
export const CHUNK_ROWS = 250;
/**
 * Nor past this many milliseconds of looking at orders: most of them need no move when a file's slices
 * price products nobody sold, and looking at 2,000 of them took 16-21 ms of the event loop a chunk.
 */
export const CHUNK_MS = SLICE_MS;

/**
 * One chunk (inside a write of the group commit) of the oldest jobs of the dashboard whose turn it is:
 * the first with a job after `after` in the order of their ids, round, so that a dashboard's long job
 * (minutes at 1,000,000 orders) delays another's by a chunk at a time, never by the whole of it
 * (decision 0023). The oldest job is carried out together with the jobs after it that have reached
 * the same sequence number (those not begun, when it has not either): a file uploaded in slices
 * leaves a job per slice, which one pass over the orders carries out. Each of their next orders, in
 * sequence order, moves from the prices before the first of them it awaits to the prices after the
 * last of them, and their progress is saved with it; a job is gone once it has moved all its orders.
 * Resolves the dashboard served, or undefined when there is no job. A chunk stops looking at orders
 * after `chunkMs` (it looks at one at least).
 */
export const runRepriceChunk = (
  db: Preparing,
  fold: RollupFold,
  pricer: RollupPricer,
  after?: string,
  chunkMs = CHUNK_MS,
): string | undefined => {
  const now = () => performance.now();
  const started = now();
  const turn = statement(db, 'SELECT min(dashboard_id) FROM reprice_jobs WHERE dashboard_id > ?').pluck();
  const next = ((after === undefined ? undefined : turn.get(after)) ?? turn.get('')) as string | null | undefined;
  if (next === null || next === undefined) return undefined;
  const jobs = pricer.jobsOf(next);
  const doneSeq = jobs[0].doneSeq;
  let together = 1;
  while (together < jobs.length && jobs[together].doneSeq === doneSeq) together++;
  const group = jobs.slice(0, together);
  let upTo = Math.min(Math.max(...group.map((job) => job.maxSeq)), doneSeq + CHUNK_SEQS);
  const is = pricer.pricesBefore(next, jobs, together);
  const was = new Map<number, UnitCostOf>();
  const rows = statement(
    db,
    // NOT INDEXED: the range of sequence numbers on the primary key (2 ms at 1,000,000 orders); the planner
    // otherwise takes the dashboard's paid orders by date and sorts them (121 ms).
    `SELECT seq, ${fold.reads.join(', ')} FROM orders NOT INDEXED
     WHERE seq > ? AND seq <= ? AND dashboard_id = ? AND status = 'paid' AND created_at >= ? ORDER BY seq LIMIT ${CHUNK_ROWS}`,
  ).all(doneSeq, upTo, next, Math.min(...group.map((job) => job.fromAt))) as OrderRow[];
  // The rows read end before the range does: the chunk goes as far as the last of them.
  if (rows.length === CHUNK_ROWS) upTo = rows[rows.length - 1]['seq'] as number;
  let moves = 0;
  for (const [i, row] of rows.entries()) {
    if (moves === CHUNK_MOVES || (i > 0 && now() - started >= chunkMs)) {
      upTo = (row['seq'] as number) - 1;
      break;
    }
    const first = group.findIndex((job) => awaits(job, row));
    if (first < 0) continue;
    if (!was.has(first)) was.set(first, pricer.pricesBefore(next, jobs, first));
    if (move(fold, row, was.get(first)!, is)) moves += 1;
  }
  const remove = statement(db, 'DELETE FROM reprice_jobs WHERE id = ?');
  const progress = statement(db, 'UPDATE reprice_jobs SET done_seq = ? WHERE id = ?');
  for (const job of group) {
    if (upTo >= job.maxSeq) remove.run(job.id);
    else progress.run(upTo, job.id);
  }
  return next;
};

/**
 * Moves one order's costs in the rollups from its prices under `was` to its prices under `is`, its
 * total and each product's; false when every product's unit cost is the same under both.
 */
const move = (fold: RollupFold, row: OrderRow, was: UnitCostOf, is: UnitCostOf): boolean => {
  const before = pricedRow(row, was);
  const after = pricedRow(before, is);
  if (samePrices(before, after)) return false;
  fold.replace(before, after);
  return true;
};

/**
 * Moves the costs the rollups hold for the dashboard's paid orders created from `fromAt` on from
 * their price under `before` to their price under `after` (in the fold, inside the running write).
 * Returns how many orders moved.
 */
export const repriceOrders = (
  db: Preparing,
  fold: RollupFold,
  dashboardId: string,
  fromAt: number,
  before: UnitCostOf,
  after: UnitCostOf,
): number => {
  const scan = db.prepare(
    `SELECT ${fold.reads.join(', ')} FROM orders INDEXED BY orders_by_status_newest_first
     WHERE dashboard_id = ? AND status = 'paid' AND created_at >= ?`,
  );
  let moved = 0;
  for (const row of scan.iterate(dashboardId, fromAt) as Iterable<OrderRow>) if (move(fold, row, before, after)) moved += 1;
  return moved;
};

/** A dashboard's product costs and time zone (`zone` when it has no row), read on `db`. */
export const priceListOf = (db: Preparing, dashboardId: string, zone = 'UTC'): { entries: ProductCostEntry[]; zone: string } => ({
  entries: db
    .prepare('SELECT product, currency, from_date AS "from", unit_cost_cents AS unitCostCents FROM product_costs WHERE dashboard_id = ?')
    .all(dashboardId) as ProductCostEntry[],
  zone: (db.prepare('SELECT timezone FROM dashboards WHERE id = ?').pluck().get(dashboardId) as string | undefined) ?? zone,
});

/** Each touched product and currency's history, as the table holds it now. */
export const historiesOf = (db: Preparing, dashboardId: string, pairs: readonly { product: string; currency: string }[]): PairHistory[] => {
  const select = db.prepare(
    'SELECT from_date AS "from", unit_cost_cents AS unitCostCents FROM product_costs WHERE dashboard_id = ? AND product = ? AND currency = ? ORDER BY from_date',
  );
  const unique = [...new Map(pairs.map((pair) => [pairKey(pair.product, pair.currency), pair])).values()];
  return unique.map(({ product, currency }) => ({
    product,
    currency,
    entries: select.all(dashboardId, product, currency) as PairHistory['entries'],
  }));
};

/**
 * Prices every paid order of every dashboard that has costs, from unpriced (what the rollups' SQL
 * rebuild sums: no cost, every unit uncosted) to the costs as they are, and drops the jobs (everything
 * is at today's prices): the second half of a rebuild.
 */
export const priceRebuiltRollups = (db: Preparing, fold: RollupFold): number => {
  const ids = db.prepare('SELECT DISTINCT dashboard_id FROM product_costs').pluck().all() as string[];
  let moved = 0;
  for (const dashboardId of ids) {
    const { entries, zone } = priceListOf(db, dashboardId);
    moved += repriceOrders(db, fold, dashboardId, EARLIEST, () => undefined, unitCostLookup(entries, zone));
  }
  db.prepare('DELETE FROM reprice_jobs').run();
  return moved;
};

/** Every rollup emptied and summed again from the orders, costs included, in one transaction of its own on `db` (a copy, a test). */
export const rebuildRollups = (db: Database): void => {
  const pricer = new RollupPricer(db);
  const fold = new RollupFold(db, ORDER_ROLLUPS, (row) => pricer.priced(row));
  db.transaction(() => {
    fold.begin();
    fold.startWrite();
    for (const sql of rebuildStatements()) db.prepare(sql).run();
    priceRebuiltRollups(db, fold);
    fold.keepWrite();
    fold.beforeCommit();
  }).immediate();
};

/**
 * The change a new time zone makes: every cost entry's first instant moves from its day's start in
 * `was` to its start in `is`, so every product and currency is touched, from the earliest of those
 * instants on.
 */
export const zoneChange = (db: Preparing, dashboardId: string, was: string, is: string): PriceChange | undefined => {
  if (was === is) return undefined;
  const { entries } = priceListOf(db, dashboardId);
  if (entries.length === 0) return undefined;
  const starts = entries.flatMap((entry) => [startOfDate(entry.from, was), startOfDate(entry.from, is)]);
  return { dashboardId, pairs: historiesOf(db, dashboardId, entries), zone: was, fromAt: Math.min(...starts) };
};
