import * as E from 'fp-ts/Either';
import {
  MAX_AD_ACCOUNTS_PER_DASHBOARD,
  newAdAccount,
  type AdAccount,
  type AdCredentials,
  type NewAdAccount,
} from '../../domain/ad-account';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { Clock } from '../ports/clock';
import type { CredentialVault } from '../ports/credential-vault';
import type { IdGenerator } from '../ports/id-generator';
import {
  credentialsKeyMissing,
  type AdAccountAlreadyConnected,
  type AdAccountLimitReached,
  type CredentialsKeyMissing,
} from '../shared/errors';
import type { AdSyncNudge } from './ad-sync-nudge';
import { credentialContext } from './credential-context';

export class ConnectAdAccount {
  constructor(
    private readonly accounts: AdAccountRepository,
    private readonly vault: CredentialVault,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly nudge: AdSyncNudge,
  ) {}

  /** Whether accounts can be connected at all: the service holds a key to encrypt their credentials with. */
  get available(): boolean {
    return this.vault.available;
  }

  /** Seals the credentials for the new account alone, stores it due at once, and wakes the sync. */
  async execute(
    dashboardId: string,
    input: NewAdAccount,
    credentials: AdCredentials,
  ): Promise<E.Either<AdAccountLimitReached | AdAccountAlreadyConnected | CredentialsKeyMissing, AdAccount>> {
    if (!this.vault.available) return E.left(credentialsKeyMissing);
    const id = this.ids.next('ada');
    const sealed = this.vault.seal(credentials, credentialContext(dashboardId, id));
    const account = newAdAccount(input, { id, dashboardId }, sealed, this.clock.now());
    const inserted = await this.accounts.insert(account, MAX_AD_ACCOUNTS_PER_DASHBOARD);
    if (inserted === 'limit') return E.left({ _tag: 'AdAccountLimitReached', limit: MAX_AD_ACCOUNTS_PER_DASHBOARD });
    if (inserted === 'duplicate')
      return E.left({ _tag: 'AdAccountAlreadyConnected', platform: input.platform, accountId: input.accountId });
    this.nudge.syncDue();
    return E.right(account);
  }
}
