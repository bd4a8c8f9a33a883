import * as O from 'fp-ts/Option';
import type { Db, Filter } from 'mongodb';
import type {
  ClaimedDelivery,
  DeliveryLease,
  DeliveryPage,
  DeliveryQuery,
  DeliveryRepository,
  DueClaim,
} from '../../../application/ports/delivery-repository';
import type { Logger } from '../../../application/ports/logger';
import type { Delivery } from '../../../domain/delivery';
import { randomBase62 } from '../../system/base62';
import { guarded, insertUnlessDuplicate } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';
import { deliveryDocumentCodec, deliveryFromDocument, deliveryProgress, NO_LEASE, type DeliveryDocument } from './webhook-documents';
import { deliveryToDocument } from './webhook-documents';

/** Rounds of `retryNow` between its two conditional updates, each lost to an attempt that changed the status meanwhile. */
const RETRY_ROUNDS = 4;

/**
 * Deliveries in `webhook_deliveries`, one document each. Every decision with a single winner is one
 * single-document write: a claim is a `findOneAndUpdate` filtered on a due, unheld delivery (so two
 * instances never claim one delivery at once), and each later write of the worker is filtered on its
 * lease. The TTL index deletes deliveries 30 days after they were made.
 */
export class MongoDeliveryRepository implements DeliveryRepository {
  private readonly deliveries: MongoCollection<DeliveryDocument>;

  constructor(db: Db, logger: Logger) {
    this.deliveries = new MongoCollection(db, 'webhookDeliveries', logger);
  }

  /** The unique (eventId, endpointId) index settles duplicates: no read first. */
  insert(delivery: Delivery): Promise<boolean> {
    return insertUnlessDuplicate(this.deliveries.documents, deliveryToDocument(delivery));
  }

  async find(dashboardId: string, endpointId: string, deliveryId: string): Promise<O.Option<Delivery>> {
    const found = await guarded(() => this.deliveries.documents.findOne({ _id: deliveryId, dashboardId, endpointId }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async list(dashboardId: string, endpointId: string, query: DeliveryQuery): Promise<DeliveryPage> {
    const filter: Filter<DeliveryDocument> = { endpointId, ...(query.status === undefined ? {} : { status: query.status }), dashboardId };
    const [documents, total] = await guarded(() =>
      Promise.all([
        this.deliveries.documents
          .find(filter)
          .sort({ createdAt: -1, _id: -1 })
          .skip((query.page - 1) * query.pageSize)
          .limit(query.pageSize)
          .toArray(),
        this.deliveries.documents.countDocuments(filter),
      ]),
    );
    return { deliveries: documents.map((document) => this.decode(document)), total };
  }

  /** One `findOneAndUpdate` per delivery claimed, each atomic, the longest due first. */
  async claimDue({ now, leaseMs, limit, skipEndpoints, skipDashboards }: DueClaim): Promise<readonly ClaimedDelivery[]> {
    const claimed: ClaimedDelivery[] = [];
    const leaseUntil = new Date(now.getTime() + leaseMs);
    while (claimed.length < limit) {
      const leaseId = randomBase62(22);
      const found = await guarded(() =>
        this.deliveries.documents.findOneAndUpdate(
          {
            status: 'pending',
            nextAttemptAt: { $lte: now },
            leaseUntil: { $lte: now },
            ...(skipEndpoints.length === 0 ? {} : { endpointId: { $nin: [...skipEndpoints] } }),
            ...(skipDashboards.length === 0 ? {} : { dashboardId: { $nin: [...skipDashboards] } }),
          },
          { $set: { leaseUntil, leaseId } },
          { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
        ),
      );
      if (found === null) break;
      const delivery = this.decode(found);
      claimed.push({ delivery, lease: { deliveryId: delivery.id, leaseId } });
    }
    return claimed;
  }

  async complete(lease: DeliveryLease, delivery: Delivery): Promise<boolean> {
    const { $set, $unset } = deliveryProgress(delivery);
    const result = await guarded(() =>
      this.deliveries.documents.updateOne(
        { _id: lease.deliveryId, leaseId: lease.leaseId },
        { $set: { ...$set, leaseUntil: NO_LEASE }, $unset: { ...($unset ?? {}), leaseId: '' } },
      ),
    );
    return result.matchedCount === 1;
  }

  async renew(lease: DeliveryLease, until: Date): Promise<boolean> {
    const result = await guarded(() =>
      this.deliveries.documents.updateOne({ _id: lease.deliveryId, leaseId: lease.leaseId }, { $set: { leaseUntil: until } }),
    );
    return result.matchedCount === 1;
  }

  async release(lease: DeliveryLease): Promise<void> {
    await guarded(() =>
      this.deliveries.documents.updateOne(
        { _id: lease.deliveryId, leaseId: lease.leaseId },
        { $set: { leaseUntil: NO_LEASE }, $unset: { leaseId: '' } },
      ),
    );
  }

  async discard(lease: DeliveryLease): Promise<void> {
    await guarded(() => this.deliveries.documents.deleteOne({ _id: lease.deliveryId, leaseId: lease.leaseId }));
  }

  /**
   * Two conditional updates, one for each case: a pending delivery is brought forward; a finished one
   * becomes pending for one attempt. An attempt that changes the status between the two makes the
   * round start again.
   */
  async retryNow(dashboardId: string, endpointId: string, deliveryId: string, now: Date): Promise<O.Option<Delivery>> {
    const filter = { _id: deliveryId, dashboardId, endpointId };
    for (let round = 0; round < RETRY_ROUNDS; round++) {
      const pending = await guarded(() =>
        this.deliveries.documents.findOneAndUpdate(
          { ...filter, status: 'pending' },
          { $set: { nextAttemptAt: now } },
          { returnDocument: 'after' },
        ),
      );
      if (pending !== null) return O.some(this.decode(pending));
      const finished = await guarded(() =>
        this.deliveries.documents.findOneAndUpdate(
          { ...filter, status: { $in: ['succeeded', 'failed'] } },
          { $set: { status: 'pending', nextAttemptAt: now, automaticRetries: false } },
          { returnDocument: 'after' },
        ),
      );
      if (finished !== null) return O.some(this.decode(finished));
      if ((await guarded(() => this.deliveries.documents.countDocuments(filter, { limit: 1 }))) === 0) return O.none;
    }
    return this.find(dashboardId, endpointId, deliveryId);
  }

  async deleteOfEndpoint(dashboardId: string, endpointId: string): Promise<void> {
    await guarded(() => this.deliveries.documents.deleteMany({ endpointId, dashboardId }));
  }

  /** What the TTL index would delete in its next pass, at once. */
  async purgeExpired(now: Date): Promise<number> {
    const result = await guarded(() => this.deliveries.documents.deleteMany({ expiresAt: { $lte: now } }));
    return result.deletedCount;
  }

  private decode(document: unknown): Delivery {
    return deliveryFromDocument(this.deliveries.decode(deliveryDocumentCodec, document));
  }
}
