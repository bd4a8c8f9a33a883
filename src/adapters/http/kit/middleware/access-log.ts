import type { Middleware } from 'koa';
import type { RequestState } from '../request-state';
import type { Logger } from '../../../../application/ports/logger';
import type { Metrics } from '../../../../application/ports/metrics';

/**
 * One JSON line per request (decision 0011), and its observation in the metrics: the route pattern
 * rather than the raw URL, so that neither query strings nor identifiers of other systems end up in
 * the logs or in a label; never a header or a body.
 */
export const accessLog =
  (logger: Logger, metrics: Metrics): Middleware<RequestState> =>
  async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const matched: unknown = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : '(unmatched)';
      const durationMs = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      logger.info('request', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        route,
        status: ctx.status,
        durationMs,
        dashboardId: ctx.state.principal?.dashboardId,
      });
      metrics.request(route, ctx.method, ctx.status, durationMs / 1000);
    }
  };
