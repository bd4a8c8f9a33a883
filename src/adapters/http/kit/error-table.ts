import type { HttpError, RouteOff } from './http-errors';

/**
 * How many problems a VALIDATION_FAILED answer lists: a body of thousands of unknown keys must not
 * make an answer larger than the request. `totalDetails` says how many there were.
 */
export const MAX_DETAILS = 100;

export interface ErrorRow<E extends HttpError = HttpError> {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  /** When it is answered, for the OpenAPI document. */
  readonly description: string;
  /** The sentence for `detail`: only facts the caller sent or may know, never internals. */
  readonly detail: string | ((error: E) => string);
}

/** What a 404 says when the route exists but the configuration switched it off. */
const SWITCHED_OFF: Readonly<Record<RouteOff, string>> = {
  admin: 'The admin API is off: the service runs without ADMIN_TOKEN',
  console: 'The console is off: the service runs with CONSOLE=off',
  metrics: 'Metrics are not served on this port: GET /metrics answers on a listener of its own, METRICS_PORT, when it is set',
};

type ErrorTable = { readonly [T in HttpError['_tag']]: ErrorRow<Extract<HttpError, { readonly _tag: T }>> };

/**
 * Every error the service can answer, with its status and `code` (decision 0001). A `Record` over the
 * union of tags: a new error variant does not compile until it has a row here.
 */
export const ERROR_TABLE: ErrorTable = {
  ValidationFailed: {
    status: 400,
    code: 'VALIDATION_FAILED',
    title: 'Validation failed',
    description: 'A path or query parameter, a header or the body is invalid; `details` lists every problem.',
    detail: (error) => {
      if (error.details.length > MAX_DETAILS) return `${error.details.length} fields are invalid; the first ${MAX_DETAILS} are listed`;
      return error.details.length === 1 ? '1 field is invalid' : `${error.details.length} fields are invalid`;
    },
  },
  MalformedJson: {
    status: 400,
    code: 'MALFORMED_JSON',
    title: 'Malformed JSON',
    description: 'The body is empty, not UTF-8, or not JSON.',
    detail: (error) => error.reason,
  },
  MalformedRequest: {
    status: 400,
    code: 'MALFORMED_REQUEST',
    title: 'Malformed request',
    description: 'The request is not valid HTTP; the connection is closed.',
    detail: 'The request is not valid HTTP',
  },
  Unauthorized: {
    status: 401,
    code: 'UNAUTHORIZED',
    title: 'Unauthorized',
    description: 'The bearer token is malformed or unknown.',
    detail: 'The bearer token is malformed or unknown',
  },
  BearerMissing: {
    status: 401,
    code: 'UNAUTHORIZED',
    title: 'Unauthorized',
    description: 'The `Authorization` header is missing, or is not `Bearer <token>`.',
    detail: (error) =>
      error.sent === 'nothing'
        ? 'The request has no Authorization header: send Authorization: Bearer <token>'
        : error.sent === 'another-scheme'
          ? 'The Authorization header does not start with Bearer: send Authorization: Bearer <token>'
          : 'The Authorization header holds no single token after Bearer: send Authorization: Bearer <token>',
  },
  TokenRevoked: {
    status: 401,
    code: 'TOKEN_REVOKED',
    title: 'Token revoked',
    description: 'The bearer token was revoked.',
    detail: 'The bearer token was revoked',
  },
  TokenExpired: {
    status: 401,
    code: 'TOKEN_EXPIRED',
    title: 'Token expired',
    description: 'The bearer token has passed its `expiresAt`.',
    detail: 'The bearer token has expired',
  },
  InsufficientScope: {
    status: 403,
    code: 'INSUFFICIENT_SCOPE',
    title: 'Insufficient scope',
    description:
      'The bearer token lacks the scope this operation needs (named in `scope` and in `WWW-Authenticate`). Nothing was executed.',
    detail: (error) => `This operation needs a token with the scope ${error.needed}`,
  },
  OrderNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: "No order with this externalId in the caller's dashboard (an order of another dashboard is not found either).",
    detail: 'No order with this externalId in this dashboard',
  },
  LinkNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: "No link with this id in the caller's dashboard (a link of another dashboard is not found either).",
    detail: 'No link with this id in this dashboard',
  },
  ShortLinkNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: 'No short link with this slug: never made, deleted, or not a slug at all.',
    detail: 'No short link with this slug',
  },
  DashboardNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: 'No dashboard with this id.',
    detail: 'No dashboard with this id',
  },
  TokenNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: 'No token with this id.',
    detail: 'No token with this id',
  },
  WebhookNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: "No webhook endpoint with this id in the caller's dashboard (an endpoint of another dashboard is not found either).",
    detail: 'No webhook endpoint with this id in this dashboard',
  },
  SourceNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: "No source with this id in the caller's dashboard (a source of another dashboard is not found either).",
    detail: 'No source with this id in this dashboard',
  },
  UnknownSource: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: 'No source has this id: it was never made, or it was deleted.',
    detail: 'No source with this id',
  },
  SourceSignatureInvalid: {
    status: 401,
    code: 'INVALID_SIGNATURE',
    title: 'Invalid signature',
    description:
      "The platform's signature of the body is missing or does not match the source's secret (or, for Stripe, its timestamp is more than 5 minutes away): nothing of the delivery is kept but a line in the source's log.",
    detail: (error) => `The delivery's signature was refused: ${error.reason}`,
  },
  SourceLimitReached: {
    status: 409,
    code: 'SOURCE_LIMIT_REACHED',
    title: 'Source limit reached',
    description: 'The dashboard already has as many sources as it may have (50): delete one first.',
    detail: (error) => `The dashboard already has ${error.limit} sources, the most it may have`,
  },
  AdAccountNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: "No ad account with this id in the caller's dashboard (an account of another dashboard is not found either).",
    detail: 'No ad account with this id in this dashboard',
  },
  AdAccountLimitReached: {
    status: 409,
    code: 'AD_ACCOUNT_LIMIT_REACHED',
    title: 'Ad account limit reached',
    description: 'The dashboard already has as many ad accounts as it may have (20): delete one first.',
    detail: (error) => `The dashboard already has ${error.limit} ad accounts, the most it may have`,
  },
  AdAccountAlreadyConnected: {
    status: 409,
    code: 'AD_ACCOUNT_ALREADY_CONNECTED',
    title: 'Ad account already connected',
    description: 'The dashboard already has this platform account: a second copy would count its spend twice. Change the one there is.',
    detail: (error) => `This dashboard already has the ${error.platform} account ${error.accountId}: change that one instead`,
  },
  CredentialsKeyMissing: {
    status: 409,
    code: 'CREDENTIALS_KEY_MISSING',
    title: 'Credentials key missing',
    description:
      'The service runs without CREDENTIALS_KEY, the key that encrypts ad platform credentials at rest, so it takes none: the operator sets it (docs/ad-platforms.md says how to make one).',
    detail: 'Ad account credentials cannot be stored: the service runs without CREDENTIALS_KEY, the key they are encrypted with',
  },
  DeliveryNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: "No delivery with this id among the endpoint's deliveries.",
    detail: 'No delivery with this id for this webhook endpoint',
  },
  RouteNotFound: {
    status: 404,
    code: 'NOT_FOUND',
    title: 'Not found',
    description: 'No such route.',
    detail: (error) => (error.off === undefined ? 'No such route' : SWITCHED_OFF[error.off]),
  },
  MethodNotAllowed: {
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    title: 'Method not allowed',
    description: 'The path exists, but not with this method; `Allow` lists those it has.',
    detail: (error) => `Allowed methods: ${error.allowed.join(', ')}`,
  },
  RequestTimeout: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    title: 'Request timeout',
    description:
      'The headers or the body did not arrive in time (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed.',
    detail: 'The request did not arrive in time',
  },
  DuplicateExternalId: {
    status: 409,
    code: 'DUPLICATE_EXTERNAL_ID',
    title: 'Duplicate externalId',
    description: 'An order with this externalId already exists in the dashboard.',
    detail: 'An order with this externalId already exists in this dashboard',
  },
  InvalidTransition: {
    status: 409,
    code: 'INVALID_TRANSITION',
    title: 'Invalid transition',
    description:
      "The operator's transition table (ORDER_TRANSITIONS_FILE) does not allow this status change; without a table, every change of status is refused.",
    detail: (error) =>
      `The transition policy does not allow ${error.from} -> ${error.to}: the allowed changes of status are the operator's table, ` +
      'named by ORDER_TRANSITIONS_FILE (without one, every change of status is refused)',
  },
  WebhookLimitReached: {
    status: 409,
    code: 'WEBHOOK_LIMIT_REACHED',
    title: 'Webhook limit reached',
    description: 'The dashboard already has 20 webhook endpoints, the most it may have: delete one first.',
    detail: (error) => `The dashboard already has ${error.limit} webhook endpoints, the most it may have: delete one first`,
  },
  WebhookDisabled: {
    status: 409,
    code: 'WEBHOOK_DISABLED',
    title: 'Webhook disabled',
    description: 'The endpoint is disabled, and a disabled endpoint is sent nothing: enable it first (PATCH `enabled: true`).',
    detail: 'The webhook endpoint is disabled; enable it first',
  },
  IdempotencyKeyInProgress: {
    status: 409,
    code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
    title: 'Idempotency key in progress',
    description: 'A request with the same Idempotency-Key is still being executed; retry after `Retry-After` seconds.',
    detail: 'A request with this Idempotency-Key is still being executed; retry later',
  },
  PayloadTooLarge: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    title: 'Payload too large',
    description: 'The body is larger than the configured limit (BODY_LIMIT_BYTES, 256 KiB by default).',
    detail: (error) =>
      `The body is larger than ${error.limitBytes} bytes, the operator's limit (BODY_LIMIT_BYTES; BATCH_BODY_LIMIT_BYTES for a batch)`,
  },
  UnsupportedMediaType: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    title: 'Unsupported media type',
    description: 'The body was not sent as `application/json` (with no charset, or utf-8), or with a `Content-Encoding`.',
    detail: (error) => error.reason,
  },
  IdempotencyKeyReused: {
    status: 422,
    code: 'IDEMPOTENCY_KEY_REUSED',
    title: 'Idempotency key reused',
    description: 'This Idempotency-Key was first used in the dashboard for another request: another method, path or body.',
    detail: 'This Idempotency-Key was used for a different request',
  },
  WebhookUrlNotAllowed: {
    status: 422,
    code: 'WEBHOOK_URL_NOT_ALLOWED',
    title: 'Webhook URL not allowed',
    description:
      'The URL is well-formed, but the service may not send to it: it is not `https://`, or its host is (or resolves to) a loopback, private, ' +
      'link-local, carrier-grade NAT, unique-local, multicast, unspecified or other reserved address, or does not resolve.',
    detail: (error) => error.reason,
  },
  RateLimitExceeded: {
    status: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    title: 'Rate limit exceeded',
    description:
      'The token has used up its quota for the current window; `Retry-After` is the seconds until it resets. Nothing was executed.',
    detail: (error) =>
      `This token may make ${error.limit} request${error.limit === 1 ? '' : 's'} per ${error.windowSeconds} s ` +
      `(RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS), and this one goes beyond it: retry in ${error.retryAfterSeconds} s`,
  },
  TooManyHeavyRequests: {
    status: 429,
    code: 'TOO_MANY_HEAVY_REQUESTS',
    title: 'Too many heavy requests',
    description:
      'The dashboard already has as many requests with a large body (over HEAVY_BODY_BYTES, or chunked) in progress and waiting ' +
      'as it may; `Retry-After` says when to try again. Nothing was read or executed.',
    detail: (error) =>
      `This dashboard may have ${error.perDashboard} request${error.perDashboard === 1 ? '' : 's'} with a large body in progress ` +
      `and ${error.queue} waiting (HEAVY_REQUESTS_PER_DASHBOARD, HEAVY_REQUEST_QUEUE), and this one goes beyond it: retry in ${error.retryAfterSeconds} s`,
  },
  HeadersTooLarge: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    title: 'Request header fields too large',
    description: 'The request headers are larger than the server accepts; the connection is closed.',
    detail: 'The request headers are too large',
  },
  InternalError: {
    status: 500,
    code: 'INTERNAL_ERROR',
    title: 'Internal error',
    description: 'An unexpected failure; the body holds no internals, the request id finds it in the logs.',
    detail: 'An unexpected error occurred; the request id identifies it in the logs',
  },
  NotReady: {
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    title: 'Service unavailable',
    description:
      'The service is not ready: shutting down, storage unreachable or unable to write (a full disk), or a background worker not running; `components` says which.',
    detail: (error) => (error.draining ? 'The service is shutting down' : 'The service is not ready; see components'),
  },
  ServiceUnavailable: {
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    title: 'Service unavailable',
    description: 'Storage is unreachable; retry after `Retry-After` seconds.',
    detail: 'Storage is unavailable; retry later',
  },
};

export const detailOf = (error: HttpError): string => {
  const { detail } = ERROR_TABLE[error._tag] as ErrorRow;
  return typeof detail === 'string' ? detail : detail(error);
};
