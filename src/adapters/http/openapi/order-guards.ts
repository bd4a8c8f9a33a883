import { headerRef } from './refs';
import type { HeaderObject, ParameterObject, Reference } from './types';

/**
 * What the guards of /api/v1/orders add to its operations (app.ts): the rate limit of
 * middleware/rate-limit.ts on every operation (DECISIONS D9), and the Idempotency-Key of
 * middleware/idempotency.ts on POST and PATCH (DECISIONS D7).
 */

/** A visible-ASCII key, unless it is written as a structured-field string (then the second form applies). */
const RAW_KEY = '^(?!"(?:[^"\\\\]|\\\\["\\\\])*"$)[\\x21-\\x7E]{1,255}$';
/** `"abc"` means `abc`: inside the quotes, visible ASCII with `\"` and `\\` escapes, 1-255 characters once unescaped. */
const QUOTED_KEY = '^"(?:[\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\["\\\\]){1,255}"$';

const rateLimitWhere =
  'On every response of an /api/v1/orders operation once the token is authenticated, errors included; ' +
  'not on 401 (a request that fails authentication is counted against no token).';

export const guardHeaders: Record<string, HeaderObject> = {
  RateLimitPolicy: {
    description:
      'The quota of the token (draft-ietf-httpapi-ratelimit-headers): `q` requests per fixed window of `w` seconds, ' +
      `RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_SECONDS (600 per 60 s by default). ${rateLimitWhere}`,
    required: true,
    schema: { type: 'string', pattern: '^"default";q=[0-9]+;w=[0-9]+$', examples: ['"default";q=600;w=60'] },
  },
  RateLimit: {
    description:
      'What is left of the quota: `r` requests remaining in the current window, this one counted (0 once it is used up), ' +
      `and \`t\` seconds until the window resets (at least 1). ${rateLimitWhere}`,
    required: true,
    schema: { type: 'string', pattern: '^"default";r=[0-9]+;t=[0-9]+$', examples: ['"default";r=599;t=42'] },
  },
  IdempotentReplayed: {
    description:
      'Present, with the value `true`, when this is the stored response of an earlier request with the same ' +
      '`Idempotency-Key` (the request was not executed again); absent otherwise.',
    required: false,
    schema: { const: 'true' },
  },
};

/** The rate-limit headers, where every response has them: the request was counted before it failed or succeeded. */
export const COUNTED: Record<string, Reference> = {
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
  RateLimit: headerRef('RateLimit'),
};

const unlessBeforeCounting = (name: string): HeaderObject => {
  const header = guardHeaders[name]!;
  return {
    ...header,
    required: false,
    description: `${header.description} Absent when the failure came before the request was counted (while authenticating).`,
  };
};

/** The rate-limit headers on 500 and 503, which storage can cause before the request is counted. */
export const MAYBE_COUNTED: Record<string, HeaderObject> = {
  'RateLimit-Policy': unlessBeforeCounting('RateLimitPolicy'),
  RateLimit: unlessBeforeCounting('RateLimit'),
};

/** On the responses an Idempotency-Key stores, and so may replay. */
export const REPLAYABLE: Record<string, Reference> = { 'Idempotent-Replayed': headerRef('IdempotentReplayed') };

const idempotencyDescription = `Makes a retry of this request safe (draft-ietf-httpapi-idempotency-key-header). Optional: without it the request is executed as usual.

The key is 1-255 visible ASCII characters (\`%x21-7E\`), or the same written as a structured-field string: \`"abc"\` means \`abc\`. Anything else, an empty header included, is 400 \`VALIDATION_FAILED\` with the path \`header.Idempotency-Key\`. Keys belong to the dashboard of the token (two dashboards never see each other's keys); with a key the service stores a fingerprint of the method, the path and the parsed body (object keys in any order make the same body).

- **Same key, same request, first one completed**: its stored status, body and \`Location\` are returned unchanged, with \`Idempotent-Replayed: true\`; nothing is executed again. The body of a replayed problem keeps the \`requestId\` of the first request; \`X-Request-Id\` and the rate-limit headers are the replay's own, and a replay counts against the rate limit.
- **Same key, another request** (another method, path or body): 422 \`IDEMPOTENCY_KEY_REUSED\`.
- **Same key while the first request is still executing**: 409 \`IDEMPOTENCY_KEY_IN_PROGRESS\` with \`Retry-After\` (the seconds left on the first request's claim).
- **Stored** for replays: the responses of requests that passed authentication, rate limiting and validation, that is 2xx and the business errors (404 \`NOT_FOUND\`, 409 \`DUPLICATE_EXTERNAL_ID\`, 409 \`INVALID_TRANSITION\`). **Not stored**: 400, 401, 413, 415 and 429 (nothing was executed: the key is free again, for any request); 422 and 409 \`IDEMPOTENCY_KEY_IN_PROGRESS\` (the key stays with the first request); 5xx (the same request may retry at once and finish the work: a creation keeps the order id reserved with the key, so its retry answers 201 even when the failed attempt had written the order; another request with the key is still 422; if storage was unreachable, the retry may get 409 \`IDEMPOTENCY_KEY_IN_PROGRESS\` until the lease has passed).
- **Lease**: the first request holds the key for IDEMPOTENCY_LEASE_SECONDS (10 s by default). If the process dies while holding it, a retry of the same request after the lease takes the key over and executes it; when the earlier attempt had already created the order, the retry answers 201 with that very order, not \`DUPLICATE_EXTERNAL_ID\`. A request still running after its lease can be taken over the same way.
- **Expiry**: a key is remembered for IDEMPOTENCY_TTL_SECONDS (24 h by default) after its first use, then it is a new key.`;

export const idempotencyKeyParameter: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: idempotencyDescription,
  schema: {
    type: 'string',
    anyOf: [{ pattern: RAW_KEY }, { pattern: QUOTED_KEY }],
    examples: ['3f1c2d9e-7b1a-4c55-9a43-0e6f1f9b2c11', '"3f1c2d9e"'],
  },
};
