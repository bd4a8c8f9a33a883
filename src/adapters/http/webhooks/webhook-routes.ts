import { listEventsRoute } from './event-routes';
import * as E from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import { DELIVERY_RETENTION_MS, RESPONSE_BODY_LIMIT_BYTES } from '../../../domain/delivery';
import { MAX_WEBHOOKS_PER_DASHBOARD } from '../../../domain/webhook';
import { CreateWebhookBody, DeliveryPath, ListDeliveriesQuery, UpdateWebhookBody, WebhookPath } from './webhook-codecs';
import { DeliveryList, DeliveryResponse, WebhookList, WebhookResponse, WebhookWithSecretResponse } from './webhook-views';
import { deliveryView, webhookView, webhookWithSecretView } from './webhook-presenters';
import { pageOf } from '../kit/list-query';
import { created, noContent, reply } from '../kit/replies';
import { route } from '../kit/route';

/** Webhook endpoints and their deliveries (decision 0012), scoped to the bearer token's dashboard. */

export const WEBHOOKS_PATH = '/api/v1/webhooks';

const RETENTION_DAYS = DELIVERY_RETENTION_MS / 86_400_000;

export const createWebhookRoute = route({
  method: 'post',
  path: WEBHOOKS_PATH,
  operationId: 'createWebhook',
  summary: 'Create a webhook endpoint',
  description:
    `Registers an endpoint in the dashboard of the bearer token, at most ${MAX_WEBHOOKS_PER_DASHBOARD} per dashboard. The answer ` +
    'holds the signing secret: it is shown here and on a rotation, nowhere else. The URL must be `https://` and reach a public ' +
    'address: see the `url` field.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:write',
  body: CreateWebhookBody,
  bodyExamples: {
    all: { url: 'https://hooks.example.com/orders' },
    payments: { url: 'https://hooks.example.com/payments', events: ['order.paid', 'order.refunded'], description: 'Payments' },
  },
  responses: {
    201: {
      description: 'The endpoint was created; `secret` is shown this once. The response holds a secret: no cache may store it.',
      body: WebhookWithSecretResponse,
      headers: ['Location'],
      fixedHeaders: { 'Cache-Control': 'no-store' },
    },
  },
  problems: ['WebhookUrlNotAllowed', 'WebhookLimitReached'],
  handle: async ({ principal, body }, { useCases }) =>
    pipe(
      await useCases.createWebhook.execute(principal.dashboardId, body),
      created(WEBHOOKS_PATH, (endpoint) => ({ webhook: webhookWithSecretView(endpoint) })),
    ),
});

export const listWebhooksRoute = route({
  method: 'get',
  path: WEBHOOKS_PATH,
  operationId: 'listWebhooks',
  summary: "List the dashboard's webhook endpoints",
  description: 'Oldest first, never a secret.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:read',
  responses: { 200: { description: "The dashboard's endpoints.", body: WebhookList } },
  problems: [],
  handle: async ({ principal }, { useCases }) =>
    E.right({ status: 200 as const, body: { webhooks: (await useCases.listWebhooks.execute(principal.dashboardId)).map(webhookView) } }),
});

export const getWebhookRoute = route({
  method: 'get',
  path: `${WEBHOOKS_PATH}/{webhookId}`,
  operationId: 'getWebhook',
  summary: 'Read a webhook endpoint',
  description: 'Never its secret.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:read',
  params: WebhookPath,
  responses: { 200: { description: 'The endpoint.', body: WebhookResponse } },
  problems: ['WebhookNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(
      await useCases.getWebhook.execute(principal.dashboardId, params.webhookId),
      reply(200, (endpoint) => ({ webhook: webhookView(endpoint) })),
    ),
});

export const updateWebhookRoute = route({
  method: 'patch',
  path: `${WEBHOOKS_PATH}/{webhookId}`,
  operationId: 'updateWebhook',
  summary: 'Change a webhook endpoint',
  description:
    'Changes the given fields. A new URL must pass the same rules as on creation. `enabled: true` enables an endpoint again, ' +
    'clearing `disabledReason`; `enabled: false` stops every delivery to it.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:write',
  params: WebhookPath,
  body: UpdateWebhookBody,
  bodyExamples: { enable: { enabled: true }, events: { events: ['order.paid'], description: null } },
  responses: { 200: { description: 'The endpoint after the change.', body: WebhookResponse } },
  problems: ['WebhookNotFound', 'WebhookUrlNotAllowed'],
  handle: async ({ principal, params, body }, { useCases }) =>
    pipe(
      await useCases.updateWebhook.execute(principal.dashboardId, params.webhookId, body),
      reply(200, (endpoint) => ({ webhook: webhookView(endpoint) })),
    ),
});

export const deleteWebhookRoute = route({
  method: 'delete',
  path: `${WEBHOOKS_PATH}/{webhookId}`,
  operationId: 'deleteWebhook',
  summary: 'Delete a webhook endpoint',
  description: 'Nothing more is sent to it, its pending deliveries included; its delivery log goes with it.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:write',
  params: WebhookPath,
  responses: { 204: { description: 'The endpoint was deleted.' } },
  problems: ['WebhookNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(await useCases.deleteWebhook.execute(principal.dashboardId, params.webhookId), noContent),
});

export const rotateWebhookSecretRoute = route({
  method: 'post',
  path: `${WEBHOOKS_PATH}/{webhookId}/rotate-secret`,
  operationId: 'rotateWebhookSecret',
  summary: "Rotate a webhook endpoint's secret",
  description:
    'Takes no body (one sent is not read). Makes a new secret, shown in this answer only. For 24 hours the previous secret keeps ' +
    'signing beside it: each request carries two signatures in `webhook-signature`, so a receiver can switch to the new secret ' +
    'at its own pace.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:write',
  params: WebhookPath,
  responses: {
    200: {
      description: 'The endpoint with its new secret. The response holds a secret: no cache may store it.',
      body: WebhookWithSecretResponse,
      fixedHeaders: { 'Cache-Control': 'no-store' },
    },
  },
  problems: ['WebhookNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(
      await useCases.rotateWebhookSecret.execute(principal.dashboardId, params.webhookId),
      reply(200, (endpoint) => ({ webhook: webhookWithSecretView(endpoint) })),
    ),
});

export const testWebhookRoute = route({
  method: 'post',
  path: `${WEBHOOKS_PATH}/{webhookId}/test`,
  operationId: 'testWebhook',
  summary: 'Send a test event to a webhook endpoint',
  description:
    'Takes no body (one sent is not read). Makes a `webhook.test` delivery to this endpoint, whatever event types it subscribes ' +
    'to, sent at once and retried like any other. A disabled endpoint is sent nothing (409 `WEBHOOK_DISABLED`).',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:write',
  params: WebhookPath,
  responses: { 202: { description: 'The delivery, pending: follow it in the delivery log.', body: DeliveryResponse } },
  problems: ['WebhookNotFound', 'WebhookDisabled'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(
      await useCases.sendTestWebhook.execute(principal.dashboardId, params.webhookId),
      reply(202, (delivery) => ({ delivery: deliveryView(delivery) })),
    ),
});

export const listDeliveriesRoute = route({
  method: 'get',
  path: `${WEBHOOKS_PATH}/{webhookId}/deliveries`,
  operationId: 'listDeliveries',
  summary: "List a webhook endpoint's deliveries",
  description:
    `The delivery log, newest first (\`createdAt\` descending, then \`id\` descending), kept ${RETENTION_DAYS} days. Each delivery ` +
    'shows the reduced event (the order as a list item) and every attempt with its status or error, and the start of the ' +
    `receiver's response body (at most ${RESPONSE_BODY_LIMIT_BYTES} bytes). ` +
    'Out-of-range values and unknown parameters are refused.',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:read',
  params: WebhookPath,
  query: ListDeliveriesQuery,
  responses: { 200: { description: 'One page of deliveries.', body: DeliveryList } },
  problems: ['WebhookNotFound'],
  handle: async ({ principal, params, query }, { useCases }) =>
    pipe(
      await useCases.listDeliveries.execute(principal.dashboardId, params.webhookId, query),
      reply(200, (result) => pageOf('deliveries', result.deliveries.map(deliveryView), query, result.total)),
    ),
});

export const retryDeliveryRoute = route({
  method: 'post',
  path: `${WEBHOOKS_PATH}/{webhookId}/deliveries/{deliveryId}/retry`,
  operationId: 'retryDelivery',
  summary: 'Send a delivery again',
  description:
    'Takes no body (one sent is not read). One more attempt now, with the same body and the same `webhook-id`, whatever the ' +
    "delivery's status: a receiver that deduplicates by `webhook-id` sees a replay. A pending delivery is brought forward and " +
    'keeps its retries; a finished one (succeeded or failed) gets this one attempt. A disabled endpoint is sent nothing (409).',
  tag: 'webhooks',
  guards: ['token', 'rateLimit'],
  scope: 'webhooks:write',
  params: DeliveryPath,
  responses: { 202: { description: 'The delivery, pending and due now.', body: DeliveryResponse } },
  problems: ['WebhookNotFound', 'DeliveryNotFound', 'WebhookDisabled'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(
      await useCases.retryDelivery.execute(principal.dashboardId, params.webhookId, params.deliveryId),
      reply(202, (delivery) => ({ delivery: deliveryView(delivery) })),
    ),
});

export const webhookRoutes = [
  createWebhookRoute,
  listWebhooksRoute,
  getWebhookRoute,
  updateWebhookRoute,
  deleteWebhookRoute,
  rotateWebhookSecretRoute,
  testWebhookRoute,
  listDeliveriesRoute,
  retryDeliveryRoute,
  listEventsRoute,
];
