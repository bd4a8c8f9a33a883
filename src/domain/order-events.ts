import type { Order } from './order';
import type { OrderStatus } from './order-status';

/**
 * What a change of an order can emit (decision 0012). Webhook endpoints subscribe to these names;
 * `webhook.test` is not here because no order change emits it.
 */
export const ORDER_EVENT_TYPES = [
  'order.created',
  'order.updated',
  'order.paid',
  'order.refused',
  'order.refunded',
  'order.chargedback',
] as const;

export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/**
 * Something that happened to an order, as the domain says it: no id (ids are made outside the
 * domain), the time of the change, and the order right after it, version included, so that a
 * receiver can tell a stale event from a newer one.
 */
export interface OrderDomainEvent {
  readonly type: OrderEventType;
  /** The `now` of the change that emitted it. */
  readonly occurredAt: Date;
  /** The whole order as the change left it. */
  readonly order: Order;
  /** Only on the events of a PATCH that changed the status: the status before it. */
  readonly previousStatus?: OrderStatus;
}

/** The event of entering each status; none for `pending`. Written for every status, so a new one needs a decision. */
const ENTERED: Readonly<Record<OrderStatus, OrderEventType | undefined>> = {
  pending: undefined,
  paid: 'order.paid',
  refused: 'order.refused',
  refunded: 'order.refunded',
  chargedback: 'order.chargedback',
};

/** `order.created`, then the event of the status the order starts in, if it has one. */
export const eventsOfCreation = (order: Order, now: Date): readonly OrderDomainEvent[] => {
  const entered = ENTERED[order.status];
  return [{ type: 'order.created', occurredAt: now, order }, ...(entered === undefined ? [] : [{ type: entered, occurredAt: now, order }])];
};

/**
 * `order.updated`, then the event of the status entered when the status changed; both carry the
 * previous status in that case. The caller emits nothing for a change that changed nothing.
 */
export const eventsOfChange = (before: Order, after: Order, now: Date): readonly OrderDomainEvent[] => {
  if (before.status === after.status) return [{ type: 'order.updated', occurredAt: now, order: after }];
  const common = { occurredAt: now, order: after, previousStatus: before.status };
  const entered = ENTERED[after.status];
  return [{ type: 'order.updated', ...common }, ...(entered === undefined ? [] : [{ type: entered, ...common }])];
};
