import type { OrderError } from '../domain/errors';

/** The bearer token is missing, malformed or unknown. */
export interface Unauthorized {
  readonly _tag: 'Unauthorized';
}

/** The bearer token exists but was revoked. */
export interface TokenRevoked {
  readonly _tag: 'TokenRevoked';
}

/** No dashboard with this id. */
export interface DashboardNotFound {
  readonly _tag: 'DashboardNotFound';
  readonly dashboardId: string;
}

/** No token with this id. */
export interface TokenNotFound {
  readonly _tag: 'TokenNotFound';
  readonly tokenId: string;
}

/** The Idempotency-Key was first used for another request (another method, path or body). */
export interface IdempotencyKeyReused {
  readonly _tag: 'IdempotencyKeyReused';
}

/** The first request with this Idempotency-Key is still being executed. */
export interface IdempotencyKeyInProgress {
  readonly _tag: 'IdempotencyKeyInProgress';
  readonly retryAfterSeconds: number;
}

/** The token used up its requests for the current window. */
export interface RateLimitExceeded {
  readonly _tag: 'RateLimitExceeded';
  readonly retryAfterSeconds: number;
}

export type AuthError = Unauthorized | TokenRevoked;
export type AdminError = DashboardNotFound | TokenNotFound;
export type GuardError = IdempotencyKeyReused | IdempotencyKeyInProgress | RateLimitExceeded;

/** Every expected outcome a use case can answer instead of its result. */
export type AppError = OrderError | AuthError | AdminError | GuardError;

export const unauthorized: Unauthorized = { _tag: 'Unauthorized' };
export const tokenRevoked: TokenRevoked = { _tag: 'TokenRevoked' };
export const dashboardNotFound = (dashboardId: string): DashboardNotFound => ({
  _tag: 'DashboardNotFound',
  dashboardId,
});
export const tokenNotFound = (tokenId: string): TokenNotFound => ({ _tag: 'TokenNotFound', tokenId });
