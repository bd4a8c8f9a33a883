import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { ProblemError } from '../http-errors';

/**
 * Reads a JSON body, closing the gaps koa-bodyparser leaves open: it would turn an empty body or a
 * body of another type into `{}` without a word. Here an empty body is MALFORMED_JSON, another type is
 * 415, an oversized body is 413 and broken JSON is 400 (DECISIONS D1). Any JSON value passes; the
 * route's codec says what shape it needs.
 */
export const jsonBody = (limitBytes: number): Middleware => {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${limitBytes}b`,
    strict: false,
    // A `__proto__` key is valid JSON: JSON.parse keeps it as a plain own key, and the codecs refuse
    // it as an unknown field, which says more than MALFORMED_JSON would.
    ...({ onProtoPoisoning: 'ignore' } as object),
    onerror: (err) => {
      const status = (err as { status?: unknown }).status;
      if (status === 413) throw new ProblemError({ _tag: 'PayloadTooLarge', limitBytes });
      if (status === 415) throw new ProblemError({ _tag: 'UnsupportedMediaType' });
      throw new ProblemError({ _tag: 'MalformedJson', reason: 'The body is not valid JSON' });
    },
  });
  return async (ctx, next) => {
    const declaredLength = ctx.get('Content-Length');
    const hasBody = ctx.get('Transfer-Encoding') !== '' || (declaredLength !== '' && declaredLength !== '0');
    if (!hasBody) throw new ProblemError({ _tag: 'MalformedJson', reason: 'The body is empty; a JSON object is expected' });
    // Exactly application/json: koa-bodyparser would parse some +json types and silently skip others.
    if (ctx.request.is('application/json') === false) throw new ProblemError({ _tag: 'UnsupportedMediaType' });
    if (ctx.request.length !== undefined && ctx.request.length > limitBytes) {
      throw new ProblemError({ _tag: 'PayloadTooLarge', limitBytes });
    }
    await parse(ctx, async () => {
      const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
      if (raw.trim() === '') throw new ProblemError({ _tag: 'MalformedJson', reason: 'The body is empty; a JSON object is expected' });
      await next();
    });
  };
};
