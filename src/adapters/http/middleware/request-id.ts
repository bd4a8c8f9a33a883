import type { Middleware } from 'koa';
import type { IdGenerator } from '../../../application/ports/id-generator';

/** An incoming X-Request-Id of this shape is reused; also the pattern of the header in the OpenAPI document. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Reuses a well-formed incoming X-Request-Id, or makes one; every response carries it (DECISIONS D2). */
export const requestId =
  (ids: IdGenerator): Middleware =>
  async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = REQUEST_ID.test(incoming) ? incoming : ids.next('req');
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
