import type { Context } from 'koa';
import { detailOf, ERROR_TABLE } from './error-table';
import type { HttpError } from './http-errors';

/** Seconds a client should wait before retrying when storage is unavailable. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Writes an RFC 9457 problem body for `error`, with the headers its status calls for (DECISIONS D1, D2). */
export const renderProblem = (ctx: Context, error: HttpError): void => {
  const row = ERROR_TABLE[error._tag];
  ctx.status = row.status;
  ctx.body = {
    type: 'about:blank',
    title: row.title,
    status: row.status,
    detail: detailOf(error),
    code: row.code,
    requestId: ctx.state.requestId,
    ...(error._tag === 'ValidationFailed' ? { details: error.details } : {}),
  };
  ctx.type = 'application/problem+json';
  switch (error._tag) {
    case 'Unauthorized':
      ctx.set('WWW-Authenticate', 'Bearer');
      break;
    case 'TokenRevoked':
      ctx.set('WWW-Authenticate', 'Bearer error="invalid_token", error_description="The token was revoked"');
      break;
    case 'MethodNotAllowed':
      ctx.set('Allow', error.allowed.join(', '));
      break;
    case 'ServiceUnavailable':
      ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      break;
    case 'IdempotencyKeyInProgress':
    case 'RateLimitExceeded':
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      break;
    default:
      break;
  }
};
