import type { Either } from 'fp-ts/Either';
import type { Option } from 'fp-ts/Option';
import type { DuplicateExternalId } from '../../domain/errors';
import type { Amounts } from '../../domain/money';
import type { Order, Tracking } from '../../domain/order';
import type { OrderDomainEvent } from '../../domain/order-events';
import type { OrderStatus } from '../../domain/order-status';

/**
 * An event as stored with its order: the domain's event and the `evt_…` id the use case gave it.
 * Defined here rather than in the domain because the id is not a rule of the domain (which makes no
 * ids) but the identity the outbox, the relay and webhook deliveries (`webhook-id`) share.
 */
export type OrderEvent = OrderDomainEvent & { readonly id: string };

export interface OrderQuery {
  readonly status?: OrderStatus;
  /** Inclusive lower bound on `createdAt`. */
  readonly from?: Date;
  /** Inclusive upper bound on `createdAt`. */
  readonly to?: Date;
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

/**
 * An order as a listing gives it: what a list item shows, and nothing else. A page of orders is read
 * often and shows little, so a listing reads only these fields: products, customer, fees, metadata,
 * trackingExtras, the amounts not shown, version and updatedAt stay unread in the store. An `Order`
 * is an `OrderSummary`, so whatever presents a summary presents a full order too.
 */
export type OrderSummary = Pick<
  Order,
  'id' | 'externalId' | 'status' | 'isTest' | 'platform' | 'paymentMethod' | 'createdAt' | 'paidAt' | 'refundedAt' | 'chargedbackAt'
> & {
  readonly amounts: Pick<Amounts, 'currency' | 'grossCents' | 'netToSellerCents'>;
  readonly tracking: Pick<Tracking, 'utmSource' | 'utmMedium' | 'utmCampaign'>;
};

/** A summary with its instants given as `D`: Dates in a store, ISO strings in an API's list item. */
export type SummaryWith<D> = Omit<OrderSummary, 'createdAt' | 'paidAt' | 'refundedAt' | 'chargedbackAt'> & {
  readonly createdAt: D;
  readonly paidAt?: D;
  readonly refundedAt?: D;
  readonly chargedbackAt?: D;
};

/** The summary's fields of an order, in the order a list item shows them, with each instant through `instant`. */
export const summarize = <D>(order: OrderSummary, instant: (date: Date) => D): SummaryWith<D> => ({
  id: order.id,
  externalId: order.externalId,
  status: order.status,
  isTest: order.isTest,
  platform: order.platform,
  paymentMethod: order.paymentMethod,
  createdAt: instant(order.createdAt),
  ...(order.paidAt === undefined ? {} : { paidAt: instant(order.paidAt) }),
  ...(order.refundedAt === undefined ? {} : { refundedAt: instant(order.refundedAt) }),
  ...(order.chargedbackAt === undefined ? {} : { chargedbackAt: instant(order.chargedbackAt) }),
  amounts: { currency: order.amounts.currency, grossCents: order.amounts.grossCents, netToSellerCents: order.amounts.netToSellerCents },
  tracking: { utmSource: order.tracking.utmSource, utmMedium: order.tracking.utmMedium, utmCampaign: order.tracking.utmCampaign },
});

/**
 * The summary of a stored order, for a store that holds whole orders. Builds a new object but shares
 * the order's dates: a store that must not share them copies the result.
 */
export const summaryOf = (order: OrderSummary): OrderSummary => summarize(order, (date) => date);

export interface OrderPage {
  readonly orders: readonly OrderSummary[];
  /** Every order of the dashboard that matches the filters, whatever the page. */
  readonly total: number;
}

/**
 * Where orders live. Every method is scoped by dashboard: an order of another dashboard is never seen.
 * Implementations must agree on everything written here (test/contract/order-repository.contract.ts).
 */
export interface OrderRepository {
  /**
   * Stores a new order with `events` as its outbox, in one single-document write. Atomic: when an
   * order with the same (dashboardId, externalId) exists, or is being inserted by a racing call,
   * exactly one insert wins and the others get `DuplicateExternalId`, storing neither order nor
   * event. Never a read followed by a write.
   */
  insert(order: Order, events: readonly OrderEvent[]): Promise<Either<DuplicateExternalId, Order>>;

  /** The order, or `none` when the dashboard has no order with this externalId. */
  findByExternalId(dashboardId: string, externalId: string): Promise<Option<Order>>;

  /**
   * Replaces the stored order when its stored version is still `order.version - 1` (compare-and-set
   * on one document), and appends `events` to its outbox in the same write. Atomic: of any number of
   * racing replaces from one version, exactly one resolves `true`. Resolves `false`, writing nothing
   * (no order, no event), when another write got there first or the order is gone; the caller reads
   * again and retries. Leaves nothing behind that could block a later replace, even when the process
   * dies during the call.
   */
  replace(order: Order, events: readonly OrderEvent[]): Promise<boolean>;

  /**
   * The events stored with the order and not yet relayed, oldest first (in the order they were
   * given to `insert` and `replace`); `[]` when the dashboard has no order with this externalId.
   * Copies: changing them changes nothing stored.
   */
  outboxOf(dashboardId: string, externalId: string): Promise<readonly OrderEvent[]>;

  /**
   * One page, newest first: `createdAt` descending, then `id` descending, so pages are stable. Each
   * order as its `OrderSummary`, holding exactly the summary's fields (the optional dates only when the
   * order has them): what the summary leaves out is not read. Copies: changing them changes nothing
   * stored.
   */
  list(dashboardId: string, query: OrderQuery): Promise<OrderPage>;

  /**
   * A page after a position, in the same order as `list` (decision 0019's cursors): the orders that
   * come after `after` (all when absent) under the same filters, at most `pageSize`, and whether more
   * follow. It costs the page alone at any depth: no count, no offset.
   */
  listAfter(dashboardId: string, query: OrderCursorQuery): Promise<OrderCursorPage>;
}

/** Where a listing stands: the last order seen, by the listing's sort key. */
export interface OrderPosition {
  readonly createdAt: Date;
  readonly id: string;
}

export interface OrderCursorQuery {
  readonly status?: OrderStatus;
  readonly from?: Date;
  readonly to?: Date;
  readonly after?: OrderPosition;
  readonly pageSize: number;
}

export interface OrderCursorPage {
  readonly orders: readonly OrderSummary[];
  /** Whether orders follow the last of this page. */
  readonly more: boolean;
}
