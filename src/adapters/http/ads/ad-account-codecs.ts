import * as t from 'io-ts';
import {
  AD_ACCOUNT_STATUSES,
  AD_PLATFORMS,
  CAMPAIGN_KEYS,
  CREDENTIAL_PATTERN,
  isCredential,
  isCustomerId,
  MAX_AD_ACCOUNT_NAME_LENGTH,
  MAX_CONVERSION_FIELD_LENGTH,
  MAX_CREDENTIAL_LENGTH,
} from '../../../domain/ad-account';
import { IdParam } from '../access/admin-codecs';
import { bool, check, nullable, oneOf, str, strictObject } from '../kit/codec-kit';
import { utcDateTime } from '../kit/dates';
import { component, described } from '../kit/json-schema';
import { currency, text } from '../orders/order-codecs';

/** Codecs of what a caller sends and reads about ad accounts (docs/ad-platforms.md). */

export const adPlatform = component(
  'AdPlatform',
  oneOf(AD_PLATFORMS),
  'The ad platform: `meta` (Meta Marketing API), `google` (Google Ads API), `tiktok` (TikTok API for Business).',
);

const campaignKey = component(
  'CampaignKey',
  oneOf(CAMPAIGN_KEYS),
  "How the account's links name campaigns and ads in `utm_campaign` and `utm_content`: by `name` (Meta's `{{campaign.name}}`, TikTok's `__CAMPAIGN_NAME__`) or by `id` (Google's `{campaignid}`, Meta's `{{campaign.id}}`). The spend rows use the same, so that they meet the orders.",
);

const credential = check('Credential', isCredential, `must be 1 to ${MAX_CREDENTIAL_LENGTH} printable ASCII characters without spaces`, {
  type: 'string',
  minLength: 1,
  maxLength: MAX_CREDENTIAL_LENGTH,
  pattern: CREDENTIAL_PATTERN.source,
});

const customerId = check(
  'CustomerId',
  isCustomerId,
  'must be a Google Ads customer id of 10 digits, with or without dashes (123-456-7890)',
  {
    type: 'string',
    pattern: '^(\\d{10}|\\d{3}-\\d{3}-\\d{4})$',
  },
);

export const AdCredentialsBody = strictObject(
  'AdCredentials',
  {},
  {
    accessToken: described(
      credential,
      "Meta: a system user's access token with `ads_read` on the account. TikTok: the advertiser's access token.",
    ),
    developerToken: described(credential, 'Google: the Google Ads API developer token.'),
    clientId: described(credential, "Google: the OAuth client's id."),
    clientSecret: described(credential, "Google: the OAuth client's secret."),
    refreshToken: described(credential, 'Google: a refresh token granted for the `adwords` scope.'),
    loginCustomerId: described(customerId, 'Google, optional: the manager account the access goes through.'),
  },
  {
    description:
      'The credentials of the platform, and only those: Meta `accessToken`; Google `developerToken`, `clientId`, `clientSecret`, `refreshToken`, `loginCustomerId` (optional); TikTok `accessToken`. Encrypted at rest with CREDENTIALS_KEY, never shown again.',
  },
);

const conversionField = str(1, MAX_CONVERSION_FIELD_LENGTH);

export const ConversionsBody = strictObject(
  'AdConversionSettings',
  { enabled: described(bool, 'Whether paid orders are to be sent to the platform. Stored; the sending itself is not built yet.') },
  {
    pixelId: described(conversionField, 'Meta: the dataset (pixel) id.'),
    conversionAction: described(conversionField, 'Google: the conversion action (its id or resource name).'),
    pixelCode: described(conversionField, 'TikTok: the pixel code.'),
    testEventCode: described(conversionField, "Meta and TikTok: the `test_event_code` of the platform's test view."),
  },
  { description: "Sending paid orders back to the platform's conversions API: the platform's own field, and only it. Not sent yet." },
);

const name = str(1, MAX_AD_ACCOUNT_NAME_LENGTH);
const accountId = described(
  str(1, 64),
  "The platform's id of the account: Meta's ad account id (`act_…` or its digits), Google's customer id (`123-456-7890`), TikTok's advertiser id.",
);
const utmSource = described(text, "The `utm_source` of the account's links; `facebook`, `google` or `tiktok` by default.");

export const CreateAdAccountBody = strictObject(
  'CreateAdAccountRequest',
  { platform: adPlatform, name, accountId, credentials: AdCredentialsBody, campaignKey },
  { utmSource, conversions: ConversionsBody },
  { description: 'An ad account to read spend from. Unknown fields are refused.' },
);

export const UpdateAdAccountBody = strictObject(
  'UpdateAdAccountRequest',
  {},
  {
    name,
    campaignKey,
    utmSource,
    credentials: described(
      AdCredentialsBody,
      "New credentials (all the platform's), replacing the stored ones: after a token expired or was revoked.",
    ),
    conversions: described(nullable(ConversionsBody), '`null` removes them.'),
  },
  {
    description:
      'What changes; a change of the naming, the source or the credentials syncs the account again at once. Unknown fields are refused.',
  },
);

export const AdAccountPath = strictObject('AdAccountPath', { adAccountId: described(IdParam, 'The id of the ad account (`ada_…`).') });

const nullableTime = described(t.union([utcDateTime, t.null]), '`null` when there is none yet.');

export const AdAccountView = strictObject(
  'AdAccount',
  {
    id: described(t.string, 'Made by the service (`ada_…`).'),
    platform: adPlatform,
    name,
    accountId: described(t.string, "The platform's id of the account, as the API takes it (digits)."),
    campaignKey,
    utmSource: text,
    conversions: described(
      t.union([
        strictObject(
          'AdConversionSettingsView',
          { enabled: bool },
          { pixelId: t.string, conversionAction: t.string, pixelCode: t.string, testEventCode: t.string },
        ),
        t.null,
      ]),
      'The conversion settings, `null` when there are none. Nothing is sent yet.',
    ),
    status: described(
      component('AdAccountStatus', oneOf(AD_ACCOUNT_STATUSES), 'Where the sync of an ad account stands.'),
      "`ok` after a sync that worked; `syncing` while one is asked for or running; `needsAttention` after one that failed (`message` says why, in the platform's words; the spend of the last sync that worked stays).",
    ),
    message: described(t.union([t.string, t.null]), "The platform's message about the last failed sync; `null` after one that worked."),
    lastSyncedAt: described(nullableTime, 'When a sync last worked: the spend is as of then.'),
    failingSince: described(nullableTime, 'When the syncs started failing; `null` while they work.'),
    nextSyncAt: described(
      utcDateTime,
      'When the next sync is due (every hour, sooner after an outage, later when the platform asked to wait).',
    ),
    currency: described(
      t.union([currency, t.null]),
      "The account's currency as the platform said at the last sync that worked: its spend is in it.",
    ),
    timeZone: described(
      t.union([t.string, t.null]),
      "The account's time zone: its spend is by its days, which may differ from the dashboard's.",
    ),
    createdAt: utcDateTime,
    updatedAt: utcDateTime,
  },
  {},
  { description: 'An ad account, never its credentials.' },
);

export const AdAccountResponse = strictObject('AdAccountResponse', { adAccount: AdAccountView });
export const AdAccountList = strictObject('AdAccountList', { adAccounts: described(t.array(AdAccountView), 'Oldest first.') });
export const SyncAccepted = strictObject('AdSyncAccepted', {
  adAccount: described(AdAccountView, 'The account, `syncing`: read it again to see how the sync went.'),
});
