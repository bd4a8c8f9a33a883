import type { Statement } from 'better-sqlite3';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Logger } from '../../../application/ports/logger';
import type {
  OrderCursorPage,
  OrderCursorQuery,
  OrderEvent,
  OrderPage,
  OrderQuery,
  OrderRepository,
  OrderSummary,
} from '../../../application/ports/order-repository';
import { duplicateExternalId, type DuplicateExternalId } from '../../../domain/errors';
import type { Order } from '../../../domain/order';
import { keyOfShape, keysetSql, listingParams, listingSql, shapeOf, type ListingSql } from './order-listing';
import {
  EVENT_COLUMNS,
  eventFromRow,
  eventRowCodec,
  eventRowsOf,
  ORDER_COLUMNS,
  orderFromRow,
  type OrderRow,
  orderRowCodec,
  orderToRow,
  WRITE_COLUMNS,
  summaryFromRow,
  summaryRowCodec,
} from './order-rows';
import { positionalLists } from '../column-lists';
import { DatedCounts, pageStart } from './dated-counts';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';

const columns = ORDER_COLUMNS.join(', ');
const writing = positionalLists(WRITE_COLUMNS, ['id', 'dashboard_id', 'external_id']);

/** Beyond this offset, a page without dates starts from the counts rather than walking the entries before it. */
const DEEP_OFFSET = 2_000;

/**
 * Orders in the `orders` table, their outbox in `order_events`, written in the same transaction, with
 * what each write changes in the rollups (rollup-fold.ts). Every decision that must have a single
 * winner is settled inside the write's transaction, which holds the file's write lock: the unique
 * (dashboard, externalId) index settles duplicates (`ON CONFLICT DO NOTHING`, no read first), and a
 * replace finds the version it replaces, with what the rollups read of it, before it updates.
 */
export class SqliteOrderRepository implements OrderRepository {
  private readonly insertOrder: Statement;
  private readonly insertEvent: Statement;
  private readonly claimVersion: Statement;
  private readonly updateOrder: Statement;
  private readonly selectOrder: Statement;
  private readonly selectOutbox: Statement;
  private readonly listings = new Map<string, { page: Statement; count: Statement }>();
  private readonly keysets = new Map<string, Statement>();
  private readonly counts: DatedCounts;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertOrder = db.prepare(
      `INSERT INTO orders (${writing.names}) VALUES (${writing.bindings}) ON CONFLICT (dashboard_id, external_id) DO NOTHING`,
    );
    this.insertEvent = db.prepare(
      'INSERT INTO order_events (id, order_seq, type, occurred_at, previous_status, order_row) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.claimVersion = db.prepare(
      `SELECT seq, ${db.rollups.reads.join(', ')} FROM orders
       WHERE dashboard_id = @dashboard_id AND external_id = @external_id AND id = @id AND version = @version - 1`,
    );
    this.updateOrder = db.prepare(`UPDATE orders SET ${writing.updates} WHERE seq = ?`);
    this.counts = new DatedCounts(db);
    this.selectOrder = db.prepare(`SELECT ${columns} FROM orders WHERE dashboard_id = ? AND external_id = ?`);
    this.selectOutbox = db.prepare(
      `SELECT ${EVENT_COLUMNS.map((column) => `e.${column}`).join(', ')} FROM orders o JOIN order_events e ON e.order_seq = o.seq
       WHERE o.dashboard_id = ? AND o.external_id = ? ORDER BY e.seq`,
    );
  }

  /** The rows are made now, so a caller that changes its objects before the commit changes nothing stored. */
  async insert(order: Order, events: readonly OrderEvent[]): Promise<E.Either<DuplicateExternalId, Order>> {
    const row = orderToRow(order);
    const eventRows = eventRowsOf(events, order, row);
    return this.db.write(() => {
      const inserted = this.insertOrder.run(writing.values(row));
      if (inserted.changes === 0) return E.left(duplicateExternalId(order.externalId));
      this.db.rollups.add(row);
      for (const event of eventRows)
        this.insertEvent.run(event.id, inserted.lastInsertRowid, event.type, event.occurred_at, event.previous_status, event.order_row);
      return E.right(order);
    }, order.dashboardId);
  }

  async findByExternalId(dashboardId: string, externalId: string): Promise<O.Option<Order>> {
    const raw = this.db.read(() => this.selectOrder.get(dashboardId, externalId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async replace(order: Order, events: readonly OrderEvent[]): Promise<boolean> {
    const row = orderToRow(order);
    const eventRows = eventRowsOf(events, order, row);
    return this.db.write(() => {
      const claimed = this.claimVersion.get(row) as ({ seq: number } & OrderRow) | undefined;
      if (claimed === undefined) return false;
      this.updateOrder.run([...writing.updateValues(row), claimed.seq]);
      // A change of what no rollup reads (metadata, customer, fees, the dates of a status) would take
      // from the rollups exactly what it adds back: a PATCH of metadata then records nothing there.
      // The seq says whether a re-pricing job has still to move the order (rollup-costs.ts).
      if (this.db.rollups.reads.some((column) => claimed[column] !== row[column]))
        this.db.rollups.replace(claimed, { ...row, seq: claimed.seq });
      for (const event of eventRows)
        this.insertEvent.run(event.id, claimed.seq, event.type, event.occurred_at, event.previous_status, event.order_row);
      return true;
    }, order.dashboardId);
  }

  async outboxOf(dashboardId: string, externalId: string): Promise<readonly OrderEvent[]> {
    const raws = this.db.read(() => this.selectOutbox.all(dashboardId, externalId));
    return raws.map((raw) => eventFromRow(decodeRow(eventRowCodec, raw, 'order_events', rowIdOf(raw), this.logger)));
  }

  /**
   * A page and its total, on one snapshot (an order written meanwhile is in both or in neither). Without dates and near the start, as the listing statements have it; with
   * dates, or deep, the counts of whole periods (dated-counts.ts) give the total and say where the page
   * begins, so the index is walked from there only: a page at any depth, and a dated total, cost about
   * what the first page does.
   */
  async list(dashboardId: string, query: OrderQuery): Promise<OrderPage> {
    const { filters, limit, offset } = listingParams(dashboardId, query);
    const dated = query.from !== undefined || query.to !== undefined;
    const found = this.db.readTogether(() => {
      if (!dated && offset <= DEEP_OFFSET) {
        const statements = this.listing(query);
        return {
          raws: statements.page.all({ ...filters, limit, offset }),
          total: (statements.count.get(filters) as { total: number }).total,
        };
      }
      const span = query.from === undefined || query.to === undefined ? this.counts.span(dashboardId) : undefined;
      const start = query.from?.getTime() ?? span?.first ?? 0;
      const end = (query.to?.getTime() ?? span?.last ?? -1) + 1;
      const pieces = end > start ? this.counts.pieces(dashboardId, query.status, start, end) : [];
      const total = pieces.reduce((sum, piece) => sum + piece.orders, 0);
      const begin = pageStart(pieces, offset);
      if (begin === undefined) return { raws: [], total };
      const bounded = this.listing({ ...query, from: new Date(start), to: new Date(begin.before - 1) });
      return { raws: bounded.page.all({ ...filters, from: start, to: begin.before - 1, limit, offset: begin.skip }), total };
    });
    return { orders: found.raws.map((raw) => this.decodeSummary(raw)), total: found.total };
  }

  /** A keyset page: the position as a row-value range on the listing index, walked from there. */
  async listAfter(dashboardId: string, query: OrderCursorQuery): Promise<OrderCursorPage> {
    const shape = shapeOf({ ...query, page: 1 });
    const key = `after${keyOfShape(shape)}${query.after === undefined ? '' : 'p'}`;
    let statement = this.keysets.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(keysetSql(shape, query.after !== undefined));
      this.keysets.set(key, statement);
    }
    const { filters } = listingParams(dashboardId, { ...query, page: 1 });
    const raws = this.db.read(() =>
      statement.all({
        ...filters,
        ...(query.after === undefined ? {} : { afterCreatedAt: query.after.createdAt.getTime(), afterId: query.after.id }),
        limit: query.pageSize + 1,
      }),
    );
    return { orders: raws.slice(0, query.pageSize).map((raw) => this.decodeSummary(raw)), more: raws.length > query.pageSize };
  }

  private listing(query: OrderQuery): { page: Statement; count: Statement } {
    const shape = shapeOf(query);
    const key = keyOfShape(shape);
    let statements = this.listings.get(key);
    if (statements === undefined) {
      const sql: ListingSql = listingSql(shape);
      statements = { page: this.db.prepare(sql.page), count: this.db.prepare(sql.count) };
      this.listings.set(key, statements);
    }
    return statements;
  }

  private decode(raw: unknown): Order {
    return orderFromRow(decodeRow(orderRowCodec, raw, 'orders', rowIdOf(raw), this.logger));
  }

  private decodeSummary(raw: unknown): OrderSummary {
    return summaryFromRow(decodeRow(summaryRowCodec, raw, 'orders', rowIdOf(raw), this.logger));
  }
}
