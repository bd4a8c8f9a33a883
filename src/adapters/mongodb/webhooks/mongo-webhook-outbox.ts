import * as t from 'io-ts';
import { MongoBulkWriteError, type Db } from 'mongodb';
import type { Logger } from '../../../application/ports/logger';
import type { OutboxEntry, UnsubscribedRelay, WebhookOutbox } from '../../../application/ports/webhook-outbox';
import type { ConversionDelivery } from '../../../domain/conversion';
import type { Delivery } from '../../../domain/delivery';
import { conversionToDocument, type ConversionDocument } from '../ads/conversion-documents';
import { guarded } from '../mongo-errors';
import type { MongoEventFeed } from '../orders/mongo-event-feed';
import { MongoCollection } from '../mongo-collection';
import { EVENT_AD_ACCOUNT_INDEX, EVENT_ENDPOINT_INDEX } from '../mongo-indexes';
import { outboxDocumentCodec, outboxFromDocument, type OrderDocument } from '../orders/order-document';
import { deliveryToDocument, type DeliveryDocument } from './webhook-documents';

const pendingCodec = t.intersection([outboxDocumentCodec, t.type({ dashboardId: t.string })]);

/** The unique (eventId, endpointId) or (eventId, adAccountId) index refused a delivery made before: the only refusal a relay expects. */
const madeBefore =
  (index: string) =>
  (error: { code?: unknown; errmsg?: string }): boolean =>
    error.code === 11000 && (error.errmsg ?? '').includes(` index: ${index} `);

/**
 * The outbox of the MongoDB store is the `outbox` array of each order document, written by the same
 * single-document write as the change. No transaction spans a relay: the deliveries are inserted
 * first (the unique (eventId, endpointId) index refuses any made before), then the relayed events
 * are `$pull`ed from the order, by id. A crash between the two leaves the events in place; the next
 * relay inserts nothing new and pulls them.
 */
export class MongoWebhookOutbox implements WebhookOutbox {
  private readonly orders: MongoCollection<OrderDocument>;
  private readonly deliveries: MongoCollection<DeliveryDocument>;
  private readonly conversions: MongoCollection<ConversionDocument>;

  constructor(
    db: Db,
    logger: Logger,
    private readonly feed: MongoEventFeed,
  ) {
    this.orders = new MongoCollection(db, 'orders', logger);
    this.deliveries = new MongoCollection(db, 'webhookDeliveries', logger);
    this.conversions = new MongoCollection(db, 'conversionDeliveries', logger);
  }

  /** Through the partial index of the orders whose outbox holds events: orders without any cost nothing. */
  async pending(limit: number): Promise<readonly OutboxEntry[]> {
    const documents = await guarded(() =>
      this.orders.documents
        .find({ 'outbox.id': { $exists: true } }, { projection: { dashboardId: 1, outbox: 1 } })
        .limit(limit)
        .toArray(),
    );
    return documents.map((document) => {
      const decoded = this.orders.decode(pendingCodec, document);
      return { orderId: decoded._id, dashboardId: decoded.dashboardId, events: outboxFromDocument(decoded) };
    });
  }

  /**
   * None: no transaction spans a relay here, so moving an order's events to the feed costs the reads
   * and writes `pending` and `relay` make; the relay takes them all.
   */
  async relayUnsubscribed(): Promise<UnsubscribedRelay> {
    return { relayed: 0, leftSome: true };
  }

  /** Through the same partial index: the orders without events are not read. */
  async backlog(): Promise<number> {
    const [row] = await guarded(() =>
      this.orders.documents
        .aggregate<{ n: number }>([
          { $match: { 'outbox.id': { $exists: true } } },
          { $group: { _id: null, n: { $sum: { $size: '$outbox' } } } },
        ])
        .toArray(),
    );
    return row?.n ?? 0;
  }

  async relay(entry: OutboxEntry, deliveries: readonly Delivery[], conversions: readonly ConversionDelivery[] = []): Promise<void> {
    // The feed first, like the deliveries: a crash before the pull leaves events that the next relay finds written.
    await this.feed.add(entry.dashboardId, entry.orderId, entry.events);
    await insertNew(this.deliveries, deliveries.map(deliveryToDocument), EVENT_ENDPOINT_INDEX);
    await insertNew(this.conversions, conversions.map(conversionToDocument), EVENT_AD_ACCOUNT_INDEX);
    const eventIds = entry.events.map((event) => event.id);
    await guarded(() =>
      this.orders.documents.updateOne({ _id: entry.orderId, dashboardId: entry.dashboardId }, {
        $pull: { outbox: { id: { $in: eventIds } } },
      } as never),
    );
  }
}

/**
 * Inserts the documents, those made before (refused by `uniqueIndex`) left as they are. Any other
 * failure (another unique key, the server) rejects, leaving the events in the outbox to be relayed again.
 */
const insertNew = async <D extends DeliveryDocument | ConversionDocument>(
  collection: MongoCollection<D>,
  documents: readonly D[],
  uniqueIndex: string,
): Promise<void> => {
  if (documents.length === 0) return;
  try {
    await guarded(() => collection.documents.insertMany(documents as never, { ordered: false }));
  } catch (err) {
    const madeBeforeOnly = err instanceof MongoBulkWriteError && [err.writeErrors].flat().every(madeBefore(uniqueIndex));
    if (!madeBeforeOnly) throw err;
  }
};
