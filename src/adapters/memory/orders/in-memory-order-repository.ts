import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { duplicateExternalId, type DuplicateExternalId } from '../../../domain/errors';
import type { Order } from '../../../domain/order';
import {
  summaryOf,
  type OrderEvent,
  type OrderCursorPage,
  type OrderCursorQuery,
  type OrderPage,
  type OrderPosition,
  type OrderQuery,
  type OrderRepository,
} from '../../../application/ports/order-repository';
import type { OutboxEntry } from '../../../application/ports/webhook-outbox';
import { newestFirst } from '../newest-first';

const keyOf = (dashboardId: string, externalId: string): string => `${dashboardId}\u0000${externalId}`;

/** An order and its outbox, kept and replaced together, as one document would be. */
interface Entry {
  readonly order: Order;
  readonly outbox: readonly OrderEvent[];
}

/**
 * The embedded store. Each method checks and writes with no `await` in between, so on one event loop
 * it is as atomic as the port asks. Orders and events are copied in and out so that no caller shares
 * a reference with the store.
 */
export class InMemoryOrderRepository implements OrderRepository {
  private readonly byKey = new Map<string, Entry>();
  /** The key of each order by its id, for the relay, which knows orders by id. */
  private readonly keyById = new Map<string, string>();
  /** The keys of the orders whose outbox holds events, oldest first: the relay does not walk every order. */
  private readonly withOutbox = new Set<string>();

  async insert(order: Order, events: readonly OrderEvent[]): Promise<E.Either<DuplicateExternalId, Order>> {
    const key = keyOf(order.dashboardId, order.externalId);
    if (this.byKey.has(key)) return E.left(duplicateExternalId(order.externalId));
    this.byKey.set(key, { order: structuredClone(order), outbox: structuredClone(events) });
    this.keyById.set(order.id, key);
    if (events.length > 0) this.withOutbox.add(key);
    return E.right(structuredClone(order));
  }

  /** The dashboard's orders as stored, not copied: for the reports of this store, which only read them. */
  *ordersOf(dashboardId: string): Iterable<Order> {
    for (const { order } of this.byKey.values()) if (order.dashboardId === dashboardId) yield order;
  }

  async findByExternalId(dashboardId: string, externalId: string): Promise<O.Option<Order>> {
    const found = this.byKey.get(keyOf(dashboardId, externalId));
    return found === undefined ? O.none : O.some(structuredClone(found.order));
  }

  async replace(order: Order, events: readonly OrderEvent[]): Promise<boolean> {
    const key = keyOf(order.dashboardId, order.externalId);
    const stored = this.byKey.get(key);
    if (stored === undefined || stored.order.id !== order.id || stored.order.version !== order.version - 1) return false;
    this.byKey.set(key, { order: structuredClone(order), outbox: [...stored.outbox, ...structuredClone(events)] });
    if (events.length > 0) this.withOutbox.add(key);
    return true;
  }

  async outboxOf(dashboardId: string, externalId: string): Promise<readonly OrderEvent[]> {
    return structuredClone(this.byKey.get(keyOf(dashboardId, externalId))?.outbox ?? []);
  }

  /** Up to `limit` orders with events in their outbox, the longest waiting first (see InMemoryWebhookOutbox). */
  outboxes(limit: number): OutboxEntry[] {
    const entries: OutboxEntry[] = [];
    for (const key of this.withOutbox) {
      if (entries.length >= limit) break;
      const { order, outbox } = this.byKey.get(key)!;
      entries.push({ orderId: order.id, dashboardId: order.dashboardId, events: structuredClone(outbox) });
    }
    return entries;
  }

  /** The events waiting in every outbox. */
  outboxBacklog(): number {
    let count = 0;
    for (const key of this.withOutbox) count += this.byKey.get(key)!.outbox.length;
    return count;
  }

  /** Takes the events `eventIds` out of the order's outbox; the others stay (see InMemoryWebhookOutbox). */
  dropFromOutbox(orderId: string, eventIds: readonly string[]): void {
    const key = this.keyById.get(orderId);
    const stored = key === undefined ? undefined : this.byKey.get(key);
    if (key === undefined || stored === undefined) return;
    const relayed = new Set(eventIds);
    const outbox = stored.outbox.filter((event) => !relayed.has(event.id));
    this.byKey.set(key, { ...stored, outbox });
    if (outbox.length === 0) this.withOutbox.delete(key);
  }

  async list(dashboardId: string, query: OrderQuery): Promise<OrderPage> {
    const matching = [...this.byKey.values()]
      .map((entry) => entry.order)
      .filter((order) => order.dashboardId === dashboardId && matches(order, query))
      .sort(newestFirst);
    const start = (query.page - 1) * query.pageSize;
    return {
      orders: matching.slice(start, start + query.pageSize).map((order) => structuredClone(summaryOf(order))),
      total: matching.length,
    };
  }

  async listAfter(dashboardId: string, query: OrderCursorQuery): Promise<OrderCursorPage> {
    const matching = [...this.byKey.values()]
      .map((entry) => entry.order)
      .filter((order) => order.dashboardId === dashboardId && matches(order, query) && isAfter(order, query.after))
      .sort(newestFirst);
    return {
      orders: matching.slice(0, query.pageSize).map((order) => structuredClone(summaryOf(order))),
      more: matching.length > query.pageSize,
    };
  }
}

const isAfter = (order: Order, after: OrderPosition | undefined): boolean =>
  after === undefined ||
  order.createdAt.getTime() < after.createdAt.getTime() ||
  (order.createdAt.getTime() === after.createdAt.getTime() && order.id < after.id);

const matches = (order: Order, query: Pick<OrderQuery, 'status' | 'from' | 'to'>): boolean =>
  (query.status === undefined || order.status === query.status) &&
  (query.from === undefined || order.createdAt.getTime() >= query.from.getTime()) &&
  (query.to === undefined || order.createdAt.getTime() <= query.to.getTime());
