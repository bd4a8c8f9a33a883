import type { Middleware } from 'koa';
import { abandonedWhenClosed, isHeavy, type HeavyRequestTurns } from '../../../system/heavy-request-turns';
import { ProblemError } from '../http-errors';
import { principalOf, type RequestState } from '../request-state';

/**
 * A turn of the token's dashboard for a request with a heavy body (DECISIONS D23), taken after
 * authentication and before the body is read, and held until the answer: one more than the
 * dashboard's turns and queue is 429 TOO_MANY_HEAVY_REQUESTS with `Retry-After`, its body unread.
 * A light body passes untouched.
 */
export const heavyTurn =
  (turns: HeavyRequestTurns): Middleware<RequestState> =>
  async (ctx, next) => {
    const headers = { contentLength: ctx.get('Content-Length'), transferEncoding: ctx.get('Transfer-Encoding') };
    if (!isHeavy(headers, turns.bounds.heavyBodyBytes)) {
      await next();
      return;
    }
    const release = await turns.take(principalOf(ctx.state).dashboardId, abandonedWhenClosed(ctx.res));
    if (typeof release !== 'function') throw new ProblemError({ _tag: 'TooManyHeavyRequests', ...release });
    try {
      await next();
    } finally {
      release();
    }
  };
