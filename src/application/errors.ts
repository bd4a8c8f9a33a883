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

export type AuthError = Unauthorized | TokenRevoked;
export type AdminError = DashboardNotFound | TokenNotFound;

/** Every expected outcome a use case can answer instead of its result. */
export type AppError = OrderError | AuthError | AdminError;

export const unauthorized: Unauthorized = { _tag: 'Unauthorized' };
export const tokenRevoked: TokenRevoked = { _tag: 'TokenRevoked' };
export const dashboardNotFound = (dashboardId: string): DashboardNotFound => ({
  _tag: 'DashboardNotFound',
  dashboardId,
});
export const tokenNotFound = (tokenId: string): TokenNotFound => ({ _tag: 'TokenNotFound', tokenId });
