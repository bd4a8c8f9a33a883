import type { Middleware } from 'koa';
import type { Logger } from '../../../application/ports/logger';

/**
 * One JSON line per request (DECISIONS D11): the route pattern rather than the raw URL, so that
 * neither query strings nor identifiers of other systems end up in the logs; never a header or a body.
 */
export const accessLog =
  (logger: Logger): Middleware =>
  async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route: unknown = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      logger.info('request', {
        requestId: ctx.state.requestId,
        method: ctx.method,
        route: typeof route === 'string' ? route : '(unmatched)',
        status: ctx.status,
        durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        dashboardId: ctx.state.principal?.dashboardId,
      });
    }
  };
