import type { OutboxEntry, UnsubscribedRelay, WebhookOutbox } from '../../../application/ports/webhook-outbox';
import type { ConversionDelivery } from '../../../domain/conversion';
import type { Delivery } from '../../../domain/delivery';
import type { InMemoryAdAccountRepository } from '../ads/in-memory-ad-account-repository';
import type { InMemoryConversionRepository } from '../ads/in-memory-conversion-repository';
import type { InMemoryDeliveryRepository } from './in-memory-delivery-repository';
import type { InMemoryEventFeed } from '../orders/in-memory-event-feed';
import type { InMemoryOrderRepository } from '../orders/in-memory-order-repository';
import type { InMemoryWebhookEndpointRepository } from './in-memory-webhook-endpoint-repository';

/** The orders' outboxes of the in-memory store; a relay is one synchronous step, so one transaction. */
export class InMemoryWebhookOutbox implements WebhookOutbox {
  constructor(
    private readonly orders: InMemoryOrderRepository,
    private readonly deliveries: InMemoryDeliveryRepository,
    private readonly feed: InMemoryEventFeed,
    private readonly endpoints: InMemoryWebhookEndpointRepository,
    private readonly adAccounts: InMemoryAdAccountRepository,
    private readonly conversions: InMemoryConversionRepository,
  ) {}

  async pending(limit: number): Promise<readonly OutboxEntry[]> {
    return this.orders.outboxes(limit);
  }

  /** One synchronous step, like a relay: the endpoints read are those of the moment. */
  async relayUnsubscribed(limit: number): Promise<UnsubscribedRelay> {
    const oldest = this.orders.outboxes(limit);
    const unsubscribed = oldest.filter(
      (entry) => !this.endpoints.anyOf(entry.dashboardId) && !this.adAccounts.sendsConversions(entry.dashboardId),
    );
    for (const entry of unsubscribed) {
      this.feed.add(entry.dashboardId, entry.events, Date.now());
      this.orders.dropFromOutbox(
        entry.orderId,
        entry.events.map((event) => event.id),
      );
    }
    return { relayed: unsubscribed.length, leftSome: unsubscribed.length < oldest.length };
  }

  async backlog(): Promise<number> {
    return this.orders.outboxBacklog();
  }

  async relay(entry: OutboxEntry, deliveries: readonly Delivery[], conversions: readonly ConversionDelivery[] = []): Promise<void> {
    for (const delivery of deliveries) this.deliveries.insertNow(delivery);
    for (const conversion of conversions) this.conversions.insertNow(conversion);
    this.feed.add(entry.dashboardId, entry.events, Date.now());
    this.orders.dropFromOutbox(
      entry.orderId,
      entry.events.map((event) => event.id),
    );
  }
}
