import * as E from 'fp-ts/Either';
import type * as O from 'fp-ts/Option';
import {
  AD_PLATFORM_LABELS,
  isCredentialsOf,
  spendOriginOf,
  SYNC_DAYS,
  type AdAccount,
  type AdPlatformName,
} from '../../domain/ad-account';
import { spendEntriesOf, syncFailed, syncSucceeded, type PlatformSpend, type SyncFailure } from '../../domain/ad-spend';
import type { AdAccountRepository, AdSyncLease, ClaimedAdAccount } from '../ports/ad-account-repository';
import type { AdPlatforms } from '../ports/ad-platform';
import type { Clock } from '../ports/clock';
import type { CredentialVault } from '../ports/credential-vault';
import type { IdGenerator } from '../ports/id-generator';
import type { SpendRepository } from '../ports/spend-repository';
import { whileLeased } from '../shared/lease-renewal';
import { credentialContext } from './credential-context';

export interface AdSyncSettings {
  /** How often each account is read: every hour. */
  readonly everyMs: number;
  /**
   * How long a claim on an account's sync holds unless renewed: short, so that the claims of a process
   * that died end soon and another process takes the account over.
   */
  readonly leaseMs: number;
  /** How often a sync in flight renews its claim: well within `leaseMs`. */
  readonly renewEveryMs: number;
}

interface AccountIds {
  readonly adAccountId: string;
  readonly dashboardId: string;
  readonly platform: AdPlatformName;
}

/** What came of one claimed sync, for the logs. */
export type AdSyncReport =
  | (AccountIds & {
      readonly kind: 'synced';
      readonly entries: number;
      readonly from: string;
      readonly to: string;
      readonly recorded: boolean;
    })
  | (AccountIds & { readonly kind: 'failed'; readonly failure: SyncFailure; readonly recorded: boolean })
  /** The service is stopping: the sync was cut off and the account left due as it was. */
  | (AccountIds & { readonly kind: 'aborted' });

/**
 * The sync workers' use case: claim a due account, read its recent days from the platform (with the
 * credentials opened in memory only), replace its spend rows for those days, and record how it went.
 * A failure keeps the rows the last sync wrote and says why, in the platform's words. Claims are
 * leases in the store, so several instances share the accounts and sync each one at a time.
 */
export class SyncAdAccounts {
  constructor(
    private readonly accounts: AdAccountRepository,
    private readonly spend: SpendRepository,
    private readonly platforms: AdPlatforms,
    private readonly vault: CredentialVault,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly settings: AdSyncSettings,
  ) {}

  /** The longest-due account of a dashboard not in `busyDashboards`, claimed. */
  claim(busyDashboards: readonly string[]): Promise<O.Option<ClaimedAdAccount>> {
    return this.accounts.claimDue({
      now: this.clock.now(),
      leaseMs: this.settings.leaseMs,
      leaseId: this.ids.next('lse'),
      skipDashboards: busyDashboards,
    });
  }

  async run(claimed: ClaimedAdAccount, signal: AbortSignal): Promise<AdSyncReport> {
    const { account, lease } = claimed;
    const ids: AccountIds = { adAccountId: account.id, dashboardId: account.dashboardId, platform: account.platform };
    return whileLeased(
      (until) => this.accounts.renew(lease, until),
      this.clock,
      this.settings,
      () => this.sync(account, lease, ids, signal),
    );
  }

  /** Reads the account's spend and records it, or why it could not be read, under the claim's lease. */
  private async sync(account: AdAccount, lease: AdSyncLease, ids: AccountIds, signal: AbortSignal): Promise<AdSyncReport> {
    let read: E.Either<SyncFailure, PlatformSpend>;
    try {
      read = await this.read(account, signal);
    } catch (err) {
      if (!signal.aborted) throw err;
      read = E.left({ kind: 'unavailable', message: 'cut off' });
    }
    if (signal.aborted) {
      await this.accounts.release(lease);
      return { kind: 'aborted', ...ids };
    }
    if (E.isLeft(read)) {
      const recorded = await this.accounts.finishSync(lease, syncFailed(account.sync, read.left, this.clock.now(), this.settings.everyMs));
      return { kind: 'failed', ...ids, failure: read.left, recorded };
    }
    const spend = read.right;
    const entries = spendEntriesOf(account, spend, spendOriginOf(account));
    await this.spend.replaceAdAccountDays(account.dashboardId, spendOriginOf(account), spend.from, spend.to, entries);
    const recorded = await this.accounts.finishSync(lease, syncSucceeded(spend, this.clock.now(), this.settings.everyMs));
    return { kind: 'synced', ...ids, entries: entries.length, from: spend.from, to: spend.to, recorded };
  }

  private async read(account: AdAccount, signal: AbortSignal): Promise<E.Either<SyncFailure, PlatformSpend>> {
    const opened = this.vault.open(account.sealedCredentials, credentialContext(account.dashboardId, account.id));
    if (E.isLeft(opened)) return E.left({ kind: 'needsAttention', message: `The credentials cannot be read: ${opened.left}` });
    const query = { accountId: account.accountId, days: SYNC_DAYS, now: this.clock.now() };
    const credentials = opened.right;
    const label = AD_PLATFORM_LABELS[account.platform];
    const unreadable = E.left<SyncFailure>({
      kind: 'needsAttention',
      message: `The stored credentials are not those ${label} needs: enter them again`,
    });
    switch (account.platform) {
      case 'meta':
        return isCredentialsOf('meta', credentials) ? this.platforms.meta.readSpend(query, credentials, signal) : unreadable;
      case 'google':
        return isCredentialsOf('google', credentials) ? this.platforms.google.readSpend(query, credentials, signal) : unreadable;
      case 'tiktok':
        return isCredentialsOf('tiktok', credentials) ? this.platforms.tiktok.readSpend(query, credentials, signal) : unreadable;
    }
  }
}
