import { CONVERSION_TARGET_FIELD, type AdAccount } from '../../../domain/ad-account';

/** An ad account as the API shows it: never its credentials, sealed or not. */
export const adAccountView = (account: AdAccount) => ({
  id: account.id,
  platform: account.platform,
  name: account.name,
  accountId: account.accountId,
  campaignKey: account.campaignKey,
  utmSource: account.utmSource,
  conversions:
    account.conversions === undefined
      ? null
      : {
          enabled: account.conversions.enabled,
          [CONVERSION_TARGET_FIELD[account.platform]]: account.conversions.target,
          ...(account.conversions.testEventCode === undefined ? {} : { testEventCode: account.conversions.testEventCode }),
        },
  status: account.sync.status,
  message: account.sync.message ?? null,
  lastSyncedAt: account.sync.lastSyncedAt?.toISOString() ?? null,
  failingSince: account.sync.failingSince?.toISOString() ?? null,
  nextSyncAt: account.sync.nextSyncAt.toISOString(),
  currency: account.sync.currency ?? null,
  timeZone: account.sync.timeZone ?? null,
  createdAt: account.createdAt.toISOString(),
  updatedAt: account.updatedAt.toISOString(),
});
