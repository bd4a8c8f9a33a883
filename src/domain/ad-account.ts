/**
 * An ad account: one Meta, Google Ads or TikTok account whose daily spend the service reads by itself
 * (docs/ad-platforms.md). Its credentials are kept sealed (encrypted); the domain never sees them in
 * the clear, only the application does, in memory, on their way to the platform's adapter.
 */

/** The platforms an ad account can be read from. Each needs its adapter in src/adapters/ads, which does not compile without it. */
export const AD_PLATFORMS = ['meta', 'google', 'tiktok'] as const;
export type AdPlatformName = (typeof AD_PLATFORMS)[number];

export const isAdPlatform = (value: string): value is AdPlatformName => (AD_PLATFORMS as readonly string[]).includes(value);

/** How the account's links name campaigns and ads: by the platform's `name` or its `id` (as the link macros write them). */
export const CAMPAIGN_KEYS = ['name', 'id'] as const;
export type CampaignKey = (typeof CAMPAIGN_KEYS)[number];

/** `ok` after a sync that worked; `syncing` while one is asked for or running; `needsAttention` after one that failed. */
export const AD_ACCOUNT_STATUSES = ['ok', 'syncing', 'needsAttention'] as const;
export type AdAccountStatus = (typeof AD_ACCOUNT_STATUSES)[number];

/** The `utm_source` each platform's links use unless the account says otherwise. */
export const DEFAULT_UTM_SOURCE: Readonly<Record<AdPlatformName, string>> = { meta: 'facebook', google: 'google', tiktok: 'tiktok' };

/** The platforms' own words, for the console and the messages. */
export const AD_PLATFORM_LABELS: Readonly<Record<AdPlatformName, string>> = { meta: 'Meta', google: 'Google Ads', tiktok: 'TikTok' };

export const MAX_AD_ACCOUNTS_PER_DASHBOARD = 20;
export const MAX_AD_ACCOUNT_NAME_LENGTH = 200;
/** Credentials are a few hundred characters at most (Meta's system-user tokens about 200, Google's refresh tokens about 100). */
export const MAX_CREDENTIAL_LENGTH = 2_048;
/** The platform ids of pixels, conversion actions and test codes are short; this bounds what is stored. */
export const MAX_CONVERSION_FIELD_LENGTH = 200;
/** Platforms restate their recent days: each sync reads this many, today included. */
export const SYNC_DAYS = 28;
/** The platform's own message is kept at most this long. */
export const MAX_SYNC_MESSAGE_LENGTH = 1_000;

/** A credential is printable ASCII without spaces: every token, secret and id the platforms issue is. */
export const CREDENTIAL_PATTERN = /^[\x21-\x7E]+$/;
export const isCredential = (u: unknown): u is string =>
  typeof u === 'string' && u.length <= MAX_CREDENTIAL_LENGTH && CREDENTIAL_PATTERN.test(u);

export interface MetaCredentials {
  /** A system user's access token with `ads_read` on the ad account. */
  readonly accessToken: string;
}

export interface GoogleCredentials {
  readonly developerToken: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshToken: string;
  /** The manager account the access goes through (10 digits), when there is one. */
  readonly loginCustomerId?: string;
}

export interface TikTokCredentials {
  readonly accessToken: string;
}

export interface AdCredentialsOf {
  readonly meta: MetaCredentials;
  readonly google: GoogleCredentials;
  readonly tiktok: TikTokCredentials;
}
export type AdCredentials = AdCredentialsOf[AdPlatformName];

/**
 * Whether `value` holds exactly the credentials `platform` needs: what the vault gives back is checked
 * before it reaches an adapter.
 */
export const isCredentialsOf = <P extends AdPlatformName>(platform: P, value: unknown): value is AdCredentialsOf[P] => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  const required = CREDENTIAL_FIELDS[platform];
  const optional: readonly string[] = platform === 'google' ? ['loginCustomerId'] : [];
  return (
    required.every((name) => isCredential(fields[name])) &&
    optional.every((name) => fields[name] === undefined || isCustomerId(fields[name])) &&
    Object.keys(fields).every((name) => required.includes(name) || optional.includes(name))
  );
};

/** The credentials each platform needs, by name. */
export const CREDENTIAL_FIELDS: Readonly<Record<AdPlatformName, readonly string[]>> = {
  meta: ['accessToken'],
  google: ['developerToken', 'clientId', 'clientSecret', 'refreshToken'],
  tiktok: ['accessToken'],
};

/** A Google Ads customer id: 10 digits, written with or without the dashes of `123-456-7890`. */
/** The forms of each platform's account id, as a person copies it out of the platform (Meta's digits after `act_`). */
export const ACCOUNT_ID_PATTERNS: Readonly<Record<AdPlatformName, RegExp>> = {
  meta: /^(?:act_)?(\d{1,20})$/,
  google: /^(\d{10}|\d{3}-\d{3}-\d{4})$/,
  tiktok: /^\d{1,20}$/,
};

export const isCustomerId = (u: unknown): u is string => typeof u === 'string' && ACCOUNT_ID_PATTERNS.google.test(u);

/**
 * The account's id as the platform's API takes it, from what a person copies out of the platform's
 * screens: Meta's `act_123…` or `123…`, Google's `123-456-7890`, TikTok's advertiser id. Undefined
 * when it cannot be one.
 */
export const normalAccountId = (platform: AdPlatformName, given: string): string | undefined => {
  const trimmed = given.trim();
  switch (platform) {
    case 'meta':
      return ACCOUNT_ID_PATTERNS.meta.exec(trimmed)?.[1];
    case 'google':
      return isCustomerId(trimmed) ? trimmed.replace(/-/g, '') : undefined;
    case 'tiktok':
      return ACCOUNT_ID_PATTERNS.tiktok.test(trimmed) ? trimmed : undefined;
  }
};

/** What each platform's account id looks like, for the messages that refuse one. */
export const ACCOUNT_ID_RULES: Readonly<Record<AdPlatformName, string>> = {
  meta: 'an ad account id: digits, with or without act_ in front (act_1234567890)',
  google: 'a customer id of 10 digits, with or without dashes (123-456-7890)',
  tiktok: 'an advertiser id: digits (7012345678901234567)',
};

/** Sending paid orders back to the platform's conversions API (docs/ad-platforms.md): off unless enabled. */
export interface ConversionSettings {
  readonly enabled: boolean;
  /** Meta's dataset (pixel) id, Google's conversion action (resource name or id), TikTok's pixel code. */
  readonly target: string;
  /** Meta's and TikTok's `test_event_code`: events land in the platform's test view and count nowhere. */
  readonly testEventCode?: string;
  /** Google's test mode: each upload is checked (`validateOnly`) and not recorded. */
  readonly validateOnly?: boolean;
}

/** Whether the platform is told of paid orders in its test mode: it checks them and counts none. */
export const isTestMode = (settings: ConversionSettings): boolean => settings.testEventCode !== undefined || settings.validateOnly === true;

/** The last refusal of the platform's conversions API, until an event is accepted again: the account needs attention. */
export interface ConversionProblem {
  /** The platform's own message. */
  readonly message: string;
  /** When the refusals began. */
  readonly since: Date;
}

/** The field that names `ConversionSettings.target` in each platform's words. */
export const CONVERSION_TARGET_FIELD: Readonly<Record<AdPlatformName, 'pixelId' | 'conversionAction' | 'pixelCode'>> = {
  meta: 'pixelId',
  google: 'conversionAction',
  tiktok: 'pixelCode',
};

/** Where the account's sync stands: changed by syncs, never by an edit of the account. */
export interface AdAccountSync {
  readonly status: AdAccountStatus;
  /** The platform's own message about the last failed sync; absent after a sync that worked. */
  readonly message?: string;
  /** When a sync last worked: the figures are from then. */
  readonly lastSyncedAt?: Date;
  /** When the syncs started failing (the first failure since the last sync that worked). */
  readonly failingSince?: Date;
  /** When the next sync is due. */
  readonly nextSyncAt: Date;
  /** The account's currency and time zone as the platform said at the last sync that worked. */
  readonly currency?: string;
  readonly timeZone?: string;
}

export interface AdAccount {
  /** `ada_…`, about 131 random bits. */
  readonly id: string;
  readonly dashboardId: string;
  readonly platform: AdPlatformName;
  readonly name: string;
  /** The platform's id of the account, normalised (normalAccountId). */
  readonly accountId: string;
  readonly campaignKey: CampaignKey;
  readonly utmSource: string;
  readonly conversions?: ConversionSettings;
  /** Set by the sending of conversions alone, never by an edit: the platform refused the last one. */
  readonly conversionProblem?: ConversionProblem;
  /** The credentials, sealed by the credential vault for this account alone; never shown. */
  readonly sealedCredentials: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Starts at 1 and grows by one with every edit (not with syncs): the basis of optimistic concurrency. */
  readonly version: number;
  readonly sync: AdAccountSync;
}

/**
 * What the account writes its spend under: the platform and its account id. Reconnecting the same
 * platform account (after deleting it) takes its rows over instead of adding a second copy.
 */
export const spendOriginOf = (account: Pick<AdAccount, 'platform' | 'accountId'>): string => `${account.platform}:${account.accountId}`;

/** What a caller sends to connect an account, validated at the edge (the credentials sealed by then). */
export interface NewAdAccount {
  readonly platform: AdPlatformName;
  readonly name: string;
  readonly accountId: string;
  readonly campaignKey: CampaignKey;
  readonly utmSource?: string;
  readonly conversions?: ConversionSettings;
}

/** A new account, due for its first sync at once. */
export const newAdAccount = (
  input: NewAdAccount,
  ids: { readonly id: string; readonly dashboardId: string },
  sealedCredentials: string,
  now: Date,
): AdAccount => ({
  id: ids.id,
  dashboardId: ids.dashboardId,
  platform: input.platform,
  name: input.name,
  accountId: input.accountId,
  campaignKey: input.campaignKey,
  utmSource: input.utmSource ?? DEFAULT_UTM_SOURCE[input.platform],
  ...(input.conversions === undefined ? {} : { conversions: input.conversions }),
  sealedCredentials,
  createdAt: now,
  updatedAt: now,
  version: 1,
  sync: { status: 'syncing', nextSyncAt: now },
});

/** An edit of an account: what is given replaces what was; `null` conversions removes them. */
export interface AdAccountChanges {
  readonly name?: string;
  readonly campaignKey?: CampaignKey;
  readonly utmSource?: string;
  readonly conversions?: ConversionSettings | null;
  readonly sealedCredentials?: string;
}

export const changeAdAccount = (account: AdAccount, changes: AdAccountChanges, now: Date): AdAccount => {
  const { conversions: _conversions, ...kept } = account;
  const conversions = changes.conversions === undefined ? account.conversions : (changes.conversions ?? undefined);
  return {
    ...kept,
    name: changes.name ?? account.name,
    campaignKey: changes.campaignKey ?? account.campaignKey,
    utmSource: changes.utmSource ?? account.utmSource,
    ...(conversions === undefined ? {} : { conversions }),
    sealedCredentials: changes.sealedCredentials ?? account.sealedCredentials,
    updatedAt: now,
    version: account.version + 1,
  };
};

/**
 * Whether an edit changes what the spend rows say (their campaign and ad names, their source) or how
 * the platform is reached: then the account is synced again at once.
 */
export const needsSyncAfter = (changes: AdAccountChanges): boolean =>
  changes.campaignKey !== undefined || changes.utmSource !== undefined || changes.sealedCredentials !== undefined;
