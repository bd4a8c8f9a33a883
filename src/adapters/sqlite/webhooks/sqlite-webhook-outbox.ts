import type { Statement } from 'better-sqlite3';
import * as t from 'io-ts';
import { FEED_RETENTION_MS } from '../../../application/ports/event-feed';
import type { Logger } from '../../../application/ports/logger';
import type { OrderEvent } from '../../../application/ports/order-repository';
import type { OutboxEntry, UnsubscribedRelay, WebhookOutbox } from '../../../application/ports/webhook-outbox';
import type { ConversionDelivery } from '../../../domain/conversion';
import type { Delivery } from '../../../domain/delivery';
import { conversionToRow } from '../ads/conversion-rows';
import { INSERT_CONVERSION } from '../ads/sqlite-conversion-repository';
import { EVENT_COLUMNS, eventFromRow, eventRowCodec } from '../orders/order-rows';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import { asStorageError } from '../sqlite-errors';
import type { SqliteDatabase } from '../sqlite-database';
import { INSERT_DELIVERY } from './sqlite-delivery-repository';
import { deliveryToRow } from './webhook-rows';

const pendingRowCodec = t.intersection([eventRowCodec, t.type({ order_id: t.string, dashboard_id: t.string })]);

/**
 * One write of relays takes at most this many orders' relays, and stops taking more at this many
 * deliveries and conversions: the relays of 100 orders, each with 20 endpoints or 200 lines in its
 * event, held the event loop 19-32 ms in one write. The rest go in the next write.
 */
export const RELAY_WRITE_ENTRIES = 20;
export const RELAY_WRITE_ROWS = 100;

/** A relay waiting for the write that takes the relays of its turn together. */
interface QueuedRelay {
  readonly rows: readonly Record<string, unknown>[];
  readonly conversionRows: readonly Record<string, unknown>[];
  readonly eventIds: readonly string[];
  readonly done: (error?: Error) => void;
}

/**
 * The outbox of the SQLite store is the `order_events` table, written in the transaction of each
 * order change. A relay makes its deliveries and deletes the events it relayed in one transaction
 * (through the group commit): a crash leaves both or neither. The relays asked for in one turn of the
 * event loop (a relay step's orders) share one write: each entry's deliveries in a savepoint of their
 * own (an entry whose deliveries cannot be stored fails alone, its events left), then the events of
 * the others copied to the feed and deleted in one statement each, where one per entry cost as much
 * again as the rest of the relay.
 */
export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly selectPending: Statement;
  private readonly selectUnsubscribed: Statement;
  private readonly countPending: Statement;
  private readonly insertDelivery: Statement;
  private readonly insertConversion: Statement;
  private readonly deleteEvents: Statement;
  private readonly copyToFeed: Statement;
  private readonly purgeFeed: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackTo: Statement;
  private queued: QueuedRelay[] = [];
  /** Whether a write of relays is queued or running: the next one is asked for once it has ended. */
  private writing = false;
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
    // The same orders' events, ids alone, each saying whether its dashboard has no endpoint and no
    // ad account sending conversions.
    this.selectUnsubscribed = db.prepare(
      `SELECT e.id, e.order_seq, NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.dashboard_id = o.dashboard_id)
         AND NOT EXISTS (SELECT 1 FROM ad_accounts a WHERE a.dashboard_id = o.dashboard_id AND json_extract(a.conversions, '$.enabled') = 1)
       FROM order_events e JOIN orders o ON o.seq = e.order_seq
       WHERE e.order_seq IN (SELECT order_seq FROM order_events ORDER BY seq LIMIT ?)
       ORDER BY e.seq`,
    );
    this.insertDelivery = db.prepare(INSERT_DELIVERY);
    this.insertConversion = db.prepare(INSERT_CONVERSION);
    this.deleteEvents = db.prepare('DELETE FROM order_events WHERE id IN (SELECT value FROM json_each(?))');
    // The events feed (decision 0019) gets the relayed events, in their order, once each.
    this.copyToFeed = db.prepare(
      `INSERT INTO event_feed (id, dashboard_id, type, occurred_at, previous_status, order_row, stored_at)
       SELECT e.id, o.dashboard_id, e.type, e.occurred_at, e.previous_status, e.order_row, @storedAt
       FROM order_events e JOIN orders o ON o.seq = e.order_seq
       WHERE e.id IN (SELECT value FROM json_each(@ids)) ORDER BY e.seq
       ON CONFLICT (id) DO NOTHING`,
    );
    this.purgeFeed = db.prepare('DELETE FROM event_feed WHERE stored_at <= ?');
    this.savepoint = db.prepare('SAVEPOINT relay_entry');
    this.release = db.prepare('RELEASE relay_entry');
    this.rollbackTo = db.prepare('ROLLBACK TO relay_entry');
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

  /**
   * One write that finds the events and moves them to the feed by id, in SQL: none is read into
   * JavaScript or decoded, where `pending` and `relay` cost about a tenth of an order POST's time.
   */
  async relayUnsubscribed(limit: number): Promise<UnsubscribedRelay> {
    // A look first: when the oldest outboxes are all of dashboards with endpoints, no write (and no
    // wait for a sync) delays their relay.
    const oldest = this.db.read(() => this.selectUnsubscribed.raw().all(limit) as [string, number, 0 | 1][]);
    if (!oldest.some(([, , unsubscribed]) => unsubscribed === 1)) return { relayed: 0, leftSome: oldest.length > 0 };
    return this.db.write(() => {
      const rows = this.selectUnsubscribed.raw().all(limit) as [string, number, 0 | 1][];
      const free = rows.filter(([, , unsubscribed]) => unsubscribed === 1);
      if (free.length > 0) this.moveToFeed(JSON.stringify(free.map(([id]) => id)));
      return { relayed: new Set(free.map(([, orderSeq]) => orderSeq)).size, leftSome: free.length < rows.length };
    });
  }

  async backlog(): Promise<number> {
    const row = this.db.read(() => this.countPending.get()) as { n: number };
    return row.n;
  }

  async relay(entry: OutboxEntry, deliveries: readonly Delivery[], conversions: readonly ConversionDelivery[] = []): Promise<void> {
    const rows = deliveries.map(deliveryToRow);
    const conversionRows = conversions.map(conversionToRow);
    const eventIds = entry.events.map((event) => event.id);
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ rows, conversionRows, eventIds, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) this.relayQueued();
    });
  }

  /**
   * One write for the relays queued until the group commit runs it, up to RELAY_WRITE_ENTRIES and
   * RELAY_WRITE_ROWS (and again, with the same ones, if the group fails and it runs alone); each is
   * answered once it is committed, or with its error. The next write, for what is left or came since,
   * is asked for then.
   */
  private relayQueued(): void {
    this.writing = true;
    let batch: QueuedRelay[] | undefined;
    const write = this.db.write(() => {
      batch ??= this.takeQueued();
      const failures = new Map<QueuedRelay, Error>();
      for (const relay of batch) {
        this.savepoint.run();
        try {
          for (const row of relay.rows) this.insertDelivery.run(row);
          for (const row of relay.conversionRows) this.insertConversion.run(row);
          this.release.run();
        } catch (error) {
          this.rollbackTo.run();
          this.release.run();
          failures.set(relay, asStorageError(error) as Error);
        }
      }
      this.moveToFeed(JSON.stringify(batch.filter((relay) => !failures.has(relay)).flatMap((relay) => relay.eventIds)));
      return failures;
    });
    write
      .then(
        (failures) => batch!.forEach((relay) => relay.done(failures.get(relay))),
        (error: Error) => (batch ?? this.takeQueued()).forEach((relay) => relay.done(error)),
      )
      .finally(() => {
        this.writing = false;
        if (this.queued.length > 0) this.relayQueued();
      });
  }

  /** The first queued relays, up to RELAY_WRITE_ENTRIES and until they reach RELAY_WRITE_ROWS rows (one at least). */
  private takeQueued(): QueuedRelay[] {
    let rows = 0;
    let taken = 0;
    while (taken < this.queued.length && taken < RELAY_WRITE_ENTRIES && (taken === 0 || rows < RELAY_WRITE_ROWS)) {
      const relay = this.queued[taken];
      rows += relay.rows.length + relay.conversionRows.length;
      taken++;
    }
    return this.queued.splice(0, taken);
  }

  /** Inside a write: the events of `eventIds` (a JSON array) to the feed in their order, then out of the outbox. */
  private moveToFeed(eventIds: string): void {
    const now = Date.now();
    this.copyToFeed.run({ ids: eventIds, storedAt: now });
    this.deleteEvents.run(eventIds);
    // Once an hour, with a relay, the events older than the feed keeps go.
    if (now - this.purgedAt >= 3_600_000) {
      this.purgeFeed.run(now - FEED_RETENTION_MS);
      this.purgedAt = now;
    }
  }
}
