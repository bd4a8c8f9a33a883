import type { Statement } from 'better-sqlite3';
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
import type { SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import { joinedSpend, rankBreakdown } from '../../../application/reports/rank-breakdown';
import { rankProductsNow, rankUncostedNow } from '../../../application/reports/rank-products';
import { UTM_DIMENSIONS, type ReportDimension } from '../../../domain/attribution';
import type { UnitCostOf } from '../../../domain/product-cost';
import type { Range, StatusTotals } from '../../../domain/report';
import { piecesOf, type Grain, type Piece } from '../../persistence/report-pieces';
import { CellCollector } from '../../persistence/report-cells';
import { PROJECTIONS, rebuildStatements, TOTAL_COLUMNS } from './report-schema';
import type { SqliteDatabase } from '../sqlite-database';
import { builtStatements } from '../built-statements';
import { SqliteProductReads } from './sqlite-product-reads';
import { ORDER_COLUMN, SqliteProfitReads } from './sqlite-profit-reads';
import { SqliteSpendSums } from '../spend/sqlite-spend-sums';
import { priceRebuiltRollups } from './rollup-costs';

/** The column of each dimension in the rollup tables. */
const ROLLUP_COLUMN: Readonly<Record<ReportDimension, string>> = {
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmContent: 'utm_content',
  utmTerm: 'utm_term',
  platform: 'platform',
  paymentMethod: 'payment_method',
};

const ORDER_SUMS = [
  "sum(status = 'pending') AS pending",
  "sum(status = 'paid') AS paid",
  "sum(status = 'refused') AS refused",
  "sum(status = 'refunded') AS refunded",
  "sum(status = 'chargedback') AS chargedback",
  'sum(gross_cents) AS grossCents',
  "sum(CASE WHEN status = 'paid' THEN gross_cents ELSE 0 END) AS paidGrossCents",
  "sum(CASE WHEN status = 'paid' THEN net_to_seller_cents ELSE 0 END) AS paidNetCents",
  "sum(CASE WHEN status = 'refunded' THEN gross_cents ELSE 0 END) AS refundedCents",
  "sum(CASE WHEN status = 'chargedback' THEN gross_cents ELSE 0 END) AS chargedbackCents",
].join(', ');

const ROLLUP_SUMS_OF = (table: string): string =>
  TOTAL_COLUMNS.map((column) => `sum(${table}.${column}) AS ${column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}`).join(', ');

/** Bucket ranges per statement: three bound parameters each, well within SQLite's limit. */
const MAX_RANGES = 400;

/** The whole periods of one grain, joined into `[start, end)` ranges, each within one bucket. */
const rangesOf = (pieces: readonly Piece[], grain: Grain): { bucket: number; start: number; end: number }[] => {
  const ranges: { bucket: number; start: number; end: number }[] = [];
  for (const piece of pieces) {
    if (piece.grain !== grain) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last.bucket === piece.bucket && last.end === piece.start) last.end = piece.end;
    else ranges.push({ bucket: piece.bucket, start: piece.start, end: piece.end });
  }
  return ranges;
};

type SumRow = StatusTotals & { readonly start?: number; readonly currency: string } & Readonly<Record<string, unknown>>;

/** What the report queries need of a connection: the service's, or a worker thread's own read-only one. */
export interface ReadConnection {
  prepare(sql: string): Statement;
  readTogether<T>(queries: () => T): T;
}

/**
 * Reports from the rollup tables of report-schema.ts: each bucket cut into whole UTC months, days,
 * hours and quarters of the smallest projection that holds the query's dimensions and filters, each
 * run of consecutive periods one range read on its primary key, and the edges read from the orders
 * on `orders_newest_first`; the lines' costs added by SqliteProfitReads. All of it on one snapshot of
 * the file.
 */
export class SqliteReportQueries {
  private readonly prepared: (sql: string) => Statement;
  private readonly spend: SqliteSpendSums;
  private readonly profit: SqliteProfitReads;
  private readonly productReads: SqliteProductReads;

  constructor(private readonly db: ReadConnection) {
    this.prepared = builtStatements(db);
    this.spend = new SqliteSpendSums(db);
    this.profit = new SqliteProfitReads(db);
    this.productReads = new SqliteProductReads(db, this.profit);
  }

  /** The cells of both periods and the spend that joins them, read on one snapshot, then ranked and cut (ReportReader.breakdown). */
  breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown> {
    const read = this.db.readTogether(() => {
      const unitCostOf = this.profit.priceList(dashboardId, query.costZone);
      const period = (range: Range, days = query.spend?.days) => ({
        cells: this.pricedCells(dashboardId, { ...query, buckets: [range] }, unitCostOf),
        spend: joinedSpend(query.spend, (sums) => this.spend.sums(dashboardId, sums), days),
      });
      return {
        current: period(query.range),
        previous: query.previous === undefined ? undefined : period(query.previous.range, query.previous.spend?.days),
      };
    });
    return rankBreakdown(read.current.cells, read.current.spend, query, read.previous);
  }

  /**
   * The products report (ReportReader.products): both periods' cells read, ranked and cut, and the
   * rows answered named, on one snapshot.
   */
  products(dashboardId: string, query: ProductQuery): Promise<ProductReport> {
    return Promise.resolve(
      this.db.readTogether(() => {
        const unitCostOf = this.profit.priceList(dashboardId, query.costZone);
        const current = this.productReads.cells(dashboardId, query, query.range, unitCostOf);
        const previous =
          query.previous === undefined ? undefined : this.productReads.cells(dashboardId, query, query.previous.range, unitCostOf);
        const names = this.productReads.nameRows(dashboardId, query, [...current.rollup, ...(previous?.rollup ?? [])]);
        return rankProductsNow(current.cells, query, previous?.cells, names);
      }),
    );
  }

  /** The products sold without a cost, from the products report's cells of the range (ReportReader.uncostedProducts). */
  uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts> {
    return Promise.resolve(
      this.db.readTogether(() => {
        const read = this.productReads.cells(dashboardId, query, query.range, this.profit.priceList(dashboardId, query.costZone));
        return rankUncostedNow(read.cells, query.limit, this.productReads.nameRows(dashboardId, query, read.rollup));
      }),
    );
  }

  /** What the products report of the range leaves out of profit (ReportReader.uncosted). */
  uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): UncostedSummary {
    return this.productReads.uncosted(dashboardId, query, query.range, this.profit.priceList(dashboardId, query.costZone));
  }

  cells(dashboardId: string, query: CellQuery): ReportCell[] {
    return this.db.readTogether(() => this.pricedCells(dashboardId, query, this.profit.priceList(dashboardId, query.costZone)));
  }

  private pricedCells(dashboardId: string, query: CellQuery, unitCostOf: UnitCostOf): ReportCell[] {
    const used = new Set<ReportDimension>([...query.by, ...UTM_DIMENSIONS.filter((d) => query.filters[d] !== undefined)]);
    const projection = PROJECTIONS.find((p) => [...used].every((d) => p.keys.some((k) => k.column === ROLLUP_COLUMN[d])))!;
    const pieces = piecesOf(query.buckets, projection.grains);
    const collector = new CellCollector(query);
    const filters = UTM_DIMENSIONS.filter((d) => query.filters[d] !== undefined);
    const base = {
      dashboardId,
      ...(query.isTest === undefined ? {} : { isTest: query.isTest ? 1 : 0 }),
      ...Object.fromEntries(filters.map((d) => [`f_${d}`, query.filters[d]])),
    };
    const keyOf = (row: SumRow) => Object.fromEntries(query.by.map((d) => [d, row[d] as string]));
    const model = projection.modelled ? { model: query.model === 'first' ? 'f' : 'l' } : {};
    this.db.readTogether(() => {
      // While a re-pricing job of the dashboard runs, the rollups hold some orders at the prices before it: costs come from the orders.
      const repricing = this.prepared('SELECT 1 FROM reprice_jobs WHERE dashboard_id = ? LIMIT 1').get(dashboardId) !== undefined;
      for (const grain of projection.grains) {
        const ranges = rangesOf(pieces, grain);
        for (let at = 0; at < ranges.length; at += MAX_RANGES) {
          const chunk = ranges.slice(at, at + MAX_RANGES);
          const statement = this.rollupStatement(projection.table, projection.modelled, query, filters, chunk.length);
          const bound = {
            ...base,
            ...model,
            grain,
            ...Object.fromEntries(
              chunk.flatMap((r, i) => [
                [`b${i}`, r.bucket],
                [`s${i}`, r.start],
                [`e${i}`, r.end],
              ]),
            ),
          };
          for (const row of statement.all(bound) as (SumRow & { bucket: number })[])
            collector.addTotals(row.bucket, keyOf(row), row.currency, repricing ? { ...row, productCostCents: 0, uncostedUnits: 0 } : row);
        }
      }
      const edges = pieces.filter((piece) => piece.grain === 'edge');
      if (edges.length > 0) {
        const statement = this.edgeStatement(query, filters);
        for (const edge of edges) {
          for (const row of statement.all({ ...base, from: edge.start, to: edge.end }) as SumRow[])
            collector.addTotals(edge.bucket, keyOf(row), row.currency, row);
          if (!repricing) this.profit.addCosts(dashboardId, query, edge, collector, unitCostOf);
        }
      }
      if (repricing)
        query.buckets.forEach((bucket, at) => this.profit.addCosts(dashboardId, query, { ...bucket, bucket: at }, collector, unitCostOf));
    });
    return collector.result();
  }

  /**
   * The sums of a projection's rows of one grain in each of `ranges` bucket ranges (bound as `b<i>`,
   * `s<i>`, `e<i>`), grouped by bucket in the database: each range a scan of the primary key.
   */
  private rollupStatement(
    table: string,
    modelled: boolean,
    query: CellQuery,
    filters: readonly ReportDimension[],
    ranges: number,
  ): Statement {
    const values = Array.from({ length: ranges }, (_, i) => `(@b${i}, @s${i}, @e${i})`).join(', ');
    const dims = query.by.map((d) => `r.${ROLLUP_COLUMN[d]} AS ${d}`);
    const where = [
      'r.dashboard_id = @dashboardId',
      'r.grain = @grain',
      'r.start >= ranges.s',
      'r.start < ranges.e',
      ...(modelled ? ['r.model = @model'] : []),
      ...(query.isTest === undefined ? [] : ['r.is_test = @isTest']),
      ...filters.map((d) => `r.${ROLLUP_COLUMN[d]} = @f_${d}`),
    ];
    const group = ['ranges.bucket', 'r.currency', ...query.by.map((d) => `r.${ROLLUP_COLUMN[d]}`)];
    return this.prepared(
      `WITH ranges (bucket, s, e) AS (VALUES ${values})
       SELECT ranges.bucket AS bucket, r.currency AS currency, ${[...dims, ROLLUP_SUMS_OF('r')].join(', ')}
       FROM ranges CROSS JOIN ${table} AS r WHERE ${where.join(' AND ')} GROUP BY ${group.join(', ')}`,
    );
  }

  private edgeStatement(query: CellQuery, filters: readonly ReportDimension[]): Statement {
    const columns = ORDER_COLUMN[query.model];
    const dims = query.by.map((d) => `${columns[d]} AS ${d}`);
    const where = [
      'dashboard_id = @dashboardId',
      'created_at >= @from',
      'created_at < @to',
      ...(query.isTest === undefined ? [] : ['is_test = @isTest']),
      ...filters.map((d) => `${columns[d]} = @f_${d}`),
    ];
    const group = ['currency', ...query.by.map((d) => columns[d])];
    return this.prepared(
      `SELECT currency, ${[...dims, ORDER_SUMS].join(', ')} FROM orders INDEXED BY orders_newest_first WHERE ${where.join(' AND ')} GROUP BY ${group.join(', ')}`,
    );
  }
}

/** Runs a report's queries somewhere else than on the event loop's thread (sqlite-report-worker.ts). */
export interface ReportOffload {
  cells(dashboardId: string, query: CellQuery): Promise<ReportCell[]>;
  /** Only the rows answered come back from there. */
  breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown>;
  products(dashboardId: string, query: ProductQuery): Promise<ProductReport>;
  uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts>;
  uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): Promise<UncostedSummary>;
  /** Spend summed there: a filter on a source alone reads every entry of its campaigns. */
  spendSums(dashboardId: string, query: SpendSumQuery): Promise<SpendSum[]>;
  close(): Promise<void>;
}

/**
 * The ReportReader of the SQLite store. A report reads up to tens of thousands of rollup rows, which
 * would hold the event loop: with `offload` (a worker thread with a read-only connection of its own;
 * WAL lets it read while the service writes) it runs there, and inline otherwise (a file in memory).
 */
export class SqliteReportReader implements ReportReader {
  private readonly inline: SqliteReportQueries;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly offload?: ReportOffload,
  ) {
    this.inline = new SqliteReportQueries(db);
  }

  async cells(dashboardId: string, query: CellQuery): Promise<readonly ReportCell[]> {
    return this.offload === undefined ? this.inline.cells(dashboardId, query) : this.offload.cells(dashboardId, query);
  }

  async breakdown(dashboardId: string, query: RankedBreakdownQuery): Promise<Breakdown> {
    return this.offload === undefined ? this.inline.breakdown(dashboardId, query) : this.offload.breakdown(dashboardId, query);
  }

  async products(dashboardId: string, query: ProductQuery): Promise<ProductReport> {
    return this.offload === undefined ? this.inline.products(dashboardId, query) : this.offload.products(dashboardId, query);
  }

  async uncostedProducts(dashboardId: string, query: UncostedQuery): Promise<UncostedProducts> {
    return this.offload === undefined
      ? this.inline.uncostedProducts(dashboardId, query)
      : this.offload.uncostedProducts(dashboardId, query);
  }

  async uncosted(dashboardId: string, query: Omit<UncostedQuery, 'limit'>): Promise<UncostedSummary> {
    return this.offload === undefined ? this.inline.uncosted(dashboardId, query) : this.offload.uncosted(dashboardId, query);
  }

  /** One write of the group commit: every rollup emptied and summed again from `orders`, then the orders of dashboards with costs priced (rollup-costs.ts). */
  async rebuild(): Promise<void> {
    const statements = rebuildStatements().map((sql) => this.db.prepare(sql));
    await this.db.write(() => {
      this.db.rollups.settle();
      for (const statement of statements) statement.run();
      priceRebuiltRollups(this.db, this.db.rollups);
    });
  }
}
