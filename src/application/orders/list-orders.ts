import type { OrderCursorPage, OrderCursorQuery, OrderPage, OrderQuery, OrderRepository } from '../ports/order-repository';

export class ListOrders {
  constructor(private readonly orders: OrderRepository) {}

  /** One page of the dashboard's orders, newest first, with the total that matches the filters. */
  execute(dashboardId: string, query: OrderQuery): Promise<OrderPage> {
    return this.orders.list(dashboardId, query);
  }
}

export class ListOrdersAfter {
  constructor(private readonly orders: OrderRepository) {}

  /** The page after a position (decision 0019): every order once, whatever is created meanwhile. */
  execute(dashboardId: string, query: OrderCursorQuery): Promise<OrderCursorPage> {
    return this.orders.listAfter(dashboardId, query);
  }
}
