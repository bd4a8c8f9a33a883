import type { Middleware } from 'koa';
import { ProblemError, type RouteOff } from '../http-errors';

/**
 * Turns what the router leaves unanswered into problems: no route (404), or a route without this
 * method (405 with `Allow`, which the router's `allowedMethods` has set). A path the configuration
 * switched off gets a 404 that names the setting (decision 0024).
 */
export const routeFallback =
  (switchedOff: (path: string) => RouteOff | undefined): Middleware =>
  async (ctx, next) => {
    await next();
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (ctx.status === 405 || ctx.status === 501) {
      const allowed = ctx.response
        .get('Allow')
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m !== '');
      throw new ProblemError({ _tag: 'MethodNotAllowed', allowed });
    }
    if (ctx.status === 404) {
      const off = switchedOff(ctx.path);
      throw new ProblemError(off === undefined ? { _tag: 'RouteNotFound' } : { _tag: 'RouteNotFound', off });
    }
  };
