import { QUOTED_KEY, RAW_KEY } from '../middleware/idempotency';
import { REQUEST_ID } from '../middleware/request-id';
import type { FixedHeader, RequestHeader } from '../route';
import type { HeaderObject, ParameterObject, SecuritySchemeObject } from './types';

/** What the document says that cannot be derived from the route table: titles, prose, examples. */

export const API_VERSION = '0.3.0';

export const API_DESCRIPTION = `An order-recording service: orders are created and listed through /api/v1 with a bearer token that names the dashboard (account) they belong to.

- Money is an integer count of cents. Request bodies are JSON (\`Content-Type: application/json\`, UTF-8). Dates in requests are ISO 8601 with a timezone; dates in responses are UTC with milliseconds.
- Every response carries \`X-Request-Id\`. Every error is an RFC 9457 problem (\`application/problem+json\`) with \`code\` and \`requestId\`, and \`details\` for \`VALIDATION_FAILED\` (at most 100; \`totalDetails\` counts them when there were more).
- A path that is not documented here answers 404 \`NOT_FOUND\` (components/responses/RouteNotFound). A documented path called with a method it does not have answers 405 \`METHOD_NOT_ALLOWED\` with \`Allow\` (components/responses/MethodNotAllowed). \`HEAD\` is answered wherever \`GET\` is, and \`OPTIONS\` answers 200 with \`Allow\`.
- A request that is not valid HTTP (components/responses/MalformedRequest), whose headers are too large (components/responses/HeadersTooLarge), or whose headers or body do not arrive in time (components/responses/RequestTimeout) is answered before any route, and its connection closed.
- Every request to an /api/v1/orders, /api/v1/webhooks or /api/v1/links operation with a valid token is counted against that token: RATE_LIMIT_MAX requests per fixed window of RATE_LIMIT_WINDOW_SECONDS (600 per 60 s by default), shared by every instance on one store. Each response after authentication, errors included, carries \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers); past the quota the answer is 429 \`RATE_LIMIT_EXCEEDED\` with \`Retry-After\`. The probes, this document, the admin API and the short links (\`GET /l/{slug}\`) are not limited.
- \`POST\` and \`PATCH\` on /api/v1/orders accept an optional \`Idempotency-Key\` header that makes retries safe: a completed request is replayed with \`Idempotent-Replayed: true\` instead of being executed again (components/parameters/IdempotencyKey).
- UTM links (/api/v1/links) are built without saving or saved with a short link, \`GET /l/{slug}\`, which needs no token: it answers 302 to the link's URL with the click's own query parameters added (never replacing the link's), counts the click, and answers 404 for a slug that does not exist.
- Order status changes follow the operator's transition table; the service ships none, so without one every status change is refused (see PATCH /api/v1/orders/{externalId}).
- Webhooks (/api/v1/webhooks): each change of an order is sent to the dashboard's endpoints that subscribe to its events, at least once, signed as Standard Webhooks do (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`), and retried on failure; the body of each request is described by components/schemas/WebhookEvent, and under \`webhooks\` below.`;

export const TAGS = [
  { name: 'orders', description: "Orders of the bearer token's dashboard." },
  {
    name: 'reports',
    description:
      'Which campaigns made money: revenue, approval rate, refunds, spend, ROAS, CPA, product cost, tax, contribution, profit, margin ' +
      "and ROI by campaign fields, platform or payment method, by last or first touch, bucket by bucket in a time zone's calendar, " +
      'products ranked, each compared with the period before if asked (decisions 0016, 0020).',
  },
  {
    name: 'spend',
    description:
      "The account's outgoings that reports set against revenue: ad spend per day and campaign key, and what each product costs from a day on (decision 0020).",
  },
  { name: 'dashboard', description: "The bearer token's dashboard and its settings." },
  { name: 'webhooks', description: "Webhook endpoints of the bearer token's dashboard, and their delivery logs." },
  {
    name: 'links',
    description:
      "UTM links of the bearer token's dashboard, built by the rules of Google's Campaign URL Builder with ad-platform macros kept, " +
      'and their short links, which redirect without a token and count each click.',
  },
  {
    name: 'sources',
    description:
      "Sources of the bearer token's dashboard: a checkout platform's webhooks (Shopify, Stripe) turned into orders without code; " +
      'the platform posts to the `url` of the source, `POST /in/v1/{sourceId}`, signed with its own secret.',
  },
  {
    name: 'ad-accounts',
    description:
      "Ad accounts of the bearer token's dashboard (Meta, Google Ads, TikTok): their daily spend per campaign and ad is read every hour " +
      'and on demand, replacing what the account wrote before for its last 28 days; credentials are encrypted at rest and never shown.',
  },
  { name: 'admin', description: 'Dashboards and API tokens, behind ADMIN_TOKEN; disabled (404) when it is not set.' },
  { name: 'operations', description: 'Probes and this document, without authentication.' },
  { name: 'tracking', description: 'The browser tracking script shops add to their pages, without authentication.' },
] as const;

export const SECURITY_SCHEMES: Record<'bearerAuth' | 'adminToken', SecuritySchemeObject> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ok_live_<43 base62 characters>',
    description: 'An API token issued through the admin API; it names the dashboard whose orders are created and read.',
  },
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The ADMIN_TOKEN secret of the deployment. Without it configured, the admin API answers 404.',
  },
};

const rateLimitWhere =
  'On every response of a rate-limited operation once the token is authenticated, errors included; not on 401 ' +
  '(a request that fails authentication is counted against no token).';

export const HEADERS: Record<string, HeaderObject> = {
  RequestId: {
    description:
      'On every response: the incoming `X-Request-Id` when it was 1-128 characters of `[A-Za-z0-9._-]`, else one made by the service.',
    required: true,
    schema: { type: 'string', pattern: REQUEST_ID.source },
  },
  Location: {
    description:
      'On a 201, the path of what was created: `/api/v1/orders/{externalId}`, with `externalId` written as the path parameter says ' +
      "(percent-encoded; `~.` for `.`), `/api/v1/webhooks/{webhookId}` or `/api/v1/links/{id}`. On the 302 of a short link, the link's URL with the click's query parameters added.",
    required: true,
    schema: {
      type: 'string',
      examples: [
        '/api/v1/orders/order-1',
        '/api/v1/links/lnk_6Zq0vB2xT4mYc8Rk1Lw9Ns',
        'https://shop.example/?utm_source=google&utm_medium=cpc&utm_campaign=bf&gclid=abc',
      ],
    },
  },
  WwwAuthenticate: {
    description:
      '`Bearer` for a missing, malformed or unknown token; `Bearer error="invalid_token", error_description="The token was revoked"` for a revoked one.',
    required: true,
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods the path supports.', required: true, schema: { type: 'string', examples: ['HEAD, GET, POST'] } },
  RetryAfter: { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 0 } },
  ETag: {
    description:
      'A strong entity tag of this representation (RFC 9110): send it back in `If-None-Match` to get 304 while it has not changed.',
    required: true,
    schema: { type: 'string', pattern: '^"[\\x21\\x23-\\x7E]*"$', examples: ['"4c1Fh0qaXJ8tXl2y0VbP1Q-gzip"'] },
  },
  ContentEncoding: {
    description: 'The body is compressed with gzip: only when `Accept-Encoding` takes gzip.',
    required: false,
    schema: { type: 'string', const: 'gzip' },
  },
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
    schema: { type: 'string', const: 'true' },
  },
};

/** What a header with a value fixed by the route's declaration is for; the value is in its schema. */
export const FIXED_HEADERS: Record<FixedHeader, string> = {
  'Cache-Control': 'How caches may store this response.',
  Vary: 'The request headers this response depends on, for caches.',
};

/** The request headers a route may read (`requestHeaders`), as header parameters: read, never refused. */
export const REQUEST_HEADER_PARAMETERS: Record<RequestHeader, ParameterObject> = {
  'If-None-Match': {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'Entity tags the client holds (RFC 9110 §13.1.2): when one of them is the `ETag` of the representation that would be sent ' +
      '(weak comparison, so `W/` is allowed), or the value is `*`, the answer is 304 without a body. Anything else is ignored.',
    schema: { type: 'string' },
  },
  'Accept-Encoding': {
    name: 'Accept-Encoding',
    in: 'header',
    required: false,
    description:
      'When it takes gzip (`gzip`, `x-gzip` or `*`, with a weight above 0), the body is sent compressed with `Content-Encoding: gzip`; ' +
      'otherwise, or when it is absent, as it is. Anything else is ignored.',
    schema: { type: 'string' },
  },
};

export const REQUEST_ID_PARAMETER: ParameterObject = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description: 'Reused as the request id when it is 1-128 characters of `[A-Za-z0-9._-]`; any other value is replaced, not refused.',
  schema: { type: 'string' },
};

export const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: `Makes a retry of this request safe (draft-ietf-httpapi-idempotency-key-header). Optional: without it the request is executed as usual.

The key is 1-255 visible ASCII characters (\`%x21-7E\`), or the same written as a structured-field string: \`"abc"\` means \`abc\`. Anything else, an empty header included, is 400 \`VALIDATION_FAILED\` with the path \`header.Idempotency-Key\`. Keys belong to the dashboard of the token (two dashboards never see each other's keys); with a key the service stores a fingerprint of the method, the path and the parsed body (object keys in any order make the same body).

- **Same key, same request, first one completed**: its stored status, body and \`Location\` are returned unchanged, with \`Idempotent-Replayed: true\`; nothing is executed again. The body of a replayed problem keeps the \`requestId\` of the first request; \`X-Request-Id\` and the rate-limit headers are the replay's own, and a replay counts against the rate limit.
- **Same key, another request** (another method, path or body): 422 \`IDEMPOTENCY_KEY_REUSED\`.
- **Same key while the first request is still executing**: 409 \`IDEMPOTENCY_KEY_IN_PROGRESS\` with \`Retry-After\` (the seconds left on the first request's claim).
- **Stored** for replays: the responses of requests that passed authentication, rate limiting and validation, that is 2xx and the business errors (404 \`NOT_FOUND\`, 409 \`DUPLICATE_EXTERNAL_ID\`, 409 \`INVALID_TRANSITION\`). **Not stored**: 400, 401, 413, 415 and 429 (nothing was executed: the key is free again, for any request); 422 and 409 \`IDEMPOTENCY_KEY_IN_PROGRESS\` (the key stays with the first request); 5xx (the same request may retry at once and finish the work: a creation keeps the order id reserved with the key, so its retry answers 201 even when the failed attempt had written the order; another request with the key is still 422; if storage was unreachable, the retry may get 409 \`IDEMPOTENCY_KEY_IN_PROGRESS\` until the lease has passed).
- **Lease**: the first request holds the key for IDEMPOTENCY_LEASE_SECONDS (10 s by default). If the process dies while holding it, a retry of the same request after the lease takes the key over and executes it; when the earlier attempt had already created the order, the retry answers 201 with that very order, not \`DUPLICATE_EXTERNAL_ID\`. A request still running after its lease can be taken over the same way.
- **Expiry**: a key is remembered for IDEMPOTENCY_TTL_SECONDS (24 h by default) after its first use, then it is a new key.`,
  schema: {
    type: 'string',
    pattern: `(?:${RAW_KEY.source})|(?:${QUOTED_KEY.source})`,
    examples: ['3f1c2d9e-7b1a-4c55-9a43-0e6f1f9b2c11', '"3f1c2d9e"'],
  },
};
