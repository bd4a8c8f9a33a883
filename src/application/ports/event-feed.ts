import type { OrderEventType } from '../../domain/order-events';
import type { OrderEvent } from './order-repository';

export interface EventFeedQuery {
  /** The id of the last event the consumer saw; from the oldest kept when absent. */
  readonly after?: string;
  readonly type?: OrderEventType;
  readonly limit: number;
  readonly now: Date;
}

export interface EventFeedPage {
  /** Oldest first: every event once, each order's in version order. */
  readonly events: readonly OrderEvent[];
  readonly hasMore: boolean;
}

/** How long the feed keeps an event (decision 0019). */
export const FEED_RETENTION_MS = 30 * 86_400_000;

/**
 * The dashboard's order events as a feed (decision 0019), filled by the webhook relay as it takes the
 * events out of the orders' outboxes (`WebhookOutbox.relay`), kept 30 days. A consumer that reads
 * with the last id it saw gets every event once, never one before an earlier one of its order.
 */
export interface EventFeed {
  /** `undefined` when `after` is no event of the dashboard's feed (unknown, or gone after 30 days). */
  list(dashboardId: string, query: EventFeedQuery): Promise<EventFeedPage | undefined>;
}
