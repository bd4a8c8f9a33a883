import type { Context } from 'koa';
import { detailOf, ERROR_TABLE, MAX_DETAILS } from './error-table';
import type { HttpError } from './http-errors';

/** Seconds a client should wait before retrying when storage is unavailable. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** A path in `details` is cut there: one huge unknown key must not make a huge answer. */
const MAX_PATH_LENGTH = 1_024;

/** The members of a problem body (DECISIONS D2). */
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
  return body;
};

/** Writes an RFC 9457 problem body for `error`, with the headers its status calls for (DECISIONS D1, D2). */
export const renderProblem = (ctx: Context, error: HttpError): void => {
  ctx.status = ERROR_TABLE[error._tag].status;
  ctx.body = problemBody(error, ctx.state.requestId);
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
