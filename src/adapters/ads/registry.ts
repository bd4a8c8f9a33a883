import type { AdPlatforms } from '../../application/ports/ad-platform';
import type { ConversionPlatforms } from '../../application/ports/conversion-platform';
import { GoogleAds } from './google/google-ads';
import { GoogleConversions } from './google/google-conversions';
import { MetaAds } from './meta/meta-ads';
import { MetaConversions } from './meta/meta-conversions';
import { DEFAULT_CLIENT_SETTINGS, type PlatformClientSettings } from './platform-client';
import { TikTokAds } from './tiktok/tiktok-ads';
import { TikTokConversions } from './tiktok/tiktok-conversions';

export interface AdPlatformSettings {
  readonly metaApiUrl: string;
  readonly googleAdsApiUrl: string;
  readonly googleOAuthUrl: string;
  readonly tiktokApiUrl: string;
  readonly timeoutMs: number;
  /** Tests shorten the waits; production uses DEFAULT_CLIENT_SETTINGS's. */
  readonly client?: Partial<Omit<PlatformClientSettings, 'timeoutMs'>>;
}

/** The adapter of each platform; a platform added to AD_PLATFORMS does not compile until it has one here. */
export const adPlatformAdapters = (settings: AdPlatformSettings): AdPlatforms => {
  const client: PlatformClientSettings = { ...DEFAULT_CLIENT_SETTINGS, ...settings.client, timeoutMs: settings.timeoutMs };
  return {
    meta: new MetaAds({ ...client, baseUrl: settings.metaApiUrl }),
    google: new GoogleAds({ ...client, baseUrl: settings.googleAdsApiUrl, oauthUrl: settings.googleOAuthUrl }),
    tiktok: new TikTokAds({ ...client, baseUrl: settings.tiktokApiUrl }),
  };
};

/** Each platform's conversions API; a platform added to AD_PLATFORMS does not compile until it has one here. */
export const conversionPlatformAdapters = (settings: AdPlatformSettings): ConversionPlatforms => {
  const client: PlatformClientSettings = { ...DEFAULT_CLIENT_SETTINGS, ...settings.client, timeoutMs: settings.timeoutMs };
  return {
    meta: new MetaConversions({ baseUrl: settings.metaApiUrl, timeoutMs: settings.timeoutMs }),
    google: new GoogleConversions({ ...client, baseUrl: settings.googleAdsApiUrl, oauthUrl: settings.googleOAuthUrl }),
    tiktok: new TikTokConversions({ baseUrl: settings.tiktokApiUrl, timeoutMs: settings.timeoutMs }),
  };
};
