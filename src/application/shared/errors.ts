import type { OrderError } from '../../domain/errors';
import type { Scope } from '../../domain/scope';

/** The bearer token is malformed or unknown. */
export interface Unauthorized {
  readonly _tag: 'Unauthorized';
}

/** The bearer token exists but was revoked. */
export interface TokenRevoked {
  readonly _tag: 'TokenRevoked';
}

/** The bearer token's `expiresAt` has passed. */
export interface TokenExpired {
  readonly _tag: 'TokenExpired';
}

/** The bearer token is valid but lacks the scope the operation needs (decision 0017). */
export interface InsufficientScope {
  readonly _tag: 'InsufficientScope';
  readonly needed: Scope;
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
  /** RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_SECONDS, for the answer to name. */
  readonly limit: number;
  readonly windowSeconds: number;
}

/** No webhook endpoint with this id in the caller's dashboard (whether or not another dashboard has one). */
export interface WebhookNotFound {
  readonly _tag: 'WebhookNotFound';
  readonly webhookId: string;
}

/** No delivery with this id among the endpoint's deliveries. */
export interface DeliveryNotFound {
  readonly _tag: 'DeliveryNotFound';
  readonly deliveryId: string;
}

/** The dashboard has as many endpoints as it may have (decision 0012: 20). */
export interface WebhookLimitReached {
  readonly _tag: 'WebhookLimitReached';
  readonly limit: number;
}

/** The URL may not be sent to: its scheme, or the addresses its host is or resolves to (decision 0012). */
export interface WebhookUrlNotAllowed {
  readonly _tag: 'WebhookUrlNotAllowed';
  /** Why, in words for the caller: never anything but facts about the URL they sent. */
  readonly reason: string;
}

/** The endpoint is disabled, and a disabled endpoint is sent nothing: enable it first. */
export interface WebhookDisabled {
  readonly _tag: 'WebhookDisabled';
  readonly webhookId: string;
}

/** No source with this id in the caller's dashboard (whether or not another dashboard has one). */
export interface SourceNotFound {
  readonly _tag: 'SourceNotFound';
  readonly sourceId: string;
}

/** The dashboard has as many sources as it may have. */
export interface SourceLimitReached {
  readonly _tag: 'SourceLimitReached';
  readonly limit: number;
}

/** A delivery to a source whose platform signature is missing or wrong (or too old): nothing of it is kept. */
export interface SourceSignatureInvalid {
  readonly _tag: 'SourceSignatureInvalid';
  readonly reason: string;
}

/** A delivery to a source id that does not exist (or no longer does). */
export interface UnknownSource {
  readonly _tag: 'UnknownSource';
}

/** No ad account with this id in the caller's dashboard (whether or not another dashboard has one). */
export interface AdAccountNotFound {
  readonly _tag: 'AdAccountNotFound';
  readonly adAccountId: string;
}

/** The dashboard has as many ad accounts as it may have. */
export interface AdAccountLimitReached {
  readonly _tag: 'AdAccountLimitReached';
  readonly limit: number;
}

/** The dashboard already has this platform account: a second copy would count its spend twice. */
export interface AdAccountAlreadyConnected {
  readonly _tag: 'AdAccountAlreadyConnected';
  readonly platform: string;
  readonly accountId: string;
}

/** The service runs without CREDENTIALS_KEY: credentials cannot be stored encrypted, so none are taken. */
export interface CredentialsKeyMissing {
  readonly _tag: 'CredentialsKeyMissing';
}

export type AuthError = Unauthorized | TokenRevoked | TokenExpired;
export type WebhookError = WebhookNotFound | DeliveryNotFound | WebhookLimitReached | WebhookUrlNotAllowed | WebhookDisabled;
export type AdminError = DashboardNotFound | TokenNotFound;
export type GuardError = IdempotencyKeyReused | IdempotencyKeyInProgress | RateLimitExceeded;
export type LinkError = LinkNotFound | ShortLinkNotFound;
export type SourceError = SourceNotFound | SourceLimitReached | SourceSignatureInvalid | UnknownSource;
export type AdAccountError = AdAccountNotFound | AdAccountLimitReached | AdAccountAlreadyConnected | CredentialsKeyMissing;

/** Every expected outcome a use case can answer instead of its result. */
export type AppError =
  OrderError | AuthError | InsufficientScope | AdminError | GuardError | WebhookError | LinkError | SourceError | AdAccountError;

export const unauthorized: Unauthorized = { _tag: 'Unauthorized' };
export const tokenRevoked: TokenRevoked = { _tag: 'TokenRevoked' };
export const tokenExpired: TokenExpired = { _tag: 'TokenExpired' };
export const insufficientScope = (needed: Scope): InsufficientScope => ({ _tag: 'InsufficientScope', needed });
export const dashboardNotFound = (dashboardId: string): DashboardNotFound => ({
  _tag: 'DashboardNotFound',
  dashboardId,
});
export const tokenNotFound = (tokenId: string): TokenNotFound => ({ _tag: 'TokenNotFound', tokenId });
export const webhookNotFound = (webhookId: string): WebhookNotFound => ({ _tag: 'WebhookNotFound', webhookId });
export const deliveryNotFound = (deliveryId: string): DeliveryNotFound => ({ _tag: 'DeliveryNotFound', deliveryId });
export const webhookDisabled = (webhookId: string): WebhookDisabled => ({ _tag: 'WebhookDisabled', webhookId });
export const linkNotFound = (linkId: string): LinkNotFound => ({ _tag: 'LinkNotFound', linkId });
export const shortLinkNotFound: ShortLinkNotFound = { _tag: 'ShortLinkNotFound' };
export const sourceNotFound = (sourceId: string): SourceNotFound => ({ _tag: 'SourceNotFound', sourceId });
export const unknownSource: UnknownSource = { _tag: 'UnknownSource' };
export const adAccountNotFound = (adAccountId: string): AdAccountNotFound => ({ _tag: 'AdAccountNotFound', adAccountId });
export const credentialsKeyMissing: CredentialsKeyMissing = { _tag: 'CredentialsKeyMissing' };
