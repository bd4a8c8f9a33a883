import type { OrderEvent } from '../../../application/ports/order-repository';
import type { RenderedEvent, WebhookPayloads } from '../../../application/ports/webhook-payloads';
import type { JsonObject } from '../../../domain/order';
import type { WebhookEndpoint } from '../../../domain/webhook';
import { orderDetail, orderListItem } from '../orders/order-presenters';

/**
 * Events in the JSON of the public API (decision 0012): `data.order` is the order as GET
 * /api/v1/orders/{externalId} answers it (components/schemas/WebhookEvent); the delivery log keeps it
 * as a list item (components/schemas/WebhookEventSummary), without customer, products, metadata, fees
 * or trackingExtras.
 */
export class ApiWebhookPayloads implements WebhookPayloads {
  orderEvent(event: OrderEvent): RenderedEvent {
    const head = { id: event.id, type: event.type, timestamp: event.occurredAt.toISOString() };
    const previous = event.previousStatus === undefined ? {} : { previousStatus: event.previousStatus };
    return {
      body: JSON.stringify({ ...head, data: { order: orderDetail(event.order), ...previous } }),
      payload: { ...head, data: { order: orderListItem(event.order), ...previous } } as JsonObject,
    };
  }

  testEvent(eventId: string, endpoint: WebhookEndpoint, at: Date): RenderedEvent {
    const event = { id: eventId, type: 'webhook.test', timestamp: at.toISOString(), data: { webhook: { id: endpoint.id } } };
    return { body: JSON.stringify(event), payload: event };
  }
}
