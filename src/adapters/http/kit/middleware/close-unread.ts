import type { Middleware } from 'koa';

/**
 * An answer given before its request's body has all arrived (a refusal that reads no body: 429
 * TOO_MANY_HEAVY_REQUESTS, 401, 413 from the declared length, 415) closes the connection. Node would
 * otherwise read the rest of the body to its end to keep the connection for the next request: the
 * very work the refusal saved. server.ts then drops a bounded part of the rest and closes.
 */
export const closeWhenBodyUnread = (): Middleware => async (ctx, next) => {
  try {
    await next();
  } finally {
    if (!ctx.req.complete) ctx.set('Connection', 'close');
  }
};
