import * as t from 'io-ts';
import { AD_ACCOUNT_STATUSES, AD_PLATFORMS, CAMPAIGN_KEYS, type AdAccount, type AdAccountSync } from '../../../domain/ad-account';
import {
  conversionProblemRecord,
  storedConversionProblem,
  storedConversionProblemCodec,
  storedConversions,
  storedConversionsCodec,
} from '../../persistence/ad-account-records';
import { oneOfCodec } from '../../persistence/corrupt-record';
import { instant, jsonText, optionalInstant, positiveCount, present } from '../sqlite-codecs';

const optionalText = t.union([t.null, t.string]);

/** A row of `ad_accounts` as read back (its lease apart). */
export const adAccountRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  platform: oneOfCodec(AD_PLATFORMS, 'AdPlatform'),
  account_id: t.string,
  name: t.string,
  campaign_key: oneOfCodec(CAMPAIGN_KEYS, 'CampaignKey'),
  utm_source: t.string,
  conversions: t.union([t.null, jsonText(storedConversionsCodec)]),
  sealed_credentials: t.string,
  created_at: instant,
  updated_at: instant,
  version: positiveCount,
  status: oneOfCodec(AD_ACCOUNT_STATUSES, 'AdAccountStatus'),
  message: optionalText,
  last_synced_at: optionalInstant,
  failing_since: optionalInstant,
  next_sync_at: instant,
  currency: optionalText,
  time_zone: optionalText,
  conversion_problem: t.union([t.null, jsonText(storedConversionProblemCodec)]),
});

export const AD_ACCOUNT_COLUMNS: readonly string[] = Object.keys(adAccountRowCodec.props);
/** The columns an edit writes: never the sync's. */
export const AD_ACCOUNT_SETTING_COLUMNS: readonly string[] = [
  'name',
  'campaign_key',
  'utm_source',
  'conversions',
  'sealed_credentials',
  'updated_at',
  'version',
];

export const syncToRow = (sync: AdAccountSync): Record<string, string | number | null> => ({
  status: sync.status,
  message: sync.message ?? null,
  last_synced_at: sync.lastSyncedAt?.getTime() ?? null,
  failing_since: sync.failingSince?.getTime() ?? null,
  next_sync_at: sync.nextSyncAt.getTime(),
  currency: sync.currency ?? null,
  time_zone: sync.timeZone ?? null,
});

export const adAccountToRow = (account: AdAccount): Record<string, string | number | null> => ({
  id: account.id,
  dashboard_id: account.dashboardId,
  platform: account.platform,
  account_id: account.accountId,
  name: account.name,
  campaign_key: account.campaignKey,
  utm_source: account.utmSource,
  conversions: account.conversions === undefined ? null : JSON.stringify(account.conversions),
  sealed_credentials: account.sealedCredentials,
  created_at: account.createdAt.getTime(),
  updated_at: account.updatedAt.getTime(),
  version: account.version,
  ...syncToRow(account.sync),
  conversion_problem: account.conversionProblem === undefined ? null : JSON.stringify(conversionProblemRecord(account.conversionProblem)),
});

export const adAccountFromRow = (row: t.TypeOf<typeof adAccountRowCodec>): AdAccount => ({
  id: row.id,
  dashboardId: row.dashboard_id,
  platform: row.platform,
  name: row.name,
  accountId: row.account_id,
  campaignKey: row.campaign_key,
  utmSource: row.utm_source,
  ...(row.conversions === null ? {} : { conversions: storedConversions(row.conversions) }),
  ...(row.conversion_problem === null ? {} : { conversionProblem: storedConversionProblem(row.conversion_problem) }),
  sealedCredentials: row.sealed_credentials,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
  sync: {
    status: row.status,
    ...present('message', row.message),
    ...present('lastSyncedAt', row.last_synced_at),
    ...present('failingSince', row.failing_since),
    nextSyncAt: row.next_sync_at,
    ...present('currency', row.currency),
    ...present('timeZone', row.time_zone),
  },
});
