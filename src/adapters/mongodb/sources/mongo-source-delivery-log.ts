import * as t from 'io-ts';
import * as O from 'fp-ts/Option';
import type { Db } from 'mongodb';
import type { Logger } from '../../../application/ports/logger';
import type { SourceDeliveryLog, SourceDeliveryPage, SourceDeliveryQuery } from '../../../application/ports/source-delivery-log';
import type { SourceDelivery } from '../../../domain/source';
import { guarded } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';
import {
  deliveryEntryCodec,
  deliveryFromEntry,
  deliveryLogDocumentCodec,
  deliveryToEntry,
  type DeliveryLogDocument,
} from './source-documents';

const appliedCodec = t.type({ _id: t.string, dashboardId: t.string, deliveries: t.array(deliveryEntryCodec) });

/**
 * Each source's log is one document in `source_deliveries` (`_id` the source id) holding its newest
 * deliveries in an array, oldest first: an append is one `$push` with `$slice`, so adding and trimming
 * are one single-document write, atomic without a transaction. At 1,000 entries of a few hundred bytes
 * the document stays far below MongoDB's 16 MB.
 */
export class MongoSourceDeliveryLog implements SourceDeliveryLog {
  private readonly logs: MongoCollection<DeliveryLogDocument>;

  constructor(db: Db, logger: Logger) {
    this.logs = new MongoCollection(db, 'sourceDeliveries', logger);
  }

  async append(delivery: SourceDelivery, keep: number): Promise<void> {
    await guarded(() =>
      this.logs.documents.updateOne(
        { _id: delivery.sourceId },
        {
          $setOnInsert: { dashboardId: delivery.dashboardId },
          $push: { deliveries: { $each: [deliveryToEntry(delivery)], $slice: -keep } },
        },
        { upsert: true },
      ),
    );
  }

  /** Reads the source's whole log (at most `keep` entries) and pages it here. */
  async list(sourceId: string, query: SourceDeliveryQuery): Promise<SourceDeliveryPage> {
    const found = await guarded(() => this.logs.documents.findOne({ _id: sourceId }));
    if (found === null) return { deliveries: [], total: 0 };
    const log = this.logs.decode(deliveryLogDocumentCodec, found);
    const newestFirst = [...log.deliveries].reverse();
    const start = (query.page - 1) * query.pageSize;
    return {
      deliveries: newestFirst.slice(start, start + query.pageSize).map((entry) => deliveryFromEntry(log, entry)),
      total: newestFirst.length,
    };
  }

  /** The server picks the first matching entry (`$elemMatch` in the projection): one entry crosses the wire, not the log. */
  async findApplied(sourceId: string, eventId: string): Promise<O.Option<SourceDelivery>> {
    const applied = { eventId, outcome: { $in: ['created', 'updated'] } };
    const found = await guarded(() =>
      this.logs.documents.findOne(
        { _id: sourceId, deliveries: { $elemMatch: applied } },
        { projection: { dashboardId: 1, deliveries: { $elemMatch: applied } } },
      ),
    );
    if (found === null) return O.none;
    const log = this.logs.decode(appliedCodec, found);
    const entry = log.deliveries[0];
    return entry === undefined ? O.none : O.some(deliveryFromEntry(log, entry));
  }

  async deleteOfSource(sourceId: string): Promise<void> {
    await guarded(() => this.logs.documents.deleteOne({ _id: sourceId }));
  }
}
