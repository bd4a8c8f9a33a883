import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { arrayOf, describeErrors, int, strictObject } from '../kit/codec-kit';
import { described, Documented } from '../kit/json-schema';
import { problemBody, PROBLEM_REF } from '../kit/problem';
import { route } from '../kit/route';
import { valuesFor } from '../kit/well-formed';
import type { HttpError } from '../kit/http-errors';
import { EventLoopSlices } from '../../../application/shared/event-loop-slices';
import { CreateOrderBody, MAX_ORDER_VALUES } from './order-codecs';
import { createdOrder } from './order-presenters';
import { CreatedOrder } from './order-views';

/** DECISIONS D19: at most this many orders in one batch. */
export const MAX_BATCH_ORDERS = 500;

const BATCH_SIZE = `must be an array of 1 to ${MAX_BATCH_ORDERS} orders`;

/**
 * The batch's orders, each decoded on its own in the handler (an invalid one is its own 400, not the
 * batch's): here only the array is checked. The document describes each item as a creation request.
 */
const batchOrders = new Documented<unknown[], unknown>(
  'BatchOrders',
  (u): u is unknown[] => Array.isArray(u),
  (u, c) => (Array.isArray(u) && u.length >= 1 && u.length <= MAX_BATCH_ORDERS ? t.success(u) : t.failure(u, c, BATCH_SIZE)),
  t.identity,
  (w) => ({
    type: 'array',
    items: w.schemaOf(CreateOrderBody),
    minItems: 1,
    maxItems: MAX_BATCH_ORDERS,
    description: 'Each order as POST /api/v1/orders takes it, checked and created on its own.',
  }),
);

export const BatchBody = strictObject('CreateOrdersBatchRequest', { orders: batchOrders });

const RESULT_STATUSES = [201, 400, 409] as const;
const resultStatus = new Documented<(typeof RESULT_STATUSES)[number], number>(
  'BatchResultStatus',
  (u): u is (typeof RESULT_STATUSES)[number] => (RESULT_STATUSES as readonly unknown[]).includes(u),
  (u, c) =>
    (RESULT_STATUSES as readonly unknown[]).includes(u)
      ? t.success(u as (typeof RESULT_STATUSES)[number])
      : t.failure(u, c, 'must be 201, 400 or 409'),
  t.identity,
  () => ({ type: 'integer', enum: [...RESULT_STATUSES] }),
);

const BatchResult = strictObject(
  'BatchResult',
  {
    index: described(int(0, MAX_BATCH_ORDERS - 1), 'The position of the order in the request, from 0.'),
    status: described(resultStatus, '201 created; 400 invalid (`problem.details` under `orders.<index>`); 409 duplicate externalId.'),
  },
  {
    order: CreatedOrder,
    problem: described(PROBLEM_REF, 'The problem POST /api/v1/orders would answer for this order.'),
  },
);

export const BatchResponse = strictObject('CreateOrdersBatchResponse', {
  results: described(arrayOf(BatchResult, 1, MAX_BATCH_ORDERS), 'One per order, in the order of the request.'),
  created: int(0, MAX_BATCH_ORDERS),
  failed: int(0, MAX_BATCH_ORDERS),
});

type BatchItem =
  | { readonly index: number; readonly status: 201; readonly order: ReturnType<typeof createdOrder> }
  | { readonly index: number; readonly status: 400 | 409; readonly problem: Record<string, unknown> };

export const createOrdersBatchRoute = route({
  method: 'post',
  path: '/api/v1/orders/batch',
  operationId: 'createOrdersBatch',
  summary: 'Create up to 500 orders in one request',
  description:
    'Each order is checked and created on its own, exactly as POST /api/v1/orders would (the same validation, the same events, ' +
    'the same webhooks): the answer is 200 with one result per order, `created` and `failed`. An externalId given twice in one ' +
    'batch is created once (the first) and 409 for the others. Each order counts once against the rate limit; a batch larger ' +
    'than what is left of the window is refused whole with 429. The body may be up to BATCH_BODY_LIMIT_BYTES (4 MiB by ' +
    'default). An `Idempotency-Key` applies to the batch as a whole.',
  tag: 'orders',
  guards: ['token', 'rateLimit', 'idempotency'],
  scope: 'orders:write',
  largeBody: true,
  body: BatchBody,
  // Each order as much as POST /api/v1/orders takes, counted and parsed on its own; the rest as much as one order.
  bodyValues: {
    values: valuesFor(MAX_ORDER_VALUES),
    items: { member: 'orders', most: MAX_BATCH_ORDERS, tooMany: BATCH_SIZE, values: valuesFor(MAX_ORDER_VALUES) },
  },
  responses: { 200: { description: 'One result per order.', body: BatchResponse } },
  problems: ['RateLimitExceeded'],
  handle: async ({ principal, body, requestId }, { useCases }) => {
    /** A problem as an item of the batch: the body a single request would get. */
    const itemProblem = (error: HttpError): Record<string, unknown> => problemBody(error, requestId);
    const count = body.orders.length;
    if (count > 1) {
      // The guard counted the request as one order; the others count now, and are given back when refused.
      const decision = await useCases.checkRateLimit.execute(principal.tokenId, false, count - 1);
      if (!decision.allowed) {
        await useCases.checkRateLimit.giveBack(principal.tokenId, decision, count - 1);
        return E.left({
          _tag: 'RateLimitExceeded',
          retryAfterSeconds: decision.resetSeconds,
          limit: decision.limit,
          windowSeconds: decision.windowSeconds,
        });
      }
    }
    // Decoded and started one after the other, in stretches of the event loop: 500 orders at their
    // limits take longer than one stretch (DECISIONS D23). Created side by side, as SQLite commits them in groups.
    const slices = new EventLoopSlices();
    const seen = new Set<string>();
    const pending: Promise<BatchItem>[] = [];
    for (const [index, raw] of body.orders.entries()) {
      const decoded = CreateOrderBody.decode(raw);
      if (E.isLeft(decoded)) {
        const problem = itemProblem({ _tag: 'ValidationFailed', details: describeErrors(decoded.left, `orders.${index}`) });
        pending.push(Promise.resolve({ index, status: 400 as const, problem }));
      } else if (seen.has(decoded.right.externalId)) {
        const externalId = decoded.right.externalId;
        pending.push(Promise.resolve({ index, status: 409 as const, problem: itemProblem({ _tag: 'DuplicateExternalId', externalId }) }));
      } else {
        seen.add(decoded.right.externalId);
        pending.push(
          useCases.createOrder
            .execute(principal.dashboardId, decoded.right)
            .then((made) =>
              E.isRight(made)
                ? { index, status: 201 as const, order: createdOrder(made.right) }
                : { index, status: 409 as const, problem: itemProblem(made.left) },
            ),
        );
      }
      await slices.pause();
    }
    const results = await Promise.all(pending);
    const created = results.filter((r) => r.status === 201).length;
    return E.right({ status: 200 as const, body: { results, created, failed: count - created } });
  },
});
