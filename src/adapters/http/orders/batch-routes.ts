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

/** decision 0019: at most this many orders in one batch. */
export const MAX_BATCH_ORDERS = 500;

/** The order lines a batch writes at most between two turns of the event loop. */
const STRETCH_LINES = 200;

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

const RESULT_STATUSES = [200, 201, 400, 409] as const;
const resultStatus = new Documented<(typeof RESULT_STATUSES)[number], number>(
  'BatchResultStatus',
  (u): u is (typeof RESULT_STATUSES)[number] => (RESULT_STATUSES as readonly unknown[]).includes(u),
  (u, c) =>
    (RESULT_STATUSES as readonly unknown[]).includes(u)
      ? t.success(u as (typeof RESULT_STATUSES)[number])
      : t.failure(u, c, 'must be 200, 201, 400 or 409'),
  t.identity,
  () => ({ type: 'integer', enum: [...RESULT_STATUSES] }),
);

const BatchResult = strictObject(
  'BatchResult',
  {
    index: described(int(0, MAX_BATCH_ORDERS - 1), 'The position of the order in the request, from 0.'),
    status: described(
      resultStatus,
      '201 created; 200 already recorded (the order stored under this externalId is the one this payload makes: nothing is ' +
        'created, no event is emitted); 400 invalid (`problem.details` under `orders.<index>`); 409 duplicate externalId (another ' +
        'order under it, or an earlier order of the same batch).',
    ),
  },
  {
    order: CreatedOrder,
    problem: described(PROBLEM_REF, 'The problem POST /api/v1/orders would answer for this order.'),
  },
);

export const BatchResponse = strictObject('CreateOrdersBatchResponse', {
  results: described(arrayOf(BatchResult, 1, MAX_BATCH_ORDERS), 'One per order, in the order of the request.'),
  created: described(int(0, MAX_BATCH_ORDERS), 'Results with status 201.'),
  alreadyRecorded: described(int(0, MAX_BATCH_ORDERS), 'Results with status 200.'),
  failed: described(int(0, MAX_BATCH_ORDERS), 'Results with status 400 or 409.'),
});

type BatchItem =
  | { readonly index: number; readonly status: 200 | 201; readonly order: ReturnType<typeof createdOrder> }
  | { readonly index: number; readonly status: 400 | 409; readonly problem: Record<string, unknown> };

/** How a create of the batch ended: its result, or the failure of the store that stopped it. */
type Outcome = { readonly ok: true; readonly item: BatchItem } | { readonly ok: false; readonly error: unknown };

export const createOrdersBatchRoute = route({
  method: 'post',
  path: '/api/v1/orders/batch',
  operationId: 'createOrdersBatch',
  summary: 'Create up to 500 orders in one request',
  description:
    'Each order is checked and created on its own, exactly as POST /api/v1/orders would (the same validation, the same events, ' +
    'the same webhooks): the answer is 200 with one result per order, `created`, `alreadyRecorded` and `failed`. An order whose ' +
    'externalId holds the very order its payload makes (a batch sent again after a 503 that stored part of it) is 200, already ' +
    'recorded; another order under the externalId is 409. An externalId given twice in one batch is created once (the first) and ' +
    '409 for the others. A store failure answers the whole batch 503; sending it again completes it. ' +
    'Each order counts once against the rate limit; a batch larger ' +
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
    // Decoded and started in stretches of the event loop, each stretch's creates awaited before the
    // next begins: the batch never has more than a stretch of writes queued ahead of another request's.
    // Each create's failure is caught as the create starts, so that none is left without a handler
    // while the batch waits; the first store failure stops the batch once its stretch has settled.
    const slices = new EventLoopSlices();
    let stretchLines = 0;
    const seen = new Set<string>();
    const results: BatchItem[] = [];
    let stretch: Promise<Outcome>[] = [];
    const settleStretch = async (): Promise<void> => {
      const outcomes = await Promise.all(stretch);
      stretch = [];
      for (const outcome of outcomes) {
        if (!outcome.ok) throw outcome.error;
        results[outcome.item.index] = outcome.item;
      }
    };
    for (const [index, raw] of body.orders.entries()) {
      const decoded = CreateOrderBody.decode(raw);
      if (E.isLeft(decoded)) {
        results[index] = {
          index,
          status: 400,
          problem: itemProblem({ _tag: 'ValidationFailed', details: describeErrors(decoded.left, `orders.${index}`) }),
        };
      } else if (seen.has(decoded.right.externalId)) {
        results[index] = {
          index,
          status: 409,
          problem: itemProblem({ _tag: 'DuplicateExternalId', externalId: decoded.right.externalId }),
        };
      } else {
        seen.add(decoded.right.externalId);
        stretchLines += decoded.right.products.length;
        stretch.push(
          useCases.createOrder.record(principal.dashboardId, decoded.right).then(
            (made): Outcome => ({
              ok: true,
              item: E.isRight(made)
                ? { index, status: made.right.created ? 201 : 200, order: createdOrder(made.right.order) }
                : { index, status: 409, problem: itemProblem(made.left) },
            }),
            (error: unknown): Outcome => ({ ok: false, error }),
          ),
        );
      }
      // A stretch's writes are carried into the report totals line by line in one commit: bounded by
      // lines as well as by time, no commit of the batch holds the event loop for long.
      if (slices.due || stretchLines >= STRETCH_LINES) {
        await settleStretch();
        stretchLines = 0;
        await slices.pause();
      }
    }
    await settleStretch();
    const counted = (...statuses: number[]): number => results.filter((r) => statuses.includes(r.status)).length;
    return E.right({
      status: 200 as const,
      body: { results, created: counted(201), alreadyRecorded: counted(200), failed: counted(400, 409) },
    });
  },
});
