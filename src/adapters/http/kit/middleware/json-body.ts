import getRawBody from 'raw-body';
import type { Middleware } from 'koa';
import { ProblemError } from '../http-errors';
import type { RequestState } from '../request-state';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body, on routes that take one. */
    body?: unknown;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const malformed = (reason: string): ProblemError => new ProblemError({ _tag: 'MalformedJson', reason });
const unsupported = (reason: string): ProblemError => new ProblemError({ _tag: 'UnsupportedMediaType', reason });

/** The request stopped sending its body (a timeout, or the client went away): there is nobody to answer. */
export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

/**
 * Reads a JSON body from its bytes, so that nothing is guessed: an empty body is MALFORMED_JSON, a
 * body of another type, another charset or with a content coding is 415, an oversized body is 413
 * (before reading when its length is declared, as soon as it is passed otherwise), bytes that are not
 * UTF-8 and broken JSON are 400 MALFORMED_JSON (DECISIONS D1). Any JSON value passes; the route's
 * codec says what shape it needs. (koa-bodyparser would turn an empty body or another type into `{}`
 * and decode bad bytes into U+FFFD without a word.)
 */
export const jsonBody =
  (limitBytes: number): Middleware<RequestState> =>
  async (ctx, next) => {
    const declared = ctx.get('Content-Length');
    const hasBody = ctx.get('Transfer-Encoding') !== '' || (declared !== '' && declared !== '0');
    if (!hasBody) throw malformed('The body is empty; a JSON object is expected');
    // Exactly application/json: +json types are other formats with other rules.
    if (ctx.request.is('application/json') === false) throw unsupported('The body must be sent as Content-Type: application/json');
    const charset = ctx.request.charset.toLowerCase();
    if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') throw unsupported('The body must be UTF-8 (charset=utf-8)');
    const coding = ctx.get('Content-Encoding').toLowerCase();
    if (coding !== '' && coding !== 'identity') throw unsupported('The body must be sent without a Content-Encoding');
    if (ctx.request.length !== undefined && ctx.request.length > limitBytes) {
      throw new ProblemError({ _tag: 'PayloadTooLarge', limitBytes });
    }
    let bytes: Buffer;
    try {
      bytes = await getRawBody(ctx.req, { length: ctx.request.length, limit: limitBytes });
    } catch (err) {
      const type = (err as { type?: unknown }).type;
      if (type === 'entity.too.large') throw new ProblemError({ _tag: 'PayloadTooLarge', limitBytes });
      if (type === 'request.size.invalid') throw malformed('The body is shorter or longer than its Content-Length');
      throw new BodyAbortedError(`the body stopped arriving (${typeof type === 'string' ? type : 'stream error'})`, { cause: err });
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw malformed('The body is not valid UTF-8');
    }
    if (text.trim() === '') throw malformed('The body is empty; a JSON object is expected');
    try {
      // A `__proto__` key is valid JSON: JSON.parse keeps it as a plain own key, and the codecs refuse
      // it as an unknown field, which says more than MALFORMED_JSON would.
      ctx.request.body = JSON.parse(text);
    } catch {
      throw malformed('The body is not valid JSON');
    }
    await next();
  };
