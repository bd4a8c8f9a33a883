import type * as t from 'io-ts';
import { summarize, type OrderSummary } from '../../../application/ports/order-repository';
import type { Order } from '../../../domain/order';
import type { CreateOrderResponse, OrderDetail, OrderListItem } from './order-views';

/** Orders as the API shows them; each is typed by the codec that documents it. */

/** Takes a summary, what a listing reads; a full order is one too (the GET of one order, webhooks). */
export const orderListItem = (order: OrderSummary): t.TypeOf<typeof OrderListItem> => summarize(order, (date) => date.toISOString());

export const orderDetail = (order: Order): t.TypeOf<typeof OrderDetail> => ({
  ...orderListItem(order),
  tracking: { ...order.tracking },
  updatedAt: order.updatedAt.toISOString(),
  version: order.version,
  amounts: { ...order.amounts },
  products: order.products.map((product) => ({ ...product })),
  ...(order.customer ? { customer: order.customer } : {}),
  ...(order.fees ? { fees: order.fees } : {}),
  ...(order.metadata ? { metadata: order.metadata } : {}),
  ...(order.trackingExtras ? { trackingExtras: order.trackingExtras } : {}),
});

export const createdOrder = (order: Order): t.TypeOf<typeof CreateOrderResponse>['order'] => ({
  id: order.id,
  externalId: order.externalId,
  status: order.status,
  isTest: order.isTest,
});
