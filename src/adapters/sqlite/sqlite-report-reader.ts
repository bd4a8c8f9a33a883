import type { Statement } from 'better-sqlite3';
import type { CellQuery, ReportCell, ReportReader } from '../../application/ports/report-reader';
import { UTM_DIMENSIONS, type ReportDimension } from '../../domain/attribution';
import type { CellTotals } from '../../domain/report';
import { piecesOf, runsOf } from '../persistence/report-pieces';
import { CellCollector } from '../persistence/report-cells';
import { PROJECTIONS, rebuildStatements, TOTAL_COLUMNS } from './report-schema';
import type { SqliteDatabase } from './sqlite-database';
import { builtStatements } from './built-statements';

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

/** The column of `orders` that holds each dimension under each model. */
const ORDER_COLUMN: Readonly<Record<'last' | 'first', Readonly<Record<ReportDimension, string>>>> = {
  last: { ...ROLLUP_COLUMN, utmContent: 'last_content', utmTerm: 'last_term' },
  first: {
    utmSource: 'first_source',
    utmMedium: 'first_medium',
    utmCampaign: 'first_campaign',
    utmContent: 'first_content',
    utmTerm: 'first_term',
    platform: 'platform',
    paymentMethod: 'payment_method',
  },
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

const ROLLUP_SUMS = TOTAL_COLUMNS.map((column) => {
  const alias = column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  return `sum(${column}) AS ${alias}`;
}).join(', ');

type SumRow = CellTotals & { readonly start?: number; readonly currency: string } & Readonly<Record<string, unknown>>;

/** What the report queries need of a connection: the service's, or a worker thread's own read-only one. */
export interface ReadConnection {
  prepare(sql: string): Statement;
  readTogether<T>(queries: () => T): T;
}

/**
 * Reports from the rollup tables of report-schema.ts: each bucket cut into whole UTC months, days,
 * hours and quarters of the smallest projection that holds the query's dimensions and filters, each
 * run of consecutive periods one range read on its primary key, and the edges read from the orders
 * on `orders_newest_first`. All of it on one snapshot of the file.
 */
export class SqliteReportQueries {
  private readonly prepared: (sql: string) => Statement;

  constructor(private readonly db: ReadConnection) {
    this.prepared = builtStatements(db);
  }

  cells(dashboardId: string, query: CellQuery): ReportCell[] {
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
    this.db.readTogether(() => {
      for (const grain of projection.grains) {
        const runs = runsOf(pieces, grain);
        if (runs.length === 0) continue;
        const bucketOf = new Map(pieces.filter((piece) => piece.grain === grain).map((piece) => [piece.start, piece.bucket]));
        const statement = this.rollupStatement(projection.table, projection.modelled, query, filters);
        for (const { first, last } of runs) {
          const params = { ...base, grain, first, last, ...(projection.modelled ? { model: query.model === 'first' ? 'f' : 'l' } : {}) };
          for (const row of statement.all(params) as SumRow[])
            collector.addTotals(bucketOf.get(row.start!)!, keyOf(row), row.currency, row);
        }
      }
      const edges = pieces.filter((piece) => piece.grain === 'edge');
      if (edges.length > 0) {
        const statement = this.edgeStatement(query, filters);
        for (const edge of edges) {
          for (const row of statement.all({ ...base, from: edge.start, to: edge.end }) as SumRow[])
            collector.addTotals(edge.bucket, keyOf(row), row.currency, row);
        }
      }
    });
    return collector.result();
  }

  private rollupStatement(table: string, modelled: boolean, query: CellQuery, filters: readonly ReportDimension[]): Statement {
    const dims = query.by.map((d) => `${ROLLUP_COLUMN[d]} AS ${d}`);
    const where = [
      'dashboard_id = @dashboardId',
      'grain = @grain',
      'start BETWEEN @first AND @last',
      ...(modelled ? ['model = @model'] : []),
      ...(query.isTest === undefined ? [] : ['is_test = @isTest']),
      ...filters.map((d) => `${ROLLUP_COLUMN[d]} = @f_${d}`),
    ];
    const group = ['start', 'currency', ...query.by.map((d) => ROLLUP_COLUMN[d])];
    return this.prepared(
      `SELECT start, currency, ${[...dims, ROLLUP_SUMS].join(', ')} FROM ${table} WHERE ${where.join(' AND ')} GROUP BY ${group.join(', ')}`,
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

  /** One write of the group commit: every rollup emptied and summed again from `orders`. */
  async rebuild(): Promise<void> {
    const statements = rebuildStatements().map((sql) => this.db.prepare(sql));
    await this.db.write(() => {
      for (const statement of statements) statement.run();
    });
  }
}
