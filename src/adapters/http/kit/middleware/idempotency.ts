import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { RequestState } from '../request-state';
import type { IdempotencyGate } from '../../../../application/guards/idempotency-gate';
import type { StoredResponse } from '../../../../application/ports/idempotency-store';
import { ProblemError, validationFailed } from '../http-errors';
import { renderProblem } from '../problem';
import { principalOf } from '../request-state';
import { EventLoopSlices } from '../../../../application/shared/event-loop-slices';

/**
 * The two forms of an Idempotency-Key (decision 0007), also the patterns of its OpenAPI parameter: 1–255
 * visible ASCII characters that do not read as a structured-field string, or such a string (`"abc"`
 * means `abc`) of 1–255 visible characters, with `\"` and `\\` escapes.
 */
export const RAW_KEY = /^(?!"(?:[^"\\]|\\["\\])*"$)[\x21-\x7E]{1,255}$/;
export const QUOTED_KEY = /^"(?:[\x21\x23-\x5B\x5D-\x7E]|\\["\\]){1,255}"$/;

/** The key an Idempotency-Key header names, or undefined when it names none. */
export const parseIdempotencyKey = (header: string): string | undefined => {
  if (RAW_KEY.test(header)) return header;
  return QUOTED_KEY.test(header) ? header.slice(1, -1).replace(/\\(["\\])/g, '$1') : undefined;
};

/** JSON with object keys sorted, so that key order in a body does not change its fingerprint. */
const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/** The fingerprint stored with a key: method, path and the parsed body (decision 0007). */
export const requestFingerprint = (method: string, path: string, body: unknown): string =>
  createHash('sha256')
    .update(`${method}\n${path}\n${canonicalJson(body)}`)
    .digest('hex');

/**
 * The same fingerprint, hashed in pieces: the members of the body and the items of its arrays, two
 * levels down (a batch's orders), each hashed on its own between stretches of the event loop, so that
 * a 4 MiB batch is never written out in one go (decision 0023). The bytes hashed are the same.
 */
export const fingerprintInStretches = async (method: string, path: string, body: unknown): Promise<string> => {
  const hash = createHash('sha256').update(`${method}\n${path}\n`);
  const slices = new EventLoopSlices();
  const feed = async (value: unknown, depth: number): Promise<void> => {
    if (depth < 2 && Array.isArray(value)) {
      hash.update('[');
      for (const [index, item] of value.entries()) {
        if (index > 0) hash.update(',');
        await feed(item, depth + 1);
        await slices.pause();
      }
      hash.update(']');
    } else if (depth < 2 && typeof value === 'object' && value !== null) {
      hash.update('{');
      for (const [index, key] of Object.keys(value).sort().entries()) {
        hash.update(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
        await feed((value as Record<string, unknown>)[key], depth + 1);
      }
      hash.update('}');
    } else hash.update(canonicalJson(value));
  };
  await feed(body, 0);
  return hash.digest('hex');
};

/** Statuses answered before anything was executed: the key is given back for any request. */
const NOTHING_EXECUTED = [400, 401, 413, 415, 429];

/** The headers a replay must repeat. */
const REPLAYED_HEADERS = ['location'] as const;

const snapshot = (ctx: Context): StoredResponse => ({
  status: ctx.status,
  headers: Object.fromEntries(
    REPLAYED_HEADERS.flatMap((name) => {
      const value: unknown = ctx.response.get(name);
      return typeof value === 'string' && value !== '' ? [[name, value]] : [];
    }),
  ),
  body: ctx.body,
});

/**
 * Idempotency-Key on the writes (decision 0007), after authentication, rate limiting and body parsing.
 * The route reads `ctx.state.reservedId` to give a created resource the id reserved with the key, which
 * is how a retry after a crash recognises its own earlier write.
 */
export const idempotency =
  (gate: IdempotencyGate): Middleware<RequestState> =>
  async (ctx, next) => {
    const header = ctx.request.headers['idempotency-key'];
    if (header === undefined) {
      await next();
      return;
    }
    const key = typeof header === 'string' ? parseIdempotencyKey(header) : undefined;
    if (key === undefined) {
      throw validationFailed([
        { path: 'header.Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters, optionally in double quotes' },
      ]);
    }
    const scope = { dashboardId: principalOf(ctx.state).dashboardId, key };
    const admission = await gate.admit(scope, await fingerprintInStretches(ctx.method, ctx.path, ctx.request.body));
    switch (admission.kind) {
      case 'reused':
        throw new ProblemError({ _tag: 'IdempotencyKeyReused' });
      case 'in-progress':
        throw new ProblemError({ _tag: 'IdempotencyKeyInProgress', retryAfterSeconds: admission.retryAfterSeconds });
      case 'replay': {
        const { response } = admission;
        ctx.status = response.status;
        for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
        ctx.body = response.body;
        if (response.status >= 400) ctx.type = 'application/problem+json';
        ctx.set('Idempotent-Replayed', 'true');
        return;
      }
      case 'execute':
        break;
    }
    const { claim } = admission;
    ctx.state.reservedId = claim.reservedId;
    try {
      await next();
    } catch (err) {
      if (!(err instanceof ProblemError)) {
        // Storage may have taken the write before failing: keep the reserved id for the retry.
        await gate.abandon(scope, claim).catch(() => undefined);
        throw err;
      }
      renderProblem(ctx, err.error);
    }
    if (ctx.status >= 500) await gate.abandon(scope, claim);
    else if (NOTHING_EXECUTED.includes(ctx.status)) await gate.release(scope, claim);
    else await gate.complete(scope, claim, snapshot(ctx));
  };
