import type { Statement } from 'better-sqlite3';
import * as t from 'io-ts';
import { FEED_RETENTION_MS } from '../../application/ports/event-feed';
import type { Logger } from '../../application/ports/logger';
import type { OrderEvent } from '../../application/ports/order-repository';
import type { OutboxEntry, WebhookOutbox } from '../../application/ports/webhook-outbox';
import type { Delivery } from '../../domain/delivery';
import { EVENT_COLUMNS, eventFromRow, eventRowCodec } from './order-rows';
import { decodeRow, rowIdOf } from './sqlite-codecs';
import type { SqliteDatabase } from './sqlite-database';
import { INSERT_DELIVERY } from './sqlite-delivery-repository';
import { deliveryToRow } from './webhook-rows';

const pendingRowCodec = t.intersection([eventRowCodec, t.type({ order_id: t.string, dashboard_id: t.string })]);

/**
 * The outbox of the SQLite store is the `order_events` table, written in the transaction of each
 * order change. A relay makes its deliveries and deletes the events it relayed in one transaction
 * (through the group commit): a crash leaves both or neither.
 */
export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly selectPending: Statement;
  private readonly countPending: Statement;
  private readonly insertDelivery: Statement;
  private readonly deleteEvents: Statement;
  private readonly copyToFeed: Statement;
  private readonly purgeFeed: Statement;
  private purgedAt = 0;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.countPending = db.prepare('SELECT count(*) AS n FROM order_events');
    // The orders of the oldest events, with every event of each, oldest first.
    this.selectPending = db.prepare(
      `SELECT o.id AS order_id, o.dashboard_id, ${EVENT_COLUMNS.map((column) => `e.${column}`).join(', ')}
       FROM order_events e JOIN orders o ON o.seq = e.order_seq
       WHERE e.order_seq IN (SELECT order_seq FROM order_events ORDER BY seq LIMIT ?)
       ORDER BY e.seq`,
    );
    this.insertDelivery = db.prepare(INSERT_DELIVERY);
    this.deleteEvents = db.prepare('DELETE FROM order_events WHERE id IN (SELECT value FROM json_each(?))');
    // The events feed (DECISIONS D19) gets the relayed events, in their order, once each.
    this.copyToFeed = db.prepare(
      `INSERT INTO event_feed (id, dashboard_id, type, occurred_at, previous_status, order_row, stored_at)
       SELECT e.id, o.dashboard_id, e.type, e.occurred_at, e.previous_status, e.order_row, @storedAt
       FROM order_events e JOIN orders o ON o.seq = e.order_seq
       WHERE e.id IN (SELECT value FROM json_each(@ids)) ORDER BY e.seq
       ON CONFLICT (id) DO NOTHING`,
    );
    this.purgeFeed = db.prepare('DELETE FROM event_feed WHERE stored_at <= ?');
  }

  async pending(limit: number): Promise<readonly OutboxEntry[]> {
    const raws = this.db.read(() => this.selectPending.all(limit));
    const byOrder = new Map<string, { dashboardId: string; events: OrderEvent[] }>();
    for (const raw of raws) {
      const row = decodeRow(pendingRowCodec, raw, 'order_events', rowIdOf(raw), this.logger);
      const entry = byOrder.get(row.order_id) ?? { dashboardId: row.dashboard_id, events: [] };
      entry.events.push(eventFromRow(row));
      byOrder.set(row.order_id, entry);
    }
    return [...byOrder].map(([orderId, { dashboardId, events }]) => ({ orderId, dashboardId, events }));
  }

  async backlog(): Promise<number> {
    const row = this.db.read(() => this.countPending.get()) as { n: number };
    return row.n;
  }

  async relay(entry: OutboxEntry, deliveries: readonly Delivery[]): Promise<void> {
    const rows = deliveries.map(deliveryToRow);
    const eventIds = JSON.stringify(entry.events.map((event) => event.id));
    const now = Date.now();
    // Once an hour, with a relay, the events older than the feed keeps go.
    const purge = now - this.purgedAt >= 3_600_000;
    if (purge) this.purgedAt = now;
    await this.db.write(() => {
      for (const row of rows) this.insertDelivery.run(row);
      this.copyToFeed.run({ ids: eventIds, storedAt: now });
      this.deleteEvents.run(eventIds);
      if (purge) this.purgeFeed.run(now - FEED_RETENTION_MS);
    });
  }
}
