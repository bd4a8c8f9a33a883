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

/** No link with this id in the caller's dashboard (whether or not another dashboard has one). */
export interface LinkNotFound {
  readonly _tag: 'LinkNotFound';
  readonly linkId: string;
}

/** No short link with this slug: never made, deleted, or not a slug at all. */
export interface ShortLinkNotFound {
  readonly _tag: 'ShortLinkNotFound';
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
export type LinkError = LinkNotFound | ShortLinkNotFound;

/** Every expected outcome a use case can answer instead of its result. */
export type AppError = OrderError | AuthError | AdminError | GuardError | LinkError;

export const unauthorized: Unauthorized = { _tag: 'Unauthorized' };
export const tokenRevoked: TokenRevoked = { _tag: 'TokenRevoked' };
export const dashboardNotFound = (dashboardId: string): DashboardNotFound => ({
  _tag: 'DashboardNotFound',
  dashboardId,
});
export const tokenNotFound = (tokenId: string): TokenNotFound => ({ _tag: 'TokenNotFound', tokenId });
export const linkNotFound = (linkId: string): LinkNotFound => ({ _tag: 'LinkNotFound', linkId });
export const shortLinkNotFound: ShortLinkNotFound = { _tag: 'ShortLinkNotFound' };
