import type { OrderPage, OrderQuery, OrderRepository } from '../ports/order-repository';

export class ListOrders {
  constructor(private readonly orders: OrderRepository) {}

  /** One page of the dashboard's orders, newest first, with the total that matches the filters. */
  execute(dashboardId: string, query: OrderQuery): Promise<OrderPage> {
    return this.orders.list(dashboardId, query);
  }
}
