import type { JsonObject } from '../../domain/order';
import type { WebhookEndpoint } from '../../domain/webhook';
import type { OrderEvent } from './order-repository';

/** An event as it is sent and as it is logged. */
export interface RenderedEvent {
  /** The request body, JSON text: the same bytes on every attempt. */
  readonly body: string;
  /** The reduced event of the delivery log: the order as a list item, never its personal or free-form data. */
  readonly payload: JsonObject;
}

/**
 * Renders events in the JSON of the public API (`data.order` is the order as GET
 * /api/v1/orders/{externalId} shows it), which belongs to the HTTP adapter, not to the use cases.
 */
export interface WebhookPayloads {
  orderEvent(event: OrderEvent): RenderedEvent;
  /** The `webhook.test` event of `eventId`, to `endpoint`, at `at`. */
  testEvent(eventId: string, endpoint: WebhookEndpoint, at: Date): RenderedEvent;
}
