import type { TransitionPolicy } from '../../domain/transition-policy';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OrderRepository } from '../ports/order-repository';
import type { WebhookNudge } from '../ports/webhook-nudge';
import { CreateOrder } from './create-order';
import { GetOrder } from './get-order';
import { ListOrders, ListOrdersAfter } from './list-orders';
import { UpdateOrder } from './update-order';

export interface OrderPorts {
  readonly orders: OrderRepository;
  readonly transitions: TransitionPolicy;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly nudge: WebhookNudge;
}

export const orderUseCases = ({ orders, transitions, ids, clock, nudge }: OrderPorts) => ({
  createOrder: new CreateOrder(orders, ids, clock, nudge),
  listOrders: new ListOrders(orders),
  listOrdersAfter: new ListOrdersAfter(orders),
  getOrder: new GetOrder(orders),
  updateOrder: new UpdateOrder(orders, transitions, clock, ids, nudge),
});

export type OrderUseCases = ReturnType<typeof orderUseCases>;
