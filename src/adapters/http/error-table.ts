import type { HttpError } from './http-errors';

export interface ErrorRow {
  readonly status: number;
  readonly code: string;
  readonly title: string;
}

/**
 * Every error the service can answer, with its status and `code` (DECISIONS D1). A `Record` over the
 * union of tags: a new error variant does not compile until it has a row here.
 */
export const ERROR_TABLE: Readonly<Record<HttpError['_tag'], ErrorRow>> = {
  ValidationFailed: { status: 400, code: 'VALIDATION_FAILED', title: 'Validation failed' },
  MalformedJson: { status: 400, code: 'MALFORMED_JSON', title: 'Malformed JSON' },
  Unauthorized: { status: 401, code: 'UNAUTHORIZED', title: 'Unauthorized' },
  TokenRevoked: { status: 401, code: 'TOKEN_REVOKED', title: 'Token revoked' },
  OrderNotFound: { status: 404, code: 'NOT_FOUND', title: 'Not found' },
  DashboardNotFound: { status: 404, code: 'NOT_FOUND', title: 'Not found' },
  TokenNotFound: { status: 404, code: 'NOT_FOUND', title: 'Not found' },
  RouteNotFound: { status: 404, code: 'NOT_FOUND', title: 'Not found' },
  MethodNotAllowed: { status: 405, code: 'METHOD_NOT_ALLOWED', title: 'Method not allowed' },
  DuplicateExternalId: { status: 409, code: 'DUPLICATE_EXTERNAL_ID', title: 'Duplicate externalId' },
  InvalidTransition: { status: 409, code: 'INVALID_TRANSITION', title: 'Invalid transition' },
  IdempotencyKeyInProgress: { status: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS', title: 'Idempotency key in progress' },
  PayloadTooLarge: { status: 413, code: 'PAYLOAD_TOO_LARGE', title: 'Payload too large' },
  UnsupportedMediaType: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', title: 'Unsupported media type' },
  IdempotencyKeyReused: { status: 422, code: 'IDEMPOTENCY_KEY_REUSED', title: 'Idempotency key reused' },
  RateLimitExceeded: { status: 429, code: 'RATE_LIMIT_EXCEEDED', title: 'Rate limit exceeded' },
  InternalError: { status: 500, code: 'INTERNAL_ERROR', title: 'Internal error' },
  ServiceUnavailable: { status: 503, code: 'SERVICE_UNAVAILABLE', title: 'Service unavailable' },
};

/** The sentence for `detail`: only facts the caller sent or may know, never internals. */
export const detailOf = (error: HttpError): string => {
  switch (error._tag) {
    case 'ValidationFailed':
      return error.details.length === 1 ? '1 field is invalid' : `${error.details.length} fields are invalid`;
    case 'MalformedJson':
      return error.reason;
    case 'Unauthorized':
      return 'The bearer token is missing, malformed or unknown';
    case 'TokenRevoked':
      return 'The bearer token was revoked';
    case 'OrderNotFound':
      return 'No order with this externalId in this dashboard';
    case 'DashboardNotFound':
      return 'No dashboard with this id';
    case 'TokenNotFound':
      return 'No token with this id';
    case 'RouteNotFound':
      return 'No such route';
    case 'MethodNotAllowed':
      return `Allowed methods: ${error.allowed.join(', ')}`;
    case 'DuplicateExternalId':
      return 'An order with this externalId already exists in this dashboard';
    case 'InvalidTransition':
      return `The transition policy does not allow ${error.from} -> ${error.to}`;
    case 'IdempotencyKeyInProgress':
      return 'A request with this Idempotency-Key is still being executed; retry later';
    case 'IdempotencyKeyReused':
      return 'This Idempotency-Key was used for a different request';
    case 'RateLimitExceeded':
      return 'Too many requests for this token; retry after the window resets';
    case 'PayloadTooLarge':
      return `The body is larger than ${error.limitBytes} bytes`;
    case 'UnsupportedMediaType':
      return 'The body must be sent as Content-Type: application/json';
    case 'InternalError':
      return 'An unexpected error occurred; the request id identifies it in the logs';
    case 'ServiceUnavailable':
      return 'Storage is unavailable; retry later';
    default:
      return unreachable(error);
  }
};

const unreachable = (error: never): never => {
  throw new Error(`unhandled error ${JSON.stringify(error)}`);
};
