import type { Middleware } from 'koa';
import type { RequestState } from '../request-state';
import type { IdGenerator } from '../../../../application/ports/id-generator';
import type { Logger } from '../../../../application/ports/logger';

/** An incoming X-Request-Id of this shape is reused; also the pattern of the header in the OpenAPI document. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Reuses a well-formed incoming X-Request-Id, or makes one; every response carries it (decision 0002).
 * The rest of the request runs in the logger's context, so that every line it writes carries the id:
 * the lines of a storage adapter too, which got its logger at start-up and knows nothing of requests.
 */
export const requestId =
  (ids: IdGenerator, logger: Logger): Middleware<RequestState> =>
  async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = REQUEST_ID.test(incoming) ? incoming : ids.next('req');
    ctx.set('X-Request-Id', ctx.state.requestId);
    await logger.withContext({ requestId: ctx.state.requestId }, next);
  };
