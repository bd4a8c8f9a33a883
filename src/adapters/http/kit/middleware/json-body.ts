import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { ProblemError } from '../http-errors';
import type { RequestState } from '../request-state';
import { checkBody, parseBody, type BodyValues } from '../well-formed';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const malformed = (reason: string): ProblemError => new ProblemError({ _tag: 'MalformedJson', reason });
const unsupported = (reason: string): ProblemError => new ProblemError({ _tag: 'UnsupportedMediaType', reason });

/** The request stopped sending its body (a timeout, or the client went away): there is nobody to answer. */
export class BodyAbortedError extends Error {
  override readonly name = 'BodyAbortedError';
}

/**
 * koa-bodyparser as the reader of a JSON body's bytes (its limit, its length check, its handling of a
 * body cut off), not as its parser: its JSON mode would parse before any limit is checked, turn an
 * empty body into `{}`, refuse a `__proto__` key and a body that is not an object or an array, and
 * decode bytes that are not UTF-8 into U+FFFD. So it reads the media types it is given as text in
 * latin1, which keeps one character per byte: `rawBody` gives back the bytes exactly as they came.
 */
const byteReader = (limitBytes: number): Middleware =>
  bodyParser({ enableTypes: ['text'], extendTypes: { text: ['application/json'] }, encoding: 'latin1', textLimit: `${limitBytes}b` });

/**
 * Reads a JSON body from its bytes, so that nothing is guessed: an empty body is MALFORMED_JSON, a
 * body of another type, another charset or with a content coding is 415, an oversized body is 413
 * (before reading when its length is declared, as soon as it is passed otherwise), bytes that are not
 * UTF-8 and broken JSON are 400 MALFORMED_JSON (DECISIONS D1). Then the text is checked before
 * anything is built from it (well-formed.ts: depth, surrogates, the route's count of values, DECISIONS
 * D23) and parsed; what the check found waits in `ctx.state.bodyShape` for the route's handler, which
 * reports it with the other problems of the request. Any JSON value passes; the route's codec says
 * what shape it needs.
 */
export const jsonBody = (limitBytes: number): ((values: BodyValues) => Middleware<RequestState>) => {
  const read = byteReader(limitBytes);
  return (values) => async (ctx, next) => {
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
    try {
      await read(ctx, async () => {});
    } catch (err) {
      const type = (err as { type?: unknown }).type;
      if (type === 'entity.too.large') throw new ProblemError({ _tag: 'PayloadTooLarge', limitBytes });
      if (type === 'request.size.invalid') throw malformed('The body is shorter or longer than its Content-Length');
      throw new BodyAbortedError(`the body stopped arriving (${typeof type === 'string' ? type : 'stream error'})`, { cause: err });
    }
    let text: string;
    try {
      text = utf8.decode(Buffer.from(ctx.request.rawBody, 'latin1'));
    } catch {
      throw malformed('The body is not valid UTF-8');
    }
    ctx.request.body = undefined;
    if (text.trim() === '') throw malformed('The body is empty; a JSON object is expected');
    const shape = await checkBody(text, values);
    if (shape === undefined) throw malformed('The body is not valid JSON');
    ctx.state.bodyShape = shape;
    if (!shape.stopped) {
      try {
        // A `__proto__` key is valid JSON: JSON.parse keeps it as a plain own key, and the codecs refuse
        // it as an unknown field, which says more than MALFORMED_JSON would.
        ctx.request.body = await parseBody(text, shape, values.items?.member);
      } catch {
        throw malformed('The body is not valid JSON');
      }
    }
    await next();
  };
};
