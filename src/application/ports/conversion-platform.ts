import type { AdCredentialsOf, AdPlatformName, ConversionSettings } from '../../domain/ad-account';
import type { Conversion, ConversionResult } from '../../domain/conversion';

export interface ConversionRequest {
  /** The platform's id of the account (normalised): Google's customer id is where conversions are uploaded. */
  readonly accountId: string;
  /** The account's settings at the time of sending: its pixel or conversion action, its test mode. */
  readonly settings: ConversionSettings;
  readonly conversion: Conversion;
}

export interface ConversionSent {
  readonly durationMs: number;
  readonly result: ConversionResult;
}

/**
 * One ad platform's conversions API (src/adapters/ads/<platform>): one request per conversion, its
 * answer read as the platform documents it. Retrying is the caller's (the outbox's schedule), so a
 * wait the platform asks for comes back in the result. Only `signal` aborting rejects.
 */
export interface ConversionPlatform<P extends AdPlatformName = AdPlatformName> {
  send(request: ConversionRequest, credentials: AdCredentialsOf[P], signal: AbortSignal): Promise<ConversionSent>;
}

/** Every platform an account can send conversions to. */
export type ConversionPlatforms = { readonly [P in AdPlatformName]: ConversionPlatform<P> };
