import type * as t from 'io-ts';
import type { Delivery } from '../../../domain/delivery';
import type { WebhookEndpoint } from '../../../domain/webhook';
import type { Delivery as DeliveryView, Webhook, WebhookWithSecretResponse } from './webhook-views';

/** Webhook endpoints and deliveries as the API shows them; each is typed by the codec that documents it. */

/** An endpoint as listed and read: never its secret. */
export const webhookView = (endpoint: WebhookEndpoint): t.TypeOf<typeof Webhook> => ({
  id: endpoint.id,
  url: endpoint.url,
  events: [...endpoint.events],
  description: endpoint.description ?? null,
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason ?? null,
  createdAt: endpoint.createdAt.toISOString(),
});

/** The two answers that show the secret: creation and rotation. */
export const webhookWithSecretView = (endpoint: WebhookEndpoint): t.TypeOf<typeof WebhookWithSecretResponse>['webhook'] => ({
  ...webhookView(endpoint),
  secret: endpoint.secret,
});

/** A delivery of the log: the reduced event, never the body that was sent; the start of each response's body. */
export const deliveryView = (delivery: Delivery): t.TypeOf<typeof DeliveryView> => ({
  id: delivery.id,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts.map((attempt) => ({
    at: attempt.at.toISOString(),
    durationMs: attempt.durationMs,
    ...(attempt.responseStatus === undefined ? {} : { responseStatus: attempt.responseStatus }),
    ...(attempt.responseBody === undefined
      ? {}
      : { responseBody: attempt.responseBody, responseBodyTruncated: attempt.responseBodyTruncated ?? false }),
    ...(attempt.error === undefined ? {} : { error: attempt.error }),
  })),
  ...(delivery.nextAttemptAt === undefined ? {} : { nextAttemptAt: delivery.nextAttemptAt.toISOString() }),
  createdAt: delivery.createdAt.toISOString(),
  payload: delivery.payload as t.TypeOf<typeof DeliveryView>['payload'],
});
