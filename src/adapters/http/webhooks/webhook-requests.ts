import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../domain/webhook';
import type { ParameterObject, WebhookSection } from '../kit/openapi/types';
import { WebhookEvent, webhookEventOf } from './webhook-views';

const WHEN: Readonly<Record<WebhookEventType, string>> = {
  'order.created': 'An order was created.',
  'order.updated': 'A PATCH changed an order (any field).',
  'order.paid': 'An order entered `paid`, at creation or by a PATCH.',
  'order.refused': 'An order entered `refused`, at creation or by a PATCH.',
  'order.refunded': 'An order entered `refunded`, at creation or by a PATCH.',
  'order.chargedback': 'An order entered `chargedback`, at creation or by a PATCH.',
  'webhook.test': 'The test route of an endpoint was called (`data.webhook.id` names the endpoint).',
};

/** `order.created` → `orderCreatedWebhook`. */
const operationIdOf = (type: string): string => `${type.replace(/\.([a-z])/g, (_, letter: string) => letter.toUpperCase())}Webhook`;

/** The requests the service sends to webhook endpoints (the document's `webhooks`), one per event type. */
export const WEBHOOK_REQUESTS: WebhookSection = {
  event: WebhookEvent,
  requests: WEBHOOK_EVENT_TYPES.map((type) => ({
    type,
    summary: WHEN[type],
    operationId: operationIdOf(type),
    body: webhookEventOf(type),
  })),
  description: `\`POST\` to the endpoint's URL, \`Content-Type: application/json\`, signed as Standard Webhooks do (https://www.standardwebhooks.com): verify the signature before trusting the body.

- At least once: a receiver may get one event twice (same \`webhook-id\`); deduplicate by it. Events of one order carry increasing \`data.order.version\`: drop a stale one.
- A 2xx within WEBHOOK_TIMEOUT_MS (15 s) is a success. Redirects are not followed. Anything else is retried after WEBHOOK_RETRY_SCHEDULE (by default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over about 27 h), each delay moved by up to 10 %, or after \`Retry-After\` when that is longer (up to 1 h); then the delivery is \`failed\`.
- A 410 Gone disables the endpoint (\`enabled: false\`, \`disabledReason\`).
- Every attempt is in the endpoint's delivery log (GET /api/v1/webhooks/{webhookId}/deliveries), and POST …/deliveries/{deliveryId}/retry sends one again with the same \`webhook-id\`.`,
  headers: [
    {
      name: 'webhook-id',
      in: 'header',
      required: true,
      description: 'The event id (`evt_…`): the same on every attempt and on a manual retry.',
      schema: { type: 'string' },
    },
    {
      name: 'webhook-timestamp',
      in: 'header',
      required: true,
      description:
        'When this attempt was made, in seconds since the Unix epoch. Refuse a timestamp far from your clock (Standard Webhooks libraries allow 5 minutes).',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
    {
      name: 'webhook-signature',
      in: 'header',
      required: true,
      description:
        '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`. ' +
        'Space-separated, one per secret: two for 24 h after a rotation (the new secret first). A request is genuine when one of them matches.',
      schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$' },
    },
  ] satisfies ParameterObject[],
  responses: {
    '2XX': { description: 'Received: the delivery succeeded.' },
    '410': { description: 'Gone: the endpoint is disabled and sent nothing more until it is enabled again.' },
    default: { description: 'Anything else (or no answer in time) is retried.' },
  },
};
