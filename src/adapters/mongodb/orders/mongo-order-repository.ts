import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Db, Filter } from 'mongodb';
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
import { MongoCollection } from '../mongo-collection';
import { guarded, insertUnlessDuplicate } from '../mongo-errors';
import {
  newOrderDocument,
  orderDocumentCodec,
  orderFromDocument,
  orderUpdate,
  outboxDocumentCodec,
  outboxFromDocument,
  SUMMARY_PROJECTION,
  summaryDocumentCodec,
  summaryFromDocument,
  type OrderDocument,
} from './order-document';

/** Newest first, the order id breaking ties; the listing indexes end with the same two keys. */
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** Reads of the order leave its outbox on the server. */
const WITHOUT_OUTBOX = { projection: { outbox: 0 } } as const;

/** The filter of a listing: the dashboard, and the status and createdAt range asked for. */
const listingFilter = (dashboardId: string, query: Pick<OrderQuery, 'status' | 'from' | 'to'>): Filter<OrderDocument> => {
  const filter: Filter<OrderDocument> = { dashboardId };
  if (query.status !== undefined) filter['status'] = query.status;
  if (query.from !== undefined || query.to !== undefined) {
    filter['createdAt'] = {
      ...(query.from === undefined ? {} : { $gte: query.from }),
      ...(query.to === undefined ? {} : { $lte: query.to }),
    };
  }
  return filter;
};

/**
 * Orders in MongoDB, one document per order, which also holds the order's outbox: the events of its
 * changes not yet relayed, written by the same single-document write as the change. No
 * transactions: every write is one single-document operation, atomic on MongoDB.
 */
export class MongoOrderRepository implements OrderRepository {
  private readonly orders: MongoCollection<OrderDocument>;

  constructor(db: Db, logger: Logger) {
    this.orders = new MongoCollection(db, 'orders', logger);
  }

  /**
   * The unique index on (dashboardId, externalId) settles duplicates and races: no read first. The
   * events are the new document's outbox, so a refused insert stores none.
   */
  async insert(order: Order, events: readonly OrderEvent[]): Promise<E.Either<DuplicateExternalId, Order>> {
    // Order ids are random and never collide, so the only unique key a new order can hit is
    // (dashboardId, externalId); a retry under an Idempotency-Key that reuses its reserved id hits
    // both, and is a duplicate externalId all the same.
    const inserted = await insertUnlessDuplicate(this.orders.documents, newOrderDocument(order, events));
    return inserted ? E.right(order) : E.left(duplicateExternalId(order.externalId));
  }

  async findByExternalId(dashboardId: string, externalId: string): Promise<O.Option<Order>> {
    const found = await guarded(() => this.orders.documents.findOne({ dashboardId, externalId }, WITHOUT_OUTBOX));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async outboxOf(dashboardId: string, externalId: string): Promise<readonly OrderEvent[]> {
    const found = await guarded(() => this.orders.documents.findOne({ dashboardId, externalId }, { projection: { outbox: 1 } }));
    if (found === null) return [];
    return outboxFromDocument(this.orders.decode(outboxDocumentCodec, found));
  }

  /**
   * Compare-and-set in one write: an update whose filter holds the version read (and the order's
   * identity, shard key included), so an order that moved on or is gone matches nothing. MongoDB
   * applies an update to one document atomically, filter included: of racing writers from one
   * version exactly one matches. The same update `$push`es the events onto the outbox, so a losing
   * writer stores no event. Nothing is left behind when the process dies: the write happened or not.
   */
  async replace(order: Order, events: readonly OrderEvent[]): Promise<boolean> {
    const result = await guarded(() =>
      this.orders.documents.updateOne(
        { _id: order.id, dashboardId: order.dashboardId, externalId: order.externalId, version: order.version - 1 },
        orderUpdate(order, events),
      ),
    );
    return result.matchedCount === 1;
  }

  /**
   * Two reads, the page and the count, without a snapshot between them: an order written in between
   * may show in one and not the other, as it would on any page read a moment later. The page comes
   * projected to the summary's fields (`SUMMARY_PROJECTION`).
   */
  async list(dashboardId: string, query: OrderQuery): Promise<OrderPage> {
    const filter = listingFilter(dashboardId, query);
    const [documents, total] = await guarded(() =>
      Promise.all([
        this.orders.documents
          .find(filter, { projection: SUMMARY_PROJECTION })
          .sort(NEWEST_FIRST)
          .skip((query.page - 1) * query.pageSize)
          .limit(query.pageSize)
          .toArray(),
        this.orders.documents.countDocuments(filter),
      ]),
    );
    return { orders: documents.map((document) => this.decodeSummary(document)), total };
  }

  /** A keyset page on the listing indexes: the position as a range on (createdAt, _id), never a skip. */
  async listAfter(dashboardId: string, query: OrderCursorQuery): Promise<OrderCursorPage> {
    const filter = listingFilter(dashboardId, query);
    const after = query.after;
    const positioned: Filter<OrderDocument> =
      after === undefined
        ? filter
        : { $and: [filter, { $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }] }] };
    const documents = await guarded(() =>
      this.orders.documents
        .find(positioned, { projection: SUMMARY_PROJECTION })
        .sort(NEWEST_FIRST)
        .limit(query.pageSize + 1)
        .toArray(),
    );
    return {
      orders: documents.slice(0, query.pageSize).map((document) => this.decodeSummary(document)),
      more: documents.length > query.pageSize,
    };
  }

  private decode(document: unknown): Order {
    return orderFromDocument(this.orders.decode(orderDocumentCodec, document));
  }

  private decodeSummary(document: unknown): OrderSummary {
    return summaryFromDocument(this.orders.decode(summaryDocumentCodec, document));
  }
}
