import * as E from 'fp-ts/Either';
import { orderNotFound, type OrderNotFound } from '../../domain/errors';
import type { Order } from '../../domain/order';
import type { OrderRepository } from '../ports/order-repository';

export class GetOrder {
  constructor(private readonly orders: OrderRepository) {}

  /** The dashboard's order with this externalId; another dashboard's order is not found. */
  async execute(dashboardId: string, externalId: string): Promise<E.Either<OrderNotFound, Order>> {
    const found = await this.orders.findByExternalId(dashboardId, externalId);
    return E.fromOption(() => orderNotFound(externalId))(found);
  }
}
