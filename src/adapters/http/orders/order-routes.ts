import * as E from 'fp-ts/Either';
import type { OrderPosition } from '../../../application/ports/order-repository';
import { pipe } from 'fp-ts/function';
import { strictObject } from '../kit/codec-kit';
import { CreateOrderBody, ListOrdersQuery, MAX_ORDER_VALUES, text, TEXT_MAX, UpdateOrderBody } from './order-codecs';
import { CreateOrderResponse, OrderDetailResponse, OrderList, OrderResponse } from './order-views';
import { pathIdentifier, toPathSegment } from '../kit/path-segment';
import { createdOrder, orderDetail, orderListItem } from './order-presenters';
import { decodeCursor, encodeCursor, NOT_A_CURSOR } from '../kit/cursor';
import { reply } from '../kit/replies';
import { route } from '../kit/route';
import { valuesFor } from '../kit/well-formed';
import { createOrdersBatchRoute } from './batch-routes';

/** The public orders API (specification, decisions 0001, 0007): thin handlers, decode → use case → reply. */

export const ORDERS_PATH = '/api/v1/orders';

export const OrderPath = strictObject('OrderPath', {
  externalId: pathIdentifier(text, TEXT_MAX, "The caller's identifier of the order."),
});

const IDEMPOTENCY_NOTE =
  'With an `Idempotency-Key`, a retry of this request is answered from the stored response instead of being executed again ' +
  '(see the header parameter).';

const TRANSITION_NOTE =
  "Status changes are decided by the operator's transition table (the JSON file named by ORDER_TRANSITIONS_FILE, " +
  'for example `{ "pending": ["paid"] }`). The service ships no table and infers none from the status names: ' +
  'without a file, every status change is refused with 409 `INVALID_TRANSITION`. Sending the status the order ' +
  'already has is not a change, so the other fields of the request are still applied. Moving to `paid`, `refunded` ' +
  'or `chargedback` without the matching date (and without one stored) sets that date to the time of the update.';

export const createOrderRoute = route({
  method: 'post',
  path: ORDERS_PATH,
  operationId: 'createOrder',
  summary: 'Create an order',
  description:
    'Records an order in the dashboard of the bearer token. `externalId` must be unused in that dashboard. An order created as ' +
    '`paid`, `refunded` or `chargedback` without the matching date gets `createdAt` for it. Every validation problem is ' +
    `reported at once. ${IDEMPOTENCY_NOTE}`,
  tag: 'orders',
  guards: ['token', 'rateLimit', 'idempotency'],
  scope: 'orders:write',
  body: CreateOrderBody,
  bodyValues: { values: valuesFor(MAX_ORDER_VALUES) },
  bodyExamples: {
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
  },
  responses: {
    201: {
      description: 'The order was created, or this is the stored answer to an earlier request with the same Idempotency-Key.',
      body: CreateOrderResponse,
      headers: ['Location'],
    },
  },
  problems: ['DuplicateExternalId'],
  handle: async ({ principal, body, reservedId }, { useCases }) =>
    pipe(
      await useCases.createOrder.execute(principal.dashboardId, body, reservedId),
      E.map((order) => ({
        status: 201 as const,
        headers: { Location: `${ORDERS_PATH}/${toPathSegment(order.externalId)}` },
        body: { order: createdOrder(order) },
      })),
    ),
});

export const listOrdersRoute = route({
  method: 'get',
  path: ORDERS_PATH,
  operationId: 'listOrders',
  summary: "List the dashboard's orders",
  description:
    "Orders of the bearer token's dashboard, newest first (`createdAt` descending, then `id` descending). A page past the end " +
    'has no orders and the real `total`. Out-of-range values are refused, never clamped; `from` later than `to` is refused; ' +
    'parameters not listed here are refused. An `Idempotency-Key` header is ignored.',
  tag: 'orders',
  guards: ['token', 'rateLimit'],
  scope: 'orders:read',
  query: ListOrdersQuery,
  responses: { 200: { description: 'One page of orders.', body: OrderList } },
  problems: [],
  handle: async ({ principal, query }, { useCases }) => {
    const { page, pageSize, status, from, to, after } = query;
    const details = [
      ...(from !== undefined && to !== undefined && from.getTime() > to.getTime()
        ? [{ path: 'query.from', message: 'must not be later than query.to' }]
        : []),
      ...(page !== undefined && after !== undefined ? [{ path: 'query.after', message: 'must not be combined with query.page' }] : []),
    ];
    const filters = { status, from, to };
    const position = after === undefined ? undefined : positionOf(after, filters);
    if (typeof position === 'string') details.push({ path: 'query.after', message: position });
    if (details.length > 0) return E.left({ _tag: 'ValidationFailed', details });
    if (after === undefined) {
      const result = await useCases.listOrders.execute(principal.dashboardId, { ...filters, page: page ?? 1, pageSize });
      const last = result.orders[result.orders.length - 1];
      const more = last !== undefined && (page ?? 1) * pageSize < result.total;
      return E.right({
        status: 200 as const,
        body: {
          orders: result.orders.map(orderListItem),
          page: page ?? 1,
          pageSize,
          total: result.total,
          nextCursor: more ? cursorOf(last, filters) : null,
        },
      });
    }
    const result = await useCases.listOrdersAfter.execute(principal.dashboardId, {
      ...filters,
      pageSize,
      ...(position === undefined ? {} : { after: position as OrderPosition }),
    });
    const last = result.orders[result.orders.length - 1];
    return E.right({
      status: 200 as const,
      body: {
        orders: result.orders.map(orderListItem),
        pageSize,
        nextCursor: result.more && last !== undefined ? cursorOf(last, filters) : null,
      },
    });
  },
});

interface ListingFilters {
  readonly status?: string;
  readonly from?: Date;
  readonly to?: Date;
}

/** The filters a cursor belongs to, as it carries them: a cursor is refused under other filters. */
const filtersKey = (filters: ListingFilters): string =>
  `${filters.status ?? ''}|${filters.from?.getTime() ?? ''}|${filters.to?.getTime() ?? ''}`;

/** The cursor after `last` (decision 0019): its sort key and the listing's filters. */
const cursorOf = (last: { createdAt: Date; id: string }, filters: ListingFilters): string =>
  encodeCursor([last.createdAt.getTime(), last.id, filtersKey(filters)]);

/** The position a cursor holds, or why it cannot be used here. */
const positionOf = (cursor: string, filters: ListingFilters): OrderPosition | string => {
  const values = decodeCursor(cursor);
  if (values?.length !== 3 || !Number.isSafeInteger(values[0]) || typeof values[1] !== 'string' || typeof values[2] !== 'string')
    return NOT_A_CURSOR;
  if (values[2] !== filtersKey(filters)) return 'belongs to a listing with other filters: send the same status, from and to';
  return { createdAt: new Date(values[0] as number), id: values[1] };
};

export const getOrderRoute = route({
  method: 'get',
  path: `${ORDERS_PATH}/{externalId}`,
  operationId: 'getOrder',
  summary: 'Read an order',
  description:
    'The whole order, with its products, every amount, the free-form objects and its version; the list item of the listing is ' +
    'a summary. An `Idempotency-Key` header is ignored.',
  tag: 'orders',
  guards: ['token', 'rateLimit'],
  scope: 'orders:read',
  params: OrderPath,
  responses: { 200: { description: 'The order.', body: OrderDetailResponse } },
  problems: ['OrderNotFound'],
  handle: async ({ principal, params }, { useCases }) =>
    pipe(
      await useCases.getOrder.execute(principal.dashboardId, params.externalId),
      reply(200, (order) => ({ order: orderDetail(order) })),
    ),
});

export const updateOrderRoute = route({
  method: 'patch',
  path: `${ORDERS_PATH}/{externalId}`,
  operationId: 'updateOrder',
  summary: 'Update an order',
  description: `Changes the given fields; concurrent updates of one order never lose a write. ${TRANSITION_NOTE} ${IDEMPOTENCY_NOTE}`,
  tag: 'orders',
  guards: ['token', 'rateLimit', 'idempotency'],
  scope: 'orders:write',
  params: OrderPath,
  body: UpdateOrderBody,
  // A PATCH carries at most an order's free-form metadata: the count of an order holds it.
  bodyValues: { values: valuesFor(MAX_ORDER_VALUES) },
  bodyExamples: {
    paid: { status: 'paid', paidAt: '2026-01-02T04:00:00Z' },
    metadata: { metadata: { note: 'checked by support' } },
  },
  responses: {
    200: {
      description: 'The order after the update, or the stored answer to an earlier request with the same Idempotency-Key.',
      body: OrderResponse,
    },
  },
  problems: ['OrderNotFound', 'InvalidTransition'],
  handle: async ({ principal, params, body }, { useCases }) =>
    pipe(
      await useCases.updateOrder.execute(principal.dashboardId, params.externalId, body),
      reply(200, (order) => ({ order: orderListItem(order) })),
    ),
});

export const orderRoutes = [createOrderRoute, createOrdersBatchRoute, listOrdersRoute, getOrderRoute, updateOrderRoute];
