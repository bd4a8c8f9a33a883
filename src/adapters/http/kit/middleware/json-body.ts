import { isUtf8 } from 'node:buffer';
import bodyParser from 'koa-bodyparser';
import type { Middleware } from 'koa';
import { ProblemError } from '../http-errors';
import type { RequestState } from '../request-state';
import { checkBody, parseBody, textOf, type BodyValues } from '../well-formed';

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
 * decode bytes that are not UTF-8 into U+FFFD. So it reads application/json as "text" without an
 * encoding, which co-body takes as no decoding at all: `rawBody` holds the bytes as they came (the
 * typings say a string, which every other configuration gives).
 */
const byteReader = (limitBytes: number): Middleware =>
  bodyParser({
    enableTypes: ['text'],
    extendTypes: { text: ['application/json'] },
    encoding: null as unknown as string,
    textLimit: `${limitBytes}b`,
  });

/**
 * Reads a JSON body from its bytes, so that nothing is guessed: an empty body is MALFORMED_JSON, a
 * body of another type, another charset or with a content coding is 415, an oversized body is 413
 * (before reading when its length is declared, as soon as it is passed otherwise), bytes that are not
 * UTF-8 and broken JSON are 400 MALFORMED_JSON (decision 0001). Then the bytes are checked before
 * anything is built from them (well-formed.ts: syntax, depth, surrogates, the route's count of values,
 * decision 0023) and parsed; what the check found waits in `ctx.state.bodyShape` for the route's handler, which
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
    const bytes: unknown = ctx.request.rawBody;
    ctx.request.body = undefined;
    if (!(bytes instanceof Uint8Array)) throw new Error('koa-bodyparser gave no bytes: is co-body still reading without an encoding?');
    if (!isUtf8(bytes)) throw malformed('The body is not valid UTF-8');
    const shape = await checkBody(bytes, values);
    if (shape === undefined) {
      // Whitespace alone (a no-break space or a BOM too, as String.prototype.trim reads it) is an empty body.
      throw malformed(textOf(bytes).trim() === '' ? 'The body is empty; a JSON object is expected' : 'The body is not valid JSON');
    }
    ctx.state.bodyShape = shape;
    if (!shape.stopped) {
      try {
        // A `__proto__` key is valid JSON: JSON.parse keeps it as a plain own key, and the codecs refuse
        // it as an unknown field, which says more than MALFORMED_JSON would.
        ctx.request.body = await parseBody(bytes, shape, values.items?.member);
      } catch {
        throw malformed('The body is not valid JSON');
      }
    }
    await next();
  };
};
