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
import { bsonCount, bsonDate } from '../bson-codecs';

/**
 * An ad account as read from `ad_accounts` (`_id` the account id); `slot` (its place among the
 * dashboard's accounts), `leaseUntil` and `leaseId` stay in the adapter.
 */
export const adAccountDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    platform: oneOfCodec(AD_PLATFORMS),
    accountId: t.string,
    name: t.string,
    campaignKey: oneOfCodec(CAMPAIGN_KEYS),
    utmSource: t.string,
    sealedCredentials: t.string,
    createdAt: bsonDate,
    updatedAt: bsonDate,
    version: bsonCount,
    status: oneOfCodec(AD_ACCOUNT_STATUSES),
    nextSyncAt: bsonDate,
  }),
  t.partial({
    conversions: storedConversionsCodec,
    conversionProblem: storedConversionProblemCodec,
    message: t.string,
    lastSyncedAt: bsonDate,
    failingSince: bsonDate,
    currency: t.string,
    timeZone: t.string,
  }),
]);

export interface AdAccountDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly [field: string]: unknown;
}

/** The fields of an edit: never the sync's. */
export const settingsOf = (account: AdAccount) => ({
  name: account.name,
  campaignKey: account.campaignKey,
  utmSource: account.utmSource,
  sealedCredentials: account.sealedCredentials,
  updatedAt: account.updatedAt,
  version: account.version,
});

/** The sync's fields to set, and those to remove (absent from `sync`). */
export const syncUpdate = (sync: AdAccountSync): { $set: Record<string, unknown>; $unset: Record<string, ''> } => {
  const optional = {
    message: sync.message,
    lastSyncedAt: sync.lastSyncedAt,
    failingSince: sync.failingSince,
    currency: sync.currency,
    timeZone: sync.timeZone,
  };
  return {
    $set: {
      status: sync.status,
      nextSyncAt: sync.nextSyncAt,
      ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    },
    $unset: Object.fromEntries(
      Object.entries(optional)
        .filter(([, v]) => v === undefined)
        .map(([k]) => [k, '']),
    ),
  };
};

export const adAccountToDocument = (account: AdAccount): AdAccountDocument => ({
  _id: account.id,
  dashboardId: account.dashboardId,
  platform: account.platform,
  accountId: account.accountId,
  ...settingsOf(account),
  ...(account.conversions === undefined ? {} : { conversions: account.conversions }),
  ...(account.conversionProblem === undefined ? {} : { conversionProblem: conversionProblemRecord(account.conversionProblem) }),
  createdAt: account.createdAt,
  ...syncUpdate(account.sync).$set,
});

export const adAccountFromDocument = (d: t.TypeOf<typeof adAccountDocumentCodec>): AdAccount => ({
  id: d._id,
  dashboardId: d.dashboardId,
  platform: d.platform,
  name: d.name,
  accountId: d.accountId,
  campaignKey: d.campaignKey,
  utmSource: d.utmSource,
  ...(d.conversions === undefined ? {} : { conversions: storedConversions(d.conversions) }),
  ...(d.conversionProblem === undefined ? {} : { conversionProblem: storedConversionProblem(d.conversionProblem) }),
  sealedCredentials: d.sealedCredentials,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  version: d.version,
  sync: {
    status: d.status,
    ...(d.message === undefined ? {} : { message: d.message }),
    ...(d.lastSyncedAt === undefined ? {} : { lastSyncedAt: d.lastSyncedAt }),
    ...(d.failingSince === undefined ? {} : { failingSince: d.failingSince }),
    nextSyncAt: d.nextSyncAt,
    ...(d.currency === undefined ? {} : { currency: d.currency }),
    ...(d.timeZone === undefined ? {} : { timeZone: d.timeZone }),
  },
});
