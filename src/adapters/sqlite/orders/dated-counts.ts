import type { Statement } from 'better-sqlite3';
import type { OrderStatus } from '../../../domain/order-status';
import { piecesOf, runsOf, type Grain } from '../../persistence/report-pieces';
import type { SqliteDatabase } from '../sqlite-database';
import { builtStatements } from '../built-statements';

export interface CountedPiece {
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  readonly orders: number;
}

const GRAINS: readonly Grain[] = ['m', 'd', 'h', 'q'];

/**
 * How many of a dashboard's orders (of one status, or all) were created in each piece of a range:
 * whole UTC months, days, hours and quarters read from `report_totals`, and the few minutes at each end
 * counted on the index. A listing's `total` with dates is their sum, and a deep page starts in the piece
 * that holds its offset, so neither walks the entries before it. Called inside a read snapshot.
 */
export class DatedCounts {
  private readonly prepared: (sql: string) => Statement;

  constructor(db: SqliteDatabase) {
    this.prepared = builtStatements(db);
  }

  pieces(dashboardId: string, status: OrderStatus | undefined, start: number, end: number): CountedPiece[] {
    const pieces = piecesOf([{ start, end }], GRAINS);
    const counted = new Map<number, number>();
    const column = status ?? 'pending + paid + refused + refunded + chargedback';
    for (const grain of GRAINS) {
      for (const { first, last } of runsOf(pieces, grain)) {
        const rows = this.prepared(
          `SELECT start, sum(${column}) AS orders FROM report_totals WHERE dashboard_id = ? AND grain = ? AND start BETWEEN ? AND ? GROUP BY start`,
        ).all(dashboardId, grain, first, last) as { start: number; orders: number }[];
        for (const row of rows) counted.set(row.start, row.orders);
      }
    }
    const edge = this.prepared(
      `SELECT count(*) AS orders FROM orders INDEXED BY ${status === undefined ? 'orders_newest_first' : 'orders_by_status_newest_first'}
       WHERE dashboard_id = @dashboardId${status === undefined ? '' : ' AND status = @status'} AND created_at >= @from AND created_at < @to`,
    );
    return pieces.map((piece) => ({
      start: piece.start,
      end: piece.end,
      orders:
        piece.grain === 'edge'
          ? (edge.get({ dashboardId, ...(status === undefined ? {} : { status }), from: piece.start, to: piece.end }) as { orders: number })
              .orders
          : (counted.get(piece.start) ?? 0),
    }));
  }

  /**
   * The first and last `createdAt` of the dashboard's orders: two seeks on the listing index (one
   * statement with both min() and max() would walk the whole index, SQLite optimises only a lone one).
   */
  span(dashboardId: string): { first: number; last: number } | undefined {
    const end = (direction: 'ASC' | 'DESC'): number | undefined =>
      (
        this.prepared(
          `SELECT created_at FROM orders INDEXED BY orders_newest_first WHERE dashboard_id = ? ORDER BY created_at ${direction} LIMIT 1`,
        ).get(dashboardId) as { created_at: number } | undefined
      )?.created_at;
    const first = end('ASC');
    const last = end('DESC');
    return first === undefined || last === undefined ? undefined : { first, last };
  }
}

/**
 * Where a page at `offset` (newest first) begins: below the end of the piece that holds it, after
 * skipping the orders of that piece that are newer. `undefined` when the offset is past every order.
 */
export const pageStart = (pieces: readonly CountedPiece[], offset: number): { before: number; skip: number } | undefined => {
  let newer = 0;
  for (let i = pieces.length - 1; i >= 0; i--) {
    const piece = pieces[i];
    if (newer + piece.orders > offset) return { before: piece.end, skip: offset - newer };
    newer += piece.orders;
  }
  return undefined;
};
