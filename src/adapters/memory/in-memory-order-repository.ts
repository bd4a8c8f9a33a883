import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { duplicateExternalId, type DuplicateExternalId } from '../../domain/errors';
import type { Order } from '../../domain/order';
import type { OrderPage, OrderQuery, OrderRepository } from '../../application/ports/order-repository';

const keyOf = (dashboardId: string, externalId: string): string => `${dashboardId}\u0000${externalId}`;

/** Descending `createdAt`, then descending `id`: the listing order of the port. */
const newestFirst = (a: Order, b: Order): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The embedded store. Each method checks and writes with no `await` in between, so on one event loop
 * it is as atomic as the port asks. Orders are copied in and out so that no caller shares a reference
 * with the store.
 */
export class InMemoryOrderRepository implements OrderRepository {
  private readonly byKey = new Map<string, Order>();

  async insert(order: Order): Promise<E.Either<DuplicateExternalId, Order>> {
    const key = keyOf(order.dashboardId, order.externalId);
    if (this.byKey.has(key)) return E.left(duplicateExternalId(order.externalId));
    this.byKey.set(key, structuredClone(order));
    return E.right(structuredClone(order));
  }

  async findByExternalId(dashboardId: string, externalId: string): Promise<O.Option<Order>> {
    const found = this.byKey.get(keyOf(dashboardId, externalId));
    return found === undefined ? O.none : O.some(structuredClone(found));
  }

  async replace(order: Order): Promise<boolean> {
    const key = keyOf(order.dashboardId, order.externalId);
    const stored = this.byKey.get(key);
    if (stored === undefined || stored.id !== order.id || stored.version !== order.version - 1) return false;
    this.byKey.set(key, structuredClone(order));
    return true;
  }

  async list(dashboardId: string, query: OrderQuery): Promise<OrderPage> {
    const matching = [...this.byKey.values()]
      .filter((order) => order.dashboardId === dashboardId && matches(order, query))
      .sort(newestFirst);
    const start = (query.page - 1) * query.pageSize;
    return {
      orders: matching.slice(start, start + query.pageSize).map((order) => structuredClone(order)),
      total: matching.length,
    };
  }
}

const matches = (order: Order, query: OrderQuery): boolean =>
  (query.status === undefined || order.status === query.status) &&
  (query.from === undefined || order.createdAt.getTime() >= query.from.getTime()) &&
  (query.to === undefined || order.createdAt.getTime() <= query.to.getTime());
