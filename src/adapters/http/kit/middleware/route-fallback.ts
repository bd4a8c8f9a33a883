import type { Middleware } from 'koa';
import { ProblemError } from '../http-errors';

/**
 * Turns what the router leaves unanswered into problems: no route (404), or a route without this
 * method (405 with `Allow`, which the router's `allowedMethods` has set).
 */
export const routeFallback: Middleware = async (ctx, next) => {
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
  if (ctx.status === 404) throw new ProblemError({ _tag: 'RouteNotFound' });
};
