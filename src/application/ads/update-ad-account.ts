import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { changeAdAccount, needsSyncAfter, type AdAccount, type AdAccountChanges, type AdCredentials } from '../../domain/ad-account';
import type { ConversionNudge } from '../conversions/conversion-nudge';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { ConversionRepository } from '../ports/conversion-repository';
import type { Clock } from '../ports/clock';
import type { CredentialVault } from '../ports/credential-vault';
import { changeStored } from '../shared/change-stored';
import { adAccountNotFound, credentialsKeyMissing, type AdAccountNotFound, type CredentialsKeyMissing } from '../shared/errors';
import type { AdSyncNudge } from './ad-sync-nudge';
import { credentialContext } from './credential-context';

export type AdAccountEdit = Omit<AdAccountChanges, 'sealedCredentials'> & { readonly credentials?: AdCredentials };

export class UpdateAdAccount {
  constructor(
    private readonly accounts: AdAccountRepository,
    private readonly vault: CredentialVault,
    private readonly clock: Clock,
    private readonly nudge: AdSyncNudge,
    private readonly conversions: ConversionRepository,
    private readonly conversionNudge: ConversionNudge,
  ) {}

  /**
   * Applies the edit (new credentials sealed like the first ones). An edit that changes how spend is
   * named or read makes the account due at once, so that its rows follow; new credentials also send at
   * once the conversions that were waiting for them.
   */
  async execute(
    dashboardId: string,
    id: string,
    edit: AdAccountEdit,
  ): Promise<E.Either<AdAccountNotFound | CredentialsKeyMissing, AdAccount>> {
    const { credentials, ...rest } = edit;
    if (credentials !== undefined && !this.vault.available) return E.left(credentialsKeyMissing);
    const changes: AdAccountChanges = {
      ...rest,
      ...(credentials === undefined ? {} : { sealedCredentials: this.vault.seal(credentials, credentialContext(dashboardId, id)) }),
    };
    const changed = await changeStored('ad account', this.accounts, dashboardId, id, (current) =>
      changeAdAccount(current, changes, this.clock.now()),
    );
    if (O.isNone(changed)) return E.left(adAccountNotFound(id));
    if (credentials !== undefined && (await this.conversions.makeDueOfAccount(dashboardId, id, this.clock.now())) > 0) {
      this.conversionNudge.conversionsDue();
    }
    if (needsSyncAfter(changes)) {
      await this.accounts.requestSync(dashboardId, id, this.clock.now());
      this.nudge.syncDue();
      const found = await this.accounts.find(dashboardId, id);
      if (O.isSome(found)) return E.right(found.value);
    }
    return E.right(changed.value);
  }
}
