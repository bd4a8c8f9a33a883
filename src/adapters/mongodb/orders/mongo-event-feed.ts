import * as t from 'io-ts';
import type { Db, Filter } from 'mongodb';
import { FEED_RETENTION_MS, type EventFeed, type EventFeedPage, type EventFeedQuery } from '../../../application/ports/event-feed';
import type { Logger } from '../../../application/ports/logger';
import type { OrderEvent } from '../../../application/ports/order-repository';
import { bsonDate } from '../bson-codecs';
import { MongoCollection } from '../mongo-collection';
import { guarded } from '../mongo-errors';
import { eventFromDocument, eventToDocument, outboxEventCodec } from './order-document';

/**
 * How long an event waits before the feed serves it: longer than the clocks of two instances differ
 * (decision 0019: up to a second) plus the time a relay takes to write a key. A key is the relaying instance's
 * clock, so an event written after another may carry a key up to the clock difference lower; once
 * both are older than this delay, every reader sees them in key order and none is skipped.
 */
export const FEED_SETTLE_MS = 5_000;

export interface FeedDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly orderId: string;
  readonly key: number;
  readonly type: string;
  readonly event: Record<string, unknown>;
  readonly expiresAt: Date;
}

const feedDocumentCodec = t.type({ _id: t.string, key: t.number, event: outboxEventCodec, expiresAt: bsonDate });

/**
 * The events feed on MongoDB (decision 0019), without transactions and with instances whose clocks
 * differ. The relay writes each event once (`_id` is its id; a second relay finds it there) with a
 * key: the relaying instance's time, but never lower than the key of the order's event before it, so
 * an order's events keep their order whoever relays them. The feed serves only the events whose key
 * is older than FEED_SETTLE_MS, ordered by (key, id).
 */
export class MongoEventFeed implements EventFeed {
  readonly feed: MongoCollection<FeedDocument>;

  constructor(
    db: Db,
    logger: Logger,
    private readonly settleMs = FEED_SETTLE_MS,
  ) {
    this.feed = new MongoCollection(db, 'eventFeed', logger);
  }

  /** Adds the events of one order, in their order, each once; called by the relay before it pulls them. */
  async add(dashboardId: string, orderId: string, events: readonly OrderEvent[]): Promise<void> {
    if (events.length === 0) return;
    const [last] = await guarded(() =>
      this.feed.documents
        .find({ orderId }, { projection: { key: 1 } })
        .sort({ key: -1 })
        .limit(1)
        .toArray(),
    );
    let previous = last?.key ?? 0;
    for (const event of events) {
      const key = Math.max(Date.now(), previous + 1);
      const stored = await guarded(() =>
        this.feed.documents.findOneAndUpdate(
          { _id: event.id },
          {
            $setOnInsert: {
              dashboardId,
              orderId,
              key,
              type: event.type,
              event: eventToDocument(event),
              expiresAt: new Date(Date.now() + FEED_RETENTION_MS),
            },
          },
          { upsert: true, returnDocument: 'after', projection: { key: 1 } },
        ),
      );
      previous = stored?.key ?? key;
    }
  }

  async list(dashboardId: string, query: EventFeedQuery): Promise<EventFeedPage | undefined> {
    const settled = query.now.getTime() - this.settleMs;
    const filter: Filter<FeedDocument> = {
      dashboardId,
      ...(query.type === undefined ? {} : { type: query.type }),
      key: { $lte: settled },
      expiresAt: { $gt: query.now },
    };
    let positioned: Filter<FeedDocument> = filter;
    if (query.after !== undefined) {
      const after = await guarded(() =>
        this.feed.documents.findOne({ _id: query.after, dashboardId, expiresAt: { $gt: query.now } }, { projection: { key: 1 } }),
      );
      if (after === null) return undefined;
      positioned = { $and: [filter, { $or: [{ key: { $gt: after.key } }, { key: after.key, _id: { $gt: query.after } }] }] };
    }
    const documents = await guarded(() =>
      this.feed.documents
        .find(positioned)
        .sort({ key: 1, _id: 1 })
        .limit(query.limit + 1)
        .toArray(),
    );
    const events = documents.slice(0, query.limit).map((document) => {
      const decoded = this.feed.decode(feedDocumentCodec, document);
      return eventFromDocument(decoded.event);
    });
    return { events, hasMore: documents.length > query.limit };
  }
}
