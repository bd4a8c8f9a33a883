import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { AdPlatforms } from '../ports/ad-platform';
import type { Clock } from '../ports/clock';
import type { CredentialVault } from '../ports/credential-vault';
import type { IdGenerator } from '../ports/id-generator';
import type { SpendRepository } from '../ports/spend-repository';
import type { ConversionNudge } from '../conversions/conversion-nudge';
import { ListConversions } from '../conversions/list-conversions';
import { SendConversions, type ConversionSendingSettings } from '../conversions/send-conversions';
import type { ConversionPlatforms } from '../ports/conversion-platform';
import type { ConversionRepository } from '../ports/conversion-repository';
import type { AdSyncNudge } from './ad-sync-nudge';
import { ConnectAdAccount } from './connect-ad-account';
import { DeleteAdAccount } from './delete-ad-account';
import { GetAdAccount } from './get-ad-account';
import { ListAdAccounts } from './list-ad-accounts';
import { RequestAdSync } from './request-ad-sync';
import { SyncAdAccounts, type AdSyncSettings } from './sync-ad-accounts';
import { UpdateAdAccount } from './update-ad-account';

export interface AdAccountPorts {
  readonly adAccounts: AdAccountRepository;
  readonly adPlatforms: AdPlatforms;
  readonly credentialVault: CredentialVault;
  readonly adSyncNudge: AdSyncNudge;
  readonly adSyncSettings: AdSyncSettings;
  readonly spend: SpendRepository;
  readonly conversions: ConversionRepository;
  readonly conversionPlatforms: ConversionPlatforms;
  readonly conversionSending: ConversionSendingSettings;
  readonly conversionNudge: ConversionNudge;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

/** Ad accounts, the sync of their spend and the conversions sent to them (docs/ad-platforms.md). */
export const adAccountUseCases = (p: AdAccountPorts) => ({
  connectAdAccount: new ConnectAdAccount(p.adAccounts, p.credentialVault, p.ids, p.clock, p.adSyncNudge),
  listAdAccounts: new ListAdAccounts(p.adAccounts),
  getAdAccount: new GetAdAccount(p.adAccounts),
  updateAdAccount: new UpdateAdAccount(p.adAccounts, p.credentialVault, p.clock, p.adSyncNudge, p.conversions, p.conversionNudge),
  deleteAdAccount: new DeleteAdAccount(p.adAccounts, p.conversions),
  requestAdSync: new RequestAdSync(p.adAccounts, p.clock, p.adSyncNudge),
  syncAdAccounts: new SyncAdAccounts(p.adAccounts, p.spend, p.adPlatforms, p.credentialVault, p.ids, p.clock, p.adSyncSettings),
  listConversions: new ListConversions(p.adAccounts, p.conversions),
  sendConversions: new SendConversions(
    p.conversions,
    p.adAccounts,
    p.conversionPlatforms,
    p.credentialVault,
    p.ids,
    p.clock,
    p.conversionSending,
  ),
});

export type AdAccountUseCases = ReturnType<typeof adAccountUseCases>;
