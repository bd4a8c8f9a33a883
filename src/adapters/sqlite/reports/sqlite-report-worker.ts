import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CellQuery, ProductQuery, RankedBreakdownQuery, UncostedQuery } from '../../../application/ports/report-reader';
import type { SpendSumQuery } from '../../../application/ports/spend-repository';
import { unavailableMeaning } from '../sqlite-errors';
import { SqliteReportQueries } from './sqlite-report-reader';
import { SqliteSpendSums } from '../spend/sqlite-spend-sums';

/**
 * The thread that runs the SQLite store's reports (sqlite-report-offload.ts): a read-only connection of
 * its own to the file, each report one read transaction (a snapshot that includes every commit made
 * before it began), answered by id. A breakdown is grouped, joined with spend, ranked and cut here:
 * only the rows it answers go back (decision 0023); so is the products report.
 */
export type ReportRequest =
  | { readonly id: number; readonly kind: 'cells'; readonly dashboardId: string; readonly query: CellQuery }
  | { readonly id: number; readonly kind: 'breakdown'; readonly dashboardId: string; readonly query: RankedBreakdownQuery }
  | { readonly id: number; readonly kind: 'products'; readonly dashboardId: string; readonly query: ProductQuery }
  | { readonly id: number; readonly kind: 'uncostedProducts'; readonly dashboardId: string; readonly query: UncostedQuery }
  | { readonly id: number; readonly kind: 'uncosted'; readonly dashboardId: string; readonly query: Omit<UncostedQuery, 'limit'> }
  | { readonly id: number; readonly kind: 'spend'; readonly dashboardId: string; readonly query: SpendSumQuery };

const { file } = workerData as { file: string };
const connection = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 2_000 });
connection.pragma('trusted_schema = OFF');
const reading = {
  prepare: (sql: string) => connection.prepare(sql),
  readTogether: <T>(run: () => T) => connection.transaction(run).deferred(),
};
const queries = new SqliteReportQueries(reading);
const spend = new SqliteSpendSums(reading);

const answer = async (request: ReportRequest): Promise<unknown> => {
  switch (request.kind) {
    case 'cells':
      return { cells: queries.cells(request.dashboardId, request.query) };
    case 'breakdown':
      return { breakdown: await queries.breakdown(request.dashboardId, request.query) };
    case 'products':
      return { products: await queries.products(request.dashboardId, request.query) };
    case 'uncostedProducts':
      return { uncostedProducts: await queries.uncostedProducts(request.dashboardId, request.query) };
    case 'uncosted':
      return { uncosted: queries.uncosted(request.dashboardId, request.query) };
    case 'spend':
      return { spend: spend.sums(request.dashboardId, request.query) };
  }
};

parentPort!.on('message', (request: ReportRequest) => {
  // The reply's post inside the chain: a reply that cannot be posted is answered as this request's error.
  answer(request)
    .then((reply) => parentPort!.postMessage({ id: request.id, ...(reply as object) }))
    .catch((err: unknown) => {
      const meaning = unavailableMeaning(err);
      parentPort!.postMessage({
        id: request.id,
        error: { message: meaning ?? (err instanceof Error ? err.message : 'report failed'), unavailable: meaning !== undefined },
      });
    });
});
