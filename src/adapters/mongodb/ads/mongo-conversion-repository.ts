import type { Db, Filter } from 'mongodb';
import type {
  ClaimedConversion,
  ConversionClaim,
  ConversionLease,
  ConversionPage,
  ConversionQuery,
  ConversionRepository,
} from '../../../application/ports/conversion-repository';
import type { Logger } from '../../../application/ports/logger';
import { CONVERSION_RETENTION_MS, type ConversionDelivery, type ConversionKind } from '../../../domain/conversion';
import { guarded } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';
import {
  conversionDocumentCodec,
  conversionFromDocument,
  conversionProgress,
  NO_LEASE,
  type ConversionDocument,
} from './conversion-documents';

/**
 * Conversion deliveries in `conversion_deliveries`, one document each, made by the relay (the unique
 * (eventId, adAccountId) index refuses a second). A claim is a `findOneAndUpdate` filtered on a due,
 * unheld delivery, and each later write of the sender is filtered on its lease. The TTL index
 * deletes deliveries 30 days after they were made.
 */
export class MongoConversionRepository implements ConversionRepository {
  private readonly conversions: MongoCollection<ConversionDocument>;

  constructor(db: Db, logger: Logger) {
    this.conversions = new MongoCollection(db, 'conversionDeliveries', logger);
  }

  async list(dashboardId: string, adAccountId: string, query: ConversionQuery): Promise<ConversionPage> {
    const filter: Filter<ConversionDocument> = {
      adAccountId,
      ...(query.status === undefined ? {} : { status: query.status }),
      dashboardId,
    };
    const [documents, total] = await guarded(() =>
      Promise.all([
        this.conversions.documents
          .find(filter)
          .sort({ createdAt: -1, _id: -1 })
          .skip((query.page - 1) * query.pageSize)
          .limit(query.pageSize)
          .toArray(),
        this.conversions.documents.countDocuments(filter),
      ]),
    );
    return { conversions: documents.map((document) => this.decode(document)), total };
  }

  async findOfOrder(adAccountId: string, orderId: string, kind: ConversionKind): Promise<ConversionDelivery | undefined> {
    const found = await guarded(() =>
      this.conversions.documents.findOne(
        { adAccountId, 'conversion.orderId': orderId, 'conversion.kind': kind },
        { sort: { createdAt: -1, _id: -1 } },
      ),
    );
    return found === null ? undefined : this.decode(found);
  }

  async claimDue({ now, leaseMs, leaseId, skipDashboards }: ConversionClaim): Promise<ClaimedConversion | undefined> {
    const found = await guarded(() =>
      this.conversions.documents.findOneAndUpdate(
        {
          status: 'pending',
          nextAttemptAt: { $lte: now },
          leaseUntil: { $lte: now },
          ...(skipDashboards.length === 0 ? {} : { dashboardId: { $nin: [...skipDashboards] } }),
        },
        { $set: { leaseUntil: new Date(now.getTime() + leaseMs), leaseId } },
        { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
      ),
    );
    if (found === null) return undefined;
    const delivery = this.decode(found);
    return { delivery, lease: { deliveryId: delivery.id, leaseId } };
  }

  async complete(lease: ConversionLease, delivery: ConversionDelivery): Promise<boolean> {
    const { $set, $unset } = conversionProgress(delivery);
    const result = await guarded(() =>
      this.conversions.documents.updateOne(
        { _id: lease.deliveryId, leaseId: lease.leaseId },
        { $set: { ...$set, leaseUntil: NO_LEASE }, $unset: { ...($unset ?? {}), leaseId: '' } },
      ),
    );
    return result.matchedCount === 1;
  }

  async renew(lease: ConversionLease, until: Date): Promise<boolean> {
    const result = await guarded(() =>
      this.conversions.documents.updateOne({ _id: lease.deliveryId, leaseId: lease.leaseId }, { $set: { leaseUntil: until } }),
    );
    return result.matchedCount === 1;
  }

  async release(lease: ConversionLease): Promise<void> {
    await guarded(() =>
      this.conversions.documents.updateOne(
        { _id: lease.deliveryId, leaseId: lease.leaseId },
        { $set: { leaseUntil: NO_LEASE }, $unset: { leaseId: '' } },
      ),
    );
  }

  async discard(lease: ConversionLease): Promise<void> {
    await guarded(() => this.conversions.documents.deleteOne({ _id: lease.deliveryId, leaseId: lease.leaseId }));
  }

  async makeDueOfAccount(dashboardId: string, adAccountId: string, now: Date): Promise<number> {
    const result = await guarded(() =>
      this.conversions.documents.updateMany(
        { adAccountId, dashboardId, status: 'pending', nextAttemptAt: { $gt: now } },
        { $set: { nextAttemptAt: now } },
      ),
    );
    return result.modifiedCount;
  }

  async deleteOfAccount(dashboardId: string, adAccountId: string): Promise<void> {
    await guarded(() => this.conversions.documents.deleteMany({ adAccountId, dashboardId }));
  }

  /** The TTL index deletes them too; this keeps the log bounded where its monitor lags. */
  async purgeExpired(now: Date): Promise<number> {
    const result = await guarded(() =>
      this.conversions.documents.deleteMany({ createdAt: { $lte: new Date(now.getTime() - CONVERSION_RETENTION_MS) } }),
    );
    return result.deletedCount;
  }

  private decode(document: unknown): ConversionDelivery {
    return conversionFromDocument(this.conversions.decode(conversionDocumentCodec, document));
  }
}
