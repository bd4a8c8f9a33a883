import type { Context, Middleware } from 'koa';
import type { DashboardShares } from '../../../system/dashboard-shares';
import { abandonedWhenClosed } from '../../../system/heavy-request-turns';
import type { RequestState } from '../request-state';

/**
 * The share of the requests in progress (DashboardShares) of the request's dashboard (`laneOf`: the
 * token's, a source's), taken as soon as the dashboard is known and before anything else of the
 * request is done, held until the answer.
 */
export const dashboardShare =
  (shares: DashboardShares, laneOf: (ctx: Context) => Promise<string>): Middleware<RequestState> =>
  async (ctx, next) => {
    const release = await shares.take(await laneOf(ctx), abandonedWhenClosed(ctx.res));
    try {
      await next();
    } finally {
      release();
    }
  };
