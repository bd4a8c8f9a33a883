import type { NewOrder, Order, OrderChanges } from './order';
import { dateFieldOf, type OrderStatus } from './order-status';
import { NOT_SET } from './touch';

/** What every reading of a delivery names, when the platform says it. */
interface Labels {
  /** The platform's id of the event or delivery: a retry carries the same one. */
  readonly eventId?: string;
  readonly topic?: string;
}

/** A delivery about an order: what the platform says the order is now. */
export interface OrderReading extends Labels {
  readonly kind: 'order';
  /**
   * The order's key: `<platform>:<the shop>:<its order id>` where a platform numbers orders per shop
   * (`woocommerce:shop.example.com:727`), so that two shops never share an order, or
   * `<platform>:<its order id>` where the id is unique across the platform (`stripe:pi_…`).
   */
  readonly externalId: string;
  /**
   * The key the order had before each shop had an order space of its own (`woocommerce:727`): an order
   * recorded under it is this one when it was created at the same instant as `order` says (or, for a
   * delivery without the order, always: its platform's ids are unique across shops).
   */
  readonly formerExternalId?: string;
  /** The platform's time of what it reports (Shopify's `updated_at`, Stripe's event `created`). */
  readonly at: Date;
  readonly status: OrderStatus;
  /** A refund of this many cents: the order is refunded when it reaches the order's gross, and stays as it is otherwise. */
  readonly refundedCents?: number;
  /** Everything to record the order, when the delivery carries it. */
  readonly order?: NewOrder;
  /** Why the delivery cannot record the order when there is none yet (it has no `order`). */
  readonly cannotCreate?: string;
  /** Said beside the outcome in the delivery log (a partial refund, a status read as another). */
  readonly note?: string;
}

/**
 * What a platform's delivery says, read by the platform's adapter: about an order, or nothing to do
 * (another topic, a test ping: `ignored`), or something that cannot become an order (`refused`).
 */
export type SourceReading =
  | (Labels & { readonly kind: 'ignored'; readonly reason: string })
  | (Labels & { readonly kind: 'refused'; readonly reason: string })
  | OrderReading;

export type Decision =
  | { readonly action: 'create'; readonly order: NewOrder }
  | { readonly action: 'update'; readonly changes: OrderChanges; readonly reason: string }
  | { readonly action: 'ignore'; readonly reason: string }
  | { readonly action: 'refuse'; readonly reason: string };

/**
 * How far along its life each status is: platforms send events out of order, and an event that
 * reports an earlier point than the order's never moves it back. A failed payment may be followed by a
 * successful one (paid after refused), never the other way; a refund and a chargeback end an order,
 * and between the two the later event wins.
 */
export const STATUS_STAGE: Readonly<Record<OrderStatus, number>> = { pending: 0, refused: 1, paid: 2, refunded: 3, chargedback: 3 };

const withNote = (reason: string, note: string | undefined): string => (note === undefined ? reason : `${reason} (${note})`);

const centsText = (cents: number, currency: string): string => `${(cents / 100).toFixed(2)} ${currency}`;

/** The status the reading moves the order to, a refund judged against the order's gross; undefined for a partial refund. */
const reportedStatus = (reading: OrderReading, order: Order): OrderStatus | undefined =>
  reading.refundedCents === undefined || reading.refundedCents >= order.amounts.grossCents ? reading.status : undefined;

/** When the order entered its status, as far as the order says: its status's date, or its creation. */
const statusSince = (order: Order): Date => {
  const field = dateFieldOf(order.status);
  return (field === undefined ? undefined : order[field]) ?? order.createdAt;
};

/** The platform's tracking arrived after the order was recorded without it: said, since attribution never changes. */
const lateTracking = (reading: OrderReading, order: Order): string | undefined =>
  reading.order !== undefined && order.tracking.utmSource === NOT_SET && reading.order.tracking.utmSource !== NOT_SET
    ? `its tracking (utm_source ${reading.order.tracking.utmSource}) came after the order was recorded without it, and an order keeps the attribution it was created with`
    : undefined;

/**
 * What a delivery does to its order: create it (none yet, and the delivery carries it), update its
 * status (a later stage, or a later event at the same stage), or nothing (an older or repeated event,
 * a partial refund) with the reason; refuse it when there is no order and the delivery cannot make one.
 */
export const decideDelivery = (reading: OrderReading, current: Order | undefined): Decision => {
  if (current === undefined) {
    if (reading.order === undefined)
      return { action: 'refuse', reason: reading.cannotCreate ?? `no order ${reading.externalId} yet, and this event does not carry one` };
    return { action: 'create', order: reading.order };
  }
  const note = [reading.note, lateTracking(reading, current)].filter((text) => text !== undefined).join('; ') || undefined;
  const status = reportedStatus(reading, current);
  if (status === undefined) {
    const refunded = centsText(reading.refundedCents ?? 0, current.amounts.currency);
    const reason = `a partial refund (${refunded} of ${centsText(current.amounts.grossCents, current.amounts.currency)}): the order stays ${current.status}`;
    return { action: 'ignore', reason: withNote(reason, note) };
  }
  if (status === current.status) return { action: 'ignore', reason: withNote(`nothing new: the order is already ${status}`, note) };
  const older = `older than the order: it is already ${current.status}, this event says ${status}`;
  if (STATUS_STAGE[status] < STATUS_STAGE[current.status]) return { action: 'ignore', reason: withNote(older, note) };
  if (STATUS_STAGE[status] === STATUS_STAGE[current.status] && reading.at.getTime() <= statusSince(current).getTime())
    return { action: 'ignore', reason: withNote(older, note) };
  const field = dateFieldOf(status);
  return {
    action: 'update',
    changes: { status, ...(field === undefined ? {} : { [field]: reading.at }) },
    reason: withNote(`${current.status} → ${status}`, note),
  };
};
