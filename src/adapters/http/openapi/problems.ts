import { ERROR_TABLE } from '../error-table';
import type { HttpError } from '../http-errors';
import { COUNTED, MAYBE_COUNTED, REPLAYABLE } from './order-guards';
import { headerRef, schemaRef } from './refs';
import type { HeaderObject, JsonSchema, ParameterObject, Reference, ResponseObject } from './types';

/**
 * The RFC 9457 problem body (problem.ts, DECISIONS D2), the headers that go with it, and one response
 * per group of errors. Statuses, codes and titles come from `ERROR_TABLE`, so they cannot drift.
 */

const REQUEST_ID_PATTERN = '^[A-Za-z0-9._-]{1,128}$';

const unique = <A>(values: readonly A[]): A[] => [...new Set(values)];

export const headers: Record<string, HeaderObject> = {
  RequestId: {
    description: 'On every response: the incoming `X-Request-Id` when it was 1-128 characters of `[A-Za-z0-9._-]`, else one made by the service.',
    required: true,
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
  },
  Location: {
    description: 'Path of the created order: `/api/v1/orders/{externalId}`, with `externalId` percent-encoded.',
    required: true,
    schema: { type: 'string', examples: ['/api/v1/orders/order-1'] },
  },
  WwwAuthenticate: {
    description: '`Bearer` for a missing, malformed or unknown token; `Bearer error="invalid_token", error_description="The token was revoked"` for a revoked one.',
    required: true,
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods the path supports.', required: true, schema: { type: 'string', examples: ['HEAD, GET, POST'] } },
  RetryAfter: { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 0 } },
  CacheControl: { description: 'The response holds a secret and must not be stored.', required: true, schema: { const: 'no-store' } },
};

export const requestIdParameter: ParameterObject = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description: 'Reused as the request id when it is 1-128 characters of `[A-Za-z0-9._-]`; any other value is replaced, not refused.',
  schema: { type: 'string' },
};

type Tag = HttpError['_tag'];

interface ProblemResponse {
  readonly status: number;
  readonly tags: readonly Tag[];
  readonly response: ResponseObject;
}

const problem = (
  description: string,
  tags: readonly [Tag, ...Tag[]],
  extraHeaders: Record<string, HeaderObject | Reference> = {},
): ProblemResponse => {
  const rows = tags.map((tag) => ERROR_TABLE[tag]);
  const status = rows[0].status;
  if (rows.some((row) => row.status !== status)) throw new Error(`one problem response mixes statuses: ${tags.join(', ')}`);
  return {
    status,
    tags,
    response: {
      description,
      headers: { 'X-Request-Id': headerRef('RequestId'), ...extraHeaders },
      content: {
        'application/problem+json': {
          schema: {
            allOf: [
              schemaRef('Problem'),
              {
                type: 'object',
                properties: {
                  status: { const: status },
                  code: { enum: unique(rows.map((row) => row.code)) },
                  title: { enum: unique(rows.map((row) => row.title)) },
                },
              },
            ],
          },
        },
      },
    },
  };
};

/** Only with IDEMPOTENCY_KEY_IN_PROGRESS, in a response that also answers another 409. */
const inProgressRetryAfter: HeaderObject = {
  description: 'Only with `IDEMPOTENCY_KEY_IN_PROGRESS`: the seconds left on the claim of the request that holds the key (at least 1).',
  required: false,
  schema: { type: 'integer', minimum: 1 },
};

const notStored = 'Not stored under an Idempotency-Key.';
const inProgress =
  '`IDEMPOTENCY_KEY_IN_PROGRESS`: a request with the same Idempotency-Key is still being executed; retry after `Retry-After` seconds (not stored).';

const PROBLEMS = {
  InvalidPath: problem('A path parameter is invalid (`VALIDATION_FAILED`, with `details`).', ['ValidationFailed']),
  InvalidBody: problem(
    'The body is empty or not JSON (`MALFORMED_JSON`), or the body or a path parameter is invalid (`VALIDATION_FAILED`, with `details`).',
    ['MalformedJson', 'ValidationFailed'],
  ),
  AdminUnauthorized: problem('The bearer token is not the admin token (`UNAUTHORIZED`).', ['Unauthorized'], {
    'WWW-Authenticate': headerRef('WwwAuthenticate'),
  }),
  AdminDisabled: problem('The admin API is disabled: ADMIN_TOKEN is not set.', ['RouteNotFound']),
  DashboardNotFound: problem('No dashboard with this id, or the admin API is disabled (ADMIN_TOKEN is not set).', ['DashboardNotFound', 'RouteNotFound']),
  TokenNotFound: problem('No token with this id, or the admin API is disabled (ADMIN_TOKEN is not set).', ['TokenNotFound', 'RouteNotFound']),
  RouteNotFound: problem('No such route.', ['RouteNotFound']),
  MethodNotAllowed: problem('The path exists, but not with this method.', ['MethodNotAllowed'], { Allow: headerRef('Allow') }),
  PayloadTooLarge: problem('The body is larger than the configured limit (BODY_LIMIT_BYTES, 256 KiB by default).', ['PayloadTooLarge']),
  UnsupportedMediaType: problem('The body was sent with a `Content-Type` that is not JSON.', ['UnsupportedMediaType']),
  InternalError: problem('An unexpected failure; the body holds no internals, the request id finds it in the logs.', ['InternalError']),
  ServiceUnavailable: problem('Storage is unreachable; retry later.', ['ServiceUnavailable'], { 'Retry-After': headerRef('RetryAfter') }),

  // The /api/v1/orders operations: after authentication their answers carry the rate-limit headers,
  // and those an Idempotency-Key stores the replay header, so they do not share the admin API's.
  Unauthorized: problem(
    'The bearer token is missing, malformed or unknown (`UNAUTHORIZED`), or revoked (`TOKEN_REVOKED`). Counted against no token: no rate-limit headers.',
    ['Unauthorized', 'TokenRevoked'],
    { 'WWW-Authenticate': headerRef('WwwAuthenticate') },
  ),
  RateLimitExceeded: problem(
    'The token has used up its quota for the current window (`RATE_LIMIT_EXCEEDED`); `Retry-After` is the seconds until the window resets. Nothing was executed.',
    ['RateLimitExceeded'],
    { ...COUNTED, 'Retry-After': headerRef('RetryAfter') },
  ),
  InvalidQuery: problem('A query parameter is invalid (`VALIDATION_FAILED`, with `details`).', ['ValidationFailed'], COUNTED),
  OrderInvalidPath: problem('A path parameter is invalid (`VALIDATION_FAILED`, with `details`).', ['ValidationFailed'], COUNTED),
  OrderInvalidBody: problem(
    'The body is empty or not JSON (`MALFORMED_JSON`); or the `Idempotency-Key` header (path `header.Idempotency-Key`), a path ' +
      `parameter or the body is invalid (\`VALIDATION_FAILED\`, with \`details\`). ${notStored}`,
    ['MalformedJson', 'ValidationFailed'],
    COUNTED,
  ),
  OrderNotFound: problem("No order with this externalId in the caller's dashboard (an order of another dashboard is not found either).", ['OrderNotFound'], COUNTED),
  UpdateOrderNotFound: problem(
    "No order with this externalId in the caller's dashboard (an order of another dashboard is not found either). Stored under an Idempotency-Key, and replayed.",
    ['OrderNotFound'],
    { ...COUNTED, ...REPLAYABLE },
  ),
  CreateOrderConflict: problem(
    `\`DUPLICATE_EXTERNAL_ID\`: an order with this externalId already exists in the dashboard (stored under an Idempotency-Key, and replayed). ${inProgress}`,
    ['DuplicateExternalId', 'IdempotencyKeyInProgress'],
    { ...COUNTED, ...REPLAYABLE, 'Retry-After': inProgressRetryAfter },
  ),
  UpdateOrderConflict: problem(
    `\`INVALID_TRANSITION\`: the operator's transition table does not allow this status change (stored under an Idempotency-Key, and replayed). ${inProgress}`,
    ['InvalidTransition', 'IdempotencyKeyInProgress'],
    { ...COUNTED, ...REPLAYABLE, 'Retry-After': inProgressRetryAfter },
  ),
  IdempotencyKeyReused: problem(
    `This Idempotency-Key was first used in the dashboard for another request: another method, path or body (\`IDEMPOTENCY_KEY_REUSED\`). ${notStored}`,
    ['IdempotencyKeyReused'],
    COUNTED,
  ),
  OrderPayloadTooLarge: problem(
    `The body is larger than the configured limit (BODY_LIMIT_BYTES, 256 KiB by default). ${notStored}`,
    ['PayloadTooLarge'],
    COUNTED,
  ),
  OrderUnsupportedMediaType: problem(`The body was sent with a \`Content-Type\` that is not JSON. ${notStored}`, ['UnsupportedMediaType'], COUNTED),
  OrderInternalError: problem(
    'An unexpected failure; the body holds no internals, the request id finds it in the logs. Not stored under an Idempotency-Key: the same request may retry at once and finish the work.',
    ['InternalError'],
    MAYBE_COUNTED,
  ),
  OrderServiceUnavailable: problem(
    'Storage is unreachable; retry later. Not stored under an Idempotency-Key: the same request may retry and finish the work.',
    ['ServiceUnavailable'],
    { ...MAYBE_COUNTED, 'Retry-After': headerRef('RetryAfter') },
  ),
} satisfies Record<string, ProblemResponse>;

export type ProblemName = keyof typeof PROBLEMS;

export const problemResponses: Record<string, ResponseObject> = Object.fromEntries(
  Object.entries(PROBLEMS).map(([name, { response }]) => [name, response]),
);

const DOCUMENTED_ROWS = unique(Object.values(PROBLEMS).flatMap((entry) => entry.tags)).map((tag) => ERROR_TABLE[tag]);

/**
 * The problem body. Its `code`, `status` and `title` list what the documented responses can answer,
 * not the whole error table: an error is described once a route that answers it is.
 */
export const problemSchemas: Record<string, JsonSchema> = {
  ValidationDetail: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        description: 'Dotted path of the problem: `products.0.quantity` in a body, `query.pageSize`, `path.externalId`; `(body)` for the body as a whole.',
      },
      message: { type: 'string' },
    },
    required: ['path', 'message'],
    additionalProperties: false,
  },
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details with the members of the specification. `details` is present for, and only for, `VALIDATION_FAILED`.',
    properties: {
      type: { const: 'about:blank' },
      title: { type: 'string', enum: unique(DOCUMENTED_ROWS.map((row) => row.title)) },
      status: { type: 'integer', enum: unique(DOCUMENTED_ROWS.map((row) => row.status)) },
      detail: { type: 'string', description: 'A sentence for humans; never internals or the request body.' },
      code: { type: 'string', enum: unique(DOCUMENTED_ROWS.map((row) => row.code)) },
      requestId: {
        type: 'string',
        pattern: REQUEST_ID_PATTERN,
        description:
          'The same value as the `X-Request-Id` header, except in a replay (`Idempotent-Replayed: true`): its body is the stored one, with the id of the first request.',
      },
      details: { type: 'array', items: schemaRef('ValidationDetail'), minItems: 1, description: 'One entry per problem, all problems at once.' },
    },
    required: ['type', 'title', 'status', 'detail', 'code', 'requestId'],
    additionalProperties: false,
    if: { properties: { code: { const: 'VALIDATION_FAILED' } }, required: ['code'] },
    then: { required: ['details'] },
    else: { not: { required: ['details'] } },
  },
};

/** The `responses` entries for these problems, keyed by their status; one response per status. */
export const problems = (...names: ProblemName[]): Record<string, Reference> => {
  const out: Record<string, Reference> = {};
  for (const name of names) {
    const status = String(PROBLEMS[name].status);
    if (out[status] !== undefined) throw new Error(`two problem responses for status ${status}: pick one that covers both`);
    out[status] = { $ref: `#/components/responses/${name}` };
  }
  return out;
};
