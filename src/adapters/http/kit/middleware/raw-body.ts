import getRawBody from 'raw-body';
import type { Middleware } from 'koa';
import { ProblemError } from '../http-errors';
import type { RequestState } from '../request-state';
import { BodyAbortedError } from './json-body';

/**
 * Reads a body as bytes, untouched, for the routes that must check a signature over exactly what was
 * sent (a platform's webhook, decision 0021): no media type or charset is required, nothing is
 * decoded or parsed. Too large is 413, before reading when the length is declared; a body that
 * does not arrive whole is dropped as json-body drops it.
 */
export const rawBody =
  (limitBytes: number): Middleware<RequestState> =>
  async (ctx, next) => {
    if (ctx.request.length !== undefined && ctx.request.length > limitBytes)
      throw new ProblemError({ _tag: 'PayloadTooLarge', limitBytes });
    try {
      ctx.state.rawBody = await getRawBody(ctx.req, { length: ctx.request.length, limit: limitBytes });
    } catch (err) {
      const type = (err as { type?: unknown }).type;
      if (type === 'entity.too.large') throw new ProblemError({ _tag: 'PayloadTooLarge', limitBytes });
      throw new BodyAbortedError(`the body stopped arriving (${typeof type === 'string' ? type : 'stream error'})`, { cause: err });
    }
    await next();
  };
