import { inject, injectable } from 'tsyringe';
import { ORDER_REPOSITORY, type OrderPage, type OrderQuery, type OrderRepository } from '../ports/order-repository';

@injectable()
export class ListOrders {
  constructor(@inject(ORDER_REPOSITORY) private readonly orders: OrderRepository) {}

  /** One page of the dashboard's orders, newest first, with the total that matches the filters. */
  execute(dashboardId: string, query: OrderQuery): Promise<OrderPage> {
    return this.orders.list(dashboardId, query);
  }
}
