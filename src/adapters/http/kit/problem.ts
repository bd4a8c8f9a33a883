import type { ParameterizedContext } from 'koa';
import { SCOPES } from '../../../domain/scope';
import type { RequestState } from './request-state';
import * as t from 'io-ts';
import { Documented, type JsonSchema } from './json-schema';
import { detailOf, ERROR_TABLE, MAX_DETAILS } from './error-table';
import type { HttpError } from './http-errors';
import { REQUEST_ID } from './middleware/request-id';
import { STORAGE_RETRY_AFTER_SECONDS } from '../../../application/ports/storage-health';

/** A path in `details` is cut there: one huge unknown key must not make a huge answer. */
const MAX_PATH_LENGTH = 1_024;

/** The members of a problem body (decision 0002). */
export const problemBody = (error: HttpError, requestId: string): Record<string, unknown> => {
  const row = ERROR_TABLE[error._tag];
  const body: Record<string, unknown> = {
    type: 'about:blank',
    title: row.title,
    status: row.status,
    detail: detailOf(error),
    code: row.code,
    requestId,
  };
  if (error._tag === 'ValidationFailed') {
    body['details'] = error.details.slice(0, MAX_DETAILS).map(({ path, message }) => ({
      path: path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}…` : path,
      message,
    }));
    if (error.details.length > MAX_DETAILS) body['totalDetails'] = error.details.length;
  }
  if (error._tag === 'NotReady') body['components'] = error.components;
  if (error._tag === 'InsufficientScope') body['scope'] = error.needed;
  return body;
};

/** Writes an RFC 9457 problem body for `error`, with the headers its status calls for (decisions 0001, 0002). */
export const renderProblem = (ctx: ParameterizedContext<RequestState>, error: HttpError): void => {
  ctx.status = ERROR_TABLE[error._tag].status;
  ctx.body = problemBody(error, ctx.state.requestId);
  ctx.type = 'application/problem+json';
  switch (error._tag) {
    case 'Unauthorized':
    case 'BearerMissing':
      ctx.set('WWW-Authenticate', 'Bearer');
      break;
    case 'TokenRevoked':
      ctx.set('WWW-Authenticate', 'Bearer error="invalid_token", error_description="The token was revoked"');
      break;
    case 'TokenExpired':
      ctx.set('WWW-Authenticate', 'Bearer error="invalid_token", error_description="The token has expired"');
      break;
    case 'InsufficientScope':
      ctx.set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${error.needed}"`);
      break;
    case 'MethodNotAllowed':
      ctx.set('Allow', error.allowed.join(', '));
      break;
    case 'ServiceUnavailable':
    case 'NotReady':
      ctx.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
      break;
    case 'IdempotencyKeyInProgress':
    case 'RateLimitExceeded':
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      break;
    case 'TooManyHeavyRequests':
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      // Node would otherwise read the unread body to its end to keep the connection: the very work refused.
      ctx.set('Connection', 'close');
      break;
    default:
      break;
  }
};

const rows = Object.values(ERROR_TABLE);
const unique = <A>(values: readonly A[]): A[] => [...new Set(values)];

/** The problem body as JSON Schema, written beside the code that makes it. */
export const PROBLEM_SCHEMAS: Record<'ValidationDetail' | 'Problem', JsonSchema> = {
  ValidationDetail: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        maxLength: MAX_PATH_LENGTH + 1,
        description:
          'Dotted path of the problem: `products.0.quantity` in a body, `query.pageSize`, `path.externalId`; `(body)` for the body as a whole.',
      },
      message: { type: 'string' },
    },
    required: ['path', 'message'],
    additionalProperties: false,
  },
  Problem: {
    type: 'object',
    description:
      'RFC 9457 problem details with the members of the specification. `details` is present for, and only for, `VALIDATION_FAILED`.',
    properties: {
      type: { type: 'string', const: 'about:blank' },
      title: { type: 'string', enum: unique(rows.map((row) => row.title)) },
      status: { type: 'integer', enum: unique(rows.map((row) => row.status)) },
      detail: { type: 'string', description: 'A sentence for humans; never internals or the request body.' },
      code: { type: 'string', enum: unique(rows.map((row) => row.code)) },
      requestId: {
        type: 'string',
        pattern: REQUEST_ID.source,
        description:
          'The same value as the `X-Request-Id` header, except in a replay (`Idempotent-Replayed: true`): its body is the stored one, with the id of the first request.',
      },
      details: {
        type: 'array',
        items: { $ref: '#/components/schemas/ValidationDetail' },
        minItems: 1,
        maxItems: MAX_DETAILS,
        description: `One entry per problem, all problems at once; the first ${MAX_DETAILS} when there are more.`,
      },
      totalDetails: {
        type: 'integer',
        minimum: MAX_DETAILS + 1,
        description: `How many problems there were, when more than ${MAX_DETAILS}.`,
      },
      components: { $ref: '#/components/schemas/ReadinessComponents', description: 'Only on GET /readyz: the state of each component.' },
      scope: { type: 'string', enum: [...SCOPES], description: 'Only on 403 INSUFFICIENT_SCOPE: the scope the operation needs.' },
    },
    required: ['type', 'title', 'status', 'detail', 'code', 'requestId'],
    additionalProperties: false,
    dependentRequired: { totalDetails: ['details'] },
    if: { type: 'object', properties: { code: { type: 'string', const: 'VALIDATION_FAILED' } }, required: ['code'] },
    then: { required: ['details'] },
    else: { not: { type: 'object', required: ['details'] } },
  },
};

/** A problem body inside another answer (a batch's results): the `Problem` component of the document. */
export const PROBLEM_REF = new Documented<Record<string, unknown>, Record<string, unknown>>(
  'ProblemRef',
  (u): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u),
  (u, c) =>
    typeof u === 'object' && u !== null && !Array.isArray(u)
      ? t.success(u as Record<string, unknown>)
      : t.failure(u, c, 'must be a problem'),
  t.identity,
  () => ({ $ref: '#/components/schemas/Problem' }),
);
