import * as t from 'io-ts';
import { DELIVERY_STATUSES } from '../../../domain/delivery';
import { MAX_WEBHOOK_DESCRIPTION_LENGTH, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../domain/webhook';
import { IdParam } from '../access/admin-codecs';
import { bool, nullable, oneOf, str, strictObject } from '../kit/codec-kit';
import { component, described, Documented } from '../kit/json-schema';
import { pagingParams, single } from '../kit/list-query';
import { webhookUrl } from './webhook-url';

/** Codecs of what a caller sends about webhooks (decision 0012). */

export const webhookEventType = component(
  'WebhookEventType',
  oneOf(WEBHOOK_EVENT_TYPES),
  '`order.created` on every creation; `order.updated` on every PATCH that changed something; `order.paid`, `order.refused`, ' +
    '`order.refunded`, `order.chargedback` when the order entered that status, at creation or by a PATCH; `webhook.test` from the ' +
    'test route only.',
);

const eventType = oneOf(WEBHOOK_EVENT_TYPES);

/** The types an endpoint wants: each at most once; empty (or, on creation, omitted) means all. */
export const eventTypes = new Documented<WebhookEventType[], unknown>(
  'WebhookEventTypes',
  (u): u is WebhookEventType[] => Array.isArray(u),
  (u, c) => {
    if (!Array.isArray(u) || u.length > WEBHOOK_EVENT_TYPES.length)
      return t.failure(u, c, `must be an array of at most ${WEBHOOK_EVENT_TYPES.length} event types`);
    const errors: t.ValidationError[] = [];
    u.forEach((item, index) => {
      const result = eventType.validate(item, t.appendContext(c, String(index), eventType, item));
      if (result._tag === 'Left') errors.push(...result.left);
      else if (u.indexOf(item) !== index)
        errors.push({ value: item, context: t.appendContext(c, String(index), eventType, item), message: 'is listed twice' });
    });
    return errors.length > 0 ? t.failures(errors) : t.success(u as WebhookEventType[]);
  },
  t.identity,
  (w) => ({
    type: 'array',
    items: w.schemaOf(webhookEventType),
    maxItems: WEBHOOK_EVENT_TYPES.length,
    uniqueItems: true,
    description: 'The event types sent to the endpoint, each at most once; empty means every type.',
  }),
);

const description = str(1, MAX_WEBHOOK_DESCRIPTION_LENGTH);

export const CreateWebhookBody = strictObject(
  'CreateWebhookRequest',
  { url: webhookUrl },
  {
    events: described(eventTypes, 'The event types sent to the endpoint, each at most once; omitted or empty means every type.'),
    description,
  },
  { description: 'A new endpoint. Unknown fields are refused.' },
);

export const UpdateWebhookBody = strictObject(
  'UpdateWebhookRequest',
  {},
  {
    url: webhookUrl,
    events: eventTypes,
    description: described(nullable(description), '`null` removes it.'),
    enabled: described(bool, 'Enabling an endpoint the service disabled (after a 410) clears `disabledReason`.'),
  },
  {
    description: 'At least one of the fields; unknown fields are refused.',
    atLeastOne: 'must change at least one of url, events, description, enabled',
  },
);

const webhookId = described(IdParam, 'The id of the webhook endpoint (`whk_…`).');

export const WebhookPath = strictObject('WebhookPath', { webhookId });
export const DeliveryPath = strictObject('DeliveryPath', {
  webhookId,
  deliveryId: described(IdParam, 'The id of the delivery (`dlv_…`).'),
});

export const deliveryStatus = component('DeliveryStatus', oneOf(DELIVERY_STATUSES), 'Where a delivery stands.');

/** The query string of GET /api/v1/webhooks/{webhookId}/deliveries; unknown parameters are refused. */
export const ListDeliveriesQuery = strictObject(
  'ListDeliveriesQuery',
  {},
  {
    ...pagingParams('Deliveries'),
    status: described(single(deliveryStatus), 'Only deliveries with this status.'),
  },
);
