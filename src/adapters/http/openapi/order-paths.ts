import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from '../codecs/list-query';
import { BEARER, jsonRequest, pathParameter, success, withRequestId } from './builders';
import { COUNTED, REPLAYABLE } from './order-guards';
import { problems } from './problems';
import { headerRef, parameterRef, schemaRef } from './refs';
import type { ParameterObject, PathItemObject } from './types';

/**
 * routes/order-routes.ts. Authentication runs first, then the rate limit; on writes the body is read,
 * then the Idempotency-Key is checked, then the codecs (app.ts).
 */

const query = (name: string, description: string, schema: ParameterObject['schema']): ParameterObject => ({
  name,
  in: 'query',
  required: false,
  description: `${description} Give it at most once.`,
  schema,
});

const instantNote =
  'ISO 8601 with a timezone, inclusive. Percent-encode a `+` offset (`%2B`); an unencoded `+` arrives as a space and is read back as `+`.';

const transitionNote =
  "Status changes are decided by the operator's transition table (the JSON file named by ORDER_TRANSITIONS_FILE, " +
  'for example `{ "pending": ["paid"] }`). The service ships no table and infers none from the status names: ' +
  'without a file, every status change is refused with 409 `INVALID_TRANSITION`. Sending the status the order ' +
  'already has is not a change, so the other fields of the request are still applied. Moving to `paid`, `refunded` ' +
  'or `chargedback` without the matching date (and without one stored) sets that date to the time of the update.';

const idempotencyNote =
  'With an `Idempotency-Key`, a retry of this request is answered from the stored response instead of being executed again ' +
  '(see the header parameter).';

export const orderPaths: Record<string, PathItemObject> = {
  '/api/v1/orders': {
    post: {
      operationId: 'createOrder',
      summary: 'Create an order',
      description:
        "Records an order in the dashboard of the bearer token. `externalId` must be unused in that dashboard. An order created as `paid`, `refunded` or `chargedback` without the matching date gets `createdAt` for it. Every validation problem is reported at once. " +
        idempotencyNote,
      tags: ['orders'],
      security: BEARER,
      parameters: withRequestId(parameterRef('IdempotencyKey')),
      requestBody: jsonRequest('CreateOrderRequest', 'The creation payload.', {
        minimal: {
          externalId: 'order-1',
          platform: 'shopify',
          paymentMethod: 'credit_card',
          status: 'pending',
          createdAt: '2026-01-02T03:04:05Z',
          isTest: false,
          amounts: { currency: 'BRL', grossCents: 10000, netToSellerCents: 9000 },
          products: [{ name: 'T-shirt', quantity: 2, unitPriceCents: 5000 }],
          tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
        },
      }),
      responses: {
        '201': success('The order was created, or this is the stored answer to an earlier request with the same Idempotency-Key.', 'CreateOrderResponse', {
          Location: headerRef('Location'),
          ...COUNTED,
          ...REPLAYABLE,
        }),
        ...problems(
          'OrderInvalidBody',
          'Unauthorized',
          'CreateOrderConflict',
          'OrderPayloadTooLarge',
          'OrderUnsupportedMediaType',
          'IdempotencyKeyReused',
          'RateLimitExceeded',
          'OrderInternalError',
          'OrderServiceUnavailable',
        ),
      },
    },
    get: {
      operationId: 'listOrders',
      summary: "List the dashboard's orders",
      description:
        "Orders of the bearer token's dashboard, newest first (`createdAt` descending, then `id` descending). A page past the end has no orders and the real `total`. Out-of-range values are refused, never clamped; `from` later than `to` is refused; parameters not listed here are refused. An `Idempotency-Key` header is ignored.",
      tags: ['orders'],
      security: BEARER,
      parameters: withRequestId(
        query('page', '1-based page number.', { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 }),
        query('pageSize', 'Orders per page.', { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE }),
        query('status', 'Only orders with this status.', schemaRef('OrderStatus')),
        query('from', `Only orders with \`createdAt\` at or after this instant. ${instantNote}`, schemaRef('DateTimeWithTimezone')),
        query('to', `Only orders with \`createdAt\` at or before this instant. ${instantNote}`, schemaRef('DateTimeWithTimezone')),
      ),
      responses: {
        '200': success('One page of orders.', 'OrderList', COUNTED),
        ...problems('InvalidQuery', 'Unauthorized', 'RateLimitExceeded', 'OrderInternalError', 'OrderServiceUnavailable'),
      },
    },
  },
  '/api/v1/orders/{externalId}': {
    parameters: [pathParameter('externalId', "The caller's identifier of the order.", 255)],
    get: {
      operationId: 'getOrder',
      summary: 'Read an order',
      description:
        'The whole order, with its products, every amount and the free-form objects; the list item of the listing is a summary. An `Idempotency-Key` header is ignored.',
      tags: ['orders'],
      security: BEARER,
      parameters: withRequestId(),
      responses: {
        '200': success('The order.', 'OrderDetailResponse', COUNTED),
        ...problems('OrderInvalidPath', 'Unauthorized', 'OrderNotFound', 'RateLimitExceeded', 'OrderInternalError', 'OrderServiceUnavailable'),
      },
    },
    patch: {
      operationId: 'updateOrder',
      summary: 'Update an order',
      description: `Changes the given fields; concurrent updates of one order never lose a write. ${transitionNote} ${idempotencyNote}`,
      tags: ['orders'],
      security: BEARER,
      parameters: withRequestId(parameterRef('IdempotencyKey')),
      requestBody: jsonRequest('UpdateOrderRequest', 'The fields to change.', {
        paid: { status: 'paid', paidAt: '2026-01-02T04:00:00Z' },
        metadata: { metadata: { note: 'checked by support' } },
      }),
      responses: {
        '200': success('The order after the update, or the stored answer to an earlier request with the same Idempotency-Key.', 'OrderResponse', {
          ...COUNTED,
          ...REPLAYABLE,
        }),
        ...problems(
          'OrderInvalidBody',
          'Unauthorized',
          'UpdateOrderNotFound',
          'UpdateOrderConflict',
          'OrderPayloadTooLarge',
          'OrderUnsupportedMediaType',
          'IdempotencyKeyReused',
          'RateLimitExceeded',
          'OrderInternalError',
          'OrderServiceUnavailable',
        ),
      },
    },
  },
};
