import * as t from 'io-ts';
import {
  ACCOUNT_ID_PATTERNS,
  ACCOUNT_ID_RULES,
  AD_ACCOUNT_STATUSES,
  AD_PLATFORM_LABELS,
  type AdPlatformName,
  AD_PLATFORMS,
  CAMPAIGN_KEYS,
  CREDENTIAL_PATTERN,
  isCredential,
  isCustomerId,
  MAX_AD_ACCOUNT_NAME_LENGTH,
  MAX_CONVERSION_FIELD_LENGTH,
  MAX_CREDENTIAL_LENGTH,
} from '../../../domain/ad-account';
import { CONVERSION_FIELD_FORMS } from '../../../domain/ad-account-input';
import { ATTEMPT_OUTCOMES, CLICK_ID_NAMES, CONVERSION_KINDS, CONVERSION_STATUSES } from '../../../domain/conversion';
import { RESPONSE_BODY_LIMIT_BYTES } from '../../../domain/delivery';
import { IdParam } from '../access/admin-codecs';
import { arrayOf, bool, check, int, nullable, oneOf, str, strictObject } from '../kit/codec-kit';
import { utcDateTime } from '../kit/dates';
import { component, described, documented, oneOfSchema } from '../kit/json-schema';
import { listPage, pagingParams, single } from '../kit/list-query';
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
  { enabled: described(bool, "Whether each order that becomes paid is sent to the platform's conversions API.") },
  {
    pixelId: described(conversionField, `Meta: ${CONVERSION_FIELD_FORMS.pixelId.form}.`),
    conversionAction: described(conversionField, `Google: ${CONVERSION_FIELD_FORMS.conversionAction.form}.`),
    pixelCode: described(conversionField, `TikTok: ${CONVERSION_FIELD_FORMS.pixelCode.form}.`),
    testEventCode: described(
      conversionField,
      `Meta and TikTok: ${CONVERSION_FIELD_FORMS.testEventCode.form}; events sent with it count nowhere.`,
    ),
    validateOnly: described(bool, 'Google: `true` for its test mode: each upload is checked and not recorded.'),
  },
  {
    description: "Sending paid orders back to the platform's conversions API: the platform's own field, and only it. Off unless `enabled`.",
  },
);

const name = str(1, MAX_AD_ACCOUNT_NAME_LENGTH);
const accountId = described(
  str(1, 64),
  "The platform's id of the account: Meta's ad account id (`act_…` or its digits), Google's customer id (`123-456-7890`), TikTok's advertiser id.",
);
const utmSource = described(text, "The `utm_source` of the account's links; `facebook`, `google` or `tiktok` by default.");

/** What the service reads; each platform's rules (its account id, credentials and conversion field) are checked after. */
const createAdAccountFields = strictObject(
  'CreateAdAccountFields',
  { platform: adPlatform, name, accountId, credentials: AdCredentialsBody, campaignKey },
  { utmSource, conversions: ConversionsBody },
);

/** A pattern of the document: digits written `[0-9]`, as a validator that reads `\d` as any Unicode digit would not take them. */
const documentPattern = (pattern: RegExp): string => pattern.source.replace(/\\d/g, '[0-9]');

const patterned = (name: string, pattern: RegExp, message: string, maxLength: number) =>
  check(name, (u): u is string => typeof u === 'string' && u.length <= maxLength && pattern.test(u), message, {
    type: 'string',
    maxLength,
    pattern: documentPattern(pattern),
  });

const accountIdOf = (platform: AdPlatformName) =>
  described(
    patterned(`${platform} account id`, ACCOUNT_ID_PATTERNS[platform], `must be ${ACCOUNT_ID_RULES[platform]}`, 64),
    `${AD_PLATFORM_LABELS[platform]}: ${ACCOUNT_ID_RULES[platform]}.`,
  );

const conversionFieldOf = (field: keyof typeof CONVERSION_FIELD_FORMS) =>
  described(
    patterned(
      `conversion ${field}`,
      CONVERSION_FIELD_FORMS[field].pattern,
      `must be ${CONVERSION_FIELD_FORMS[field].form}`,
      MAX_CONVERSION_FIELD_LENGTH,
    ),
    `${CONVERSION_FIELD_FORMS[field].form[0].toUpperCase()}${CONVERSION_FIELD_FORMS[field].form.slice(1)}.`,
  );

const enabled = described(bool, "Whether each order that becomes paid is sent to the platform's conversions API.");
const testEventCode = described(conversionFieldOf('testEventCode'), 'Test mode: events sent with it count nowhere.');

/** One platform's request, as the document describes it: only the fields that platform takes, each of its form. */
const platformRequest = <P extends AdPlatformName>(
  platform: P,
  label: string,
  credentials: Record<string, t.Mixed>,
  optionalCredentials: Record<string, t.Mixed>,
  conversions: Record<string, t.Mixed>,
  optionalConversions: Record<string, t.Mixed>,
) =>
  strictObject(
    `Create${label}AdAccountRequest`,
    {
      platform: oneOf([platform] as const),
      name,
      accountId: accountIdOf(platform),
      credentials: strictObject(`${label}AdCredentials`, credentials, optionalCredentials, {
        description: `${AD_PLATFORM_LABELS[platform]}'s credentials: encrypted at rest with CREDENTIALS_KEY, never shown again.`,
      }),
      campaignKey,
    },
    {
      utmSource,
      conversions: strictObject(`${label}ConversionSettings`, { enabled, ...conversions }, optionalConversions, {
        description: `Sending paid orders back to ${AD_PLATFORM_LABELS[platform]}'s conversions API. Off unless \`enabled\`.`,
      }),
    },
    { description: `A ${AD_PLATFORM_LABELS[platform]} account to read spend from. Unknown fields are refused.` },
  );

const secret = (text: string) => described(credential, text);

const PLATFORM_REQUESTS = [
  {
    codec: platformRequest(
      'meta',
      'Meta',
      { accessToken: secret("A system user's access token with `ads_read` on the account.") },
      {},
      { pixelId: conversionFieldOf('pixelId') },
      { testEventCode },
    ),
    values: ['meta'],
  },
  {
    codec: platformRequest(
      'google',
      'Google',
      {
        developerToken: secret('The Google Ads API developer token.'),
        clientId: secret("The OAuth client's id."),
        clientSecret: secret("The OAuth client's secret."),
        refreshToken: secret('A refresh token granted for the `adwords` scope.'),
      },
      { loginCustomerId: described(customerId, 'Optional: the manager account the access goes through.') },
      { conversionAction: conversionFieldOf('conversionAction') },
      { validateOnly: described(bool, '`true` for its test mode: each upload is checked and not recorded.') },
    ),
    values: ['google'],
  },
  {
    codec: platformRequest(
      'tiktok',
      'TikTok',
      { accessToken: secret("The advertiser's access token.") },
      {},
      { pixelCode: conversionFieldOf('pixelCode') },
      { testEventCode },
    ),
    values: ['tiktok'],
  },
] as const;

/**
 * The request that connects an account. The document describes one request per platform, told apart
 * by `platform`, so that a generated client knows each platform's fields; the service reads the fields
 * of all three and refuses, each by name, the account id, credentials and conversion fields that are
 * not the platform's or not of their form.
 */
export const CreateAdAccountBody = documented(
  createAdAccountFields,
  (w) =>
    oneOfSchema(
      w,
      'platform',
      PLATFORM_REQUESTS,
      'An ad account to read spend from, with the fields of its platform. Unknown fields are refused.',
    ),
  'CreateAdAccountRequest',
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

const nullableTimeOf = () => t.union([utcDateTime, t.null]);
const nullableTime = described(nullableTimeOf(), '`null` when there is none yet.');

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
          {
            enabled: bool,
            status: described(
              component('AdConversionStatus', oneOf(['ok', 'needsAttention'] as const), ''),
              '`needsAttention` when the platform refused the last conversion (while `enabled`); `ok` otherwise.',
            ),
            message: described(t.union([t.string, t.null]), "The platform's own words about the refusal; `null` while it accepts."),
            failingSince: described(nullableTimeOf(), 'When the refusals began; `null` while it accepts.'),
          },
          { pixelId: t.string, conversionAction: t.string, pixelCode: t.string, testEventCode: t.string, validateOnly: bool },
        ),
        t.null,
      ]),
      'The conversion settings and whether the platform accepts what is sent, `null` when there are none.',
    ),
    status: described(
      component('AdAccountStatus', oneOf(AD_ACCOUNT_STATUSES), 'Where an ad account stands: its sync, and the conversions sent to it.'),
      "`ok` after a sync that worked; `syncing` while one is asked for or running; `needsAttention` after one that failed (`message` says why, in the platform's words; the spend of the last sync that worked stays), or when the platform refused the last conversion sent (`conversions.message`).",
    ),
    message: described(
      t.union([t.string, t.null]),
      "The platform's message about the last failed sync, else about the last refused conversion; `null` when neither.",
    ),
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

export const conversionKind = component(
  'ConversionEvent',
  oneOf(CONVERSION_KINDS),
  '`purchase` (the order became paid), `refund` and `chargeback` (Google only: sent as a retraction of the purchase).',
);
export const conversionStatus = component('ConversionStatus', oneOf(CONVERSION_STATUSES), 'Where a conversion stands.');

/** The query string of GET /api/v1/ad-accounts/{adAccountId}/conversions; unknown parameters are refused. */
export const ListConversionsQuery = strictObject(
  'ListConversionsQuery',
  {},
  { ...pagingParams('Conversions'), status: described(single(conversionStatus), 'Only conversions with this status.') },
);

const ConversionAttemptView = strictObject(
  'ConversionAttempt',
  {
    at: utcDateTime,
    durationMs: int(0, Number.MAX_SAFE_INTEGER),
    outcome: described(
      component('ConversionAttemptOutcome', oneOf(ATTEMPT_OUTCOMES), ''),
      '`accepted` by the platform; `refused` (a person must act: the account needs attention); `unavailable` (an outage, a rate limit, no answer: tried again).',
    ),
    test: described(bool, "Sent in the platform's test mode (`testEventCode`, `validateOnly`): counted nowhere."),
    responseStatus: described(t.union([int(100, 599), t.null]), 'The HTTP status the platform answered; `null` without an answer.'),
    reply: described(
      t.union([t.string, t.null]),
      `The start of the platform's answer (at most ${RESPONSE_BODY_LIMIT_BYTES} bytes); \`null\` without one.`,
    ),
    message: described(t.union([t.string, t.null]), "The platform's own message about a refusal or an outage; `null` when accepted."),
  },
  {},
);

export const ConversionView = strictObject(
  'Conversion',
  {
    id: described(t.string, 'Made by the service (`cnv_…`).'),
    orderId: described(t.string, "The order's `id`: the `event_id` (Meta, TikTok) and `orderId` (Google) sent."),
    externalId: described(t.string, "The order's `externalId`."),
    event: conversionKind,
    status: conversionStatus,
    occurredAt: described(utcDateTime, 'When the order was paid (refunded, charged back): the event time sent.'),
    valueCents: described(int(0, Number.MAX_SAFE_INTEGER), "The order's gross amount, sent as the value."),
    currency,
    matchedBy: described(
      arrayOf(oneOf([...CLICK_ID_NAMES, 'email', 'phone'] as const), 0, 3),
      "What was sent to match the buyer: the platform's click id, the hashed email, the hashed phone. The values are never shown.",
    ),
    attempts: described(arrayOf(ConversionAttemptView, 0, 100), 'Oldest first.'),
    nextAttemptAt: described(t.union([utcDateTime, t.null]), 'When the next attempt is due; `null` once finished.'),
    createdAt: utcDateTime,
  },
  {},
  { description: "One order change sent to the account's platform, and every attempt with the platform's reply." },
);

export const ConversionList = listPage(
  'ConversionList',
  'conversions',
  ConversionView,
  'Every conversion of the account matching the filter, on all pages.',
);
