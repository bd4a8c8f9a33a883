import type * as E from 'fp-ts/Either';
import type { AdCredentialsOf, AdPlatformName } from '../../domain/ad-account';
import type { PlatformSpend, SyncFailure } from '../../domain/ad-spend';

export interface SpendQuery {
  /** The platform's id of the account (normalised). */
  readonly accountId: string;
  /** How many days to read, ending today in the account's time zone. */
  readonly days: number;
  readonly now: Date;
}

/**
 * One ad platform's reporting API (src/adapters/ads/<platform>): the account's currency and time zone,
 * then its spend per campaign and ad for each of the days asked, every page of it. Waits the platform
 * asks for are honoured; a refusal or an outage comes back as a `SyncFailure` with the platform's own
 * message, never as a rejection (only `signal` aborting rejects).
 */
export interface AdPlatform<P extends AdPlatformName = AdPlatformName> {
  readSpend(query: SpendQuery, credentials: AdCredentialsOf[P], signal: AbortSignal): Promise<E.Either<SyncFailure, PlatformSpend>>;
}

/** Every platform an account can be connected to: a new one is a new entry. */
export type AdPlatforms = { readonly [P in AdPlatformName]: AdPlatform<P> };
