import type { ConversionDelivery } from '../../domain/conversion';
import type { Delivery } from '../../domain/delivery';
import type { OrderEvent } from './order-repository';

/** An order with events in its outbox. */
export interface OutboxEntry {
  readonly orderId: string;
  readonly dashboardId: string;
  /** Its events not yet relayed, oldest first. */
  readonly events: readonly OrderEvent[];
}

/** What `relayUnsubscribed` did with the oldest outboxes. */
export interface UnsubscribedRelay {
  /** The orders whose events it relayed. */
  readonly relayed: number;
  /** Whether it left any of those it looked at (or, on a store that relays none here, whether any may wait). */
  readonly leftSome: boolean;
}

/**
 * The way out of the orders' outboxes: the relay reads the events waiting there and turns each into
 * the deliveries it calls for. Implementations must agree (test/contract/webhook-outbox.contract.ts).
 */
export interface WebhookOutbox {
  /** Up to `limit` orders whose outbox holds events, each with all of them. */
  pending(limit: number): Promise<readonly OutboxEntry[]>;

  /**
   * Stores `deliveries` and `conversions` (the conversion deliveries to ad accounts), skipping any
   * whose (eventId, endpointId) or (eventId, adAccountId) is already stored, then removes the events
   * of `entry` from its order's outbox (events added since stay). Idempotent, so that a relay that
   * died half-way can do it all again: on SQLite and in memory it is one transaction; on MongoDB the
   * deliveries are inserted first and the events pulled from the order document after, and a crash
   * between the two leaves the events to be relayed again, creating no delivery twice.
   */
  relay(entry: OutboxEntry, deliveries: readonly Delivery[], conversions?: readonly ConversionDelivery[]): Promise<void>;

  /**
   * Relays, without reading them out, the events of the oldest outboxes (at most `limit` orders, the
   * same the next `pending` would start with) whose dashboard has no webhook endpoint at all and no ad
   * account sending conversions: they go
   * to the events feed, in their order, and leave the outbox, with no delivery to make. Read and
   * written in one transaction, so an endpoint created meanwhile is seen (its dashboard's events are
   * left to `pending` and `relay`). A store where this would cost what `pending` and `relay` cost may
   * relay none and leave them all (MongoDB does).
   */
  relayUnsubscribed(limit: number): Promise<UnsubscribedRelay>;

  /** How many events wait in all the outboxes, for the metrics: one count, read now. */
  backlog(): Promise<number>;
}
