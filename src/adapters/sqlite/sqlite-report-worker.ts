import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { CellQuery } from '../../application/ports/report-reader';
import { unavailableMeaning } from './sqlite-errors';
import { SqliteReportQueries } from './sqlite-report-reader';

/**
 * The thread that runs the SQLite store's reports (sqlite-report-offload.ts): a read-only connection of
 * its own to the file, each report one read transaction (a snapshot that includes every commit made
 * before it began), answered by id.
 */
interface Request {
  readonly id: number;
  readonly dashboardId: string;
  readonly query: CellQuery;
}

const { file } = workerData as { file: string };
const connection = new BetterSqlite3(file, { readonly: true, fileMustExist: true, timeout: 2_000 });
connection.pragma('trusted_schema = OFF');
const queries = new SqliteReportQueries({
  prepare: (sql) => connection.prepare(sql),
  readTogether: (run) => connection.transaction(run).deferred(),
});

parentPort!.on('message', ({ id, dashboardId, query }: Request) => {
  try {
    parentPort!.postMessage({ id, cells: queries.cells(dashboardId, query) });
  } catch (err) {
    const meaning = unavailableMeaning(err);
    parentPort!.postMessage({
      id,
      error: { message: meaning ?? (err instanceof Error ? err.message : 'report failed'), unavailable: meaning !== undefined },
    });
  }
});
