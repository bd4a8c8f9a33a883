import type { Context, Middleware } from 'koa';
import { abandonedWhenClosed, isHeavy, type HeavyRequestTurns } from '../../../system/heavy-request-turns';
import { ProblemError } from '../http-errors';
import type { RequestState } from '../request-state';

/**
 * A turn of the request's dashboard (`laneOf`) for a request with a heavy body (decision 0023), taken
 * before the body is read and held until the answer: one more than the dashboard's turns and queue is
 * 429 TOO_MANY_HEAVY_REQUESTS with `Retry-After` and the connection closed, its body never read. A
 * light body passes untouched.
 */
export const heavyTurn =
  (turns: HeavyRequestTurns, laneOf: (ctx: Context) => Promise<string>): Middleware<RequestState> =>
  async (ctx, next) => {
    const headers = { contentLength: ctx.get('Content-Length'), transferEncoding: ctx.get('Transfer-Encoding') };
    if (!isHeavy(headers, turns.bounds.heavyBodyBytes)) {
      await next();
      return;
    }
    const release = await turns.take(await laneOf(ctx), abandonedWhenClosed(ctx.res));
    if (typeof release !== 'function') throw new ProblemError({ _tag: 'TooManyHeavyRequests', ...release });
    try {
      await next();
    } finally {
      release();
    }
  };
