import type { Option } from 'fp-ts/Option';
import type { AdAccount, AdAccountSync, ConversionProblem } from '../../domain/ad-account';

/** A claim on an account's sync: the lease holder alone may record how the sync ended. */
export interface AdSyncLease {
  readonly accountId: string;
  readonly dashboardId: string;
  readonly leaseId: string;
  /** When the claim was made: a sync asked for after it is still owed once this one ends. */
  readonly claimedAt: Date;
}

export interface ClaimedAdAccount {
  readonly account: AdAccount;
  readonly lease: AdSyncLease;
}

export interface AdSyncClaim {
  readonly now: Date;
  readonly leaseMs: number;
  /** The lease id to record (made by the caller, so that a claim can be told apart from another). */
  readonly leaseId: string;
  /** Dashboards whose accounts are not taken now (this process is syncing one of theirs already). */
  readonly skipDashboards: readonly string[];
}

export type AdAccountInsert = 'inserted' | 'limit' | 'duplicate';

/**
 * Where ad accounts live, with where each one's sync stands. Every method but the sync's is scoped by
 * dashboard. Edits (`replace`) and syncs (`requestSync`, `claimDue`, `finishSync`) change separate
 * parts of a record, so neither undoes the other. Implementations must agree on everything written
 * here (test/contract/ad-account-repository.contract.ts).
 */
export interface AdAccountRepository {
  /**
   * Stores a new account unless its dashboard already has `limit` accounts (`limit`) or already has
   * this platform account (`duplicate`: two copies would count its spend twice). Atomic under races.
   */
  insert(account: AdAccount, limit: number): Promise<AdAccountInsert>;

  /** The account, or `none` when the dashboard has none with this id. */
  find(dashboardId: string, id: string): Promise<Option<AdAccount>>;

  /** The dashboard's accounts, oldest first (then by id). */
  listByDashboard(dashboardId: string): Promise<readonly AdAccount[]>;

  /**
   * Replaces the account's settings and credentials (never its sync) when its stored version is
   * still `account.version - 1`; false, writing nothing, when another edit got there first or it is gone.
   */
  replace(account: AdAccount): Promise<boolean>;

  /** Deletes the account; false when the dashboard had none with this id. */
  delete(dashboardId: string, id: string): Promise<boolean>;

  /** Marks the account `syncing` and due now (a sync running keeps its lease); false when it is gone. */
  requestSync(dashboardId: string, id: string, now: Date): Promise<boolean>;

  /**
   * Claims the longest-due account (its next sync at or before `now`, no live lease), none of
   * `skipDashboards`: marks it `syncing` and leases it until `now + leaseMs`. Atomic: of racing
   * claims one wins. `none` when nothing is due.
   */
  claimDue(claim: AdSyncClaim): Promise<Option<ClaimedAdAccount>>;

  /** Extends a live lease; false when it was lost (expired and taken, or the account deleted). */
  renew(lease: AdSyncLease, until: Date): Promise<boolean>;

  /**
   * Records how the sync ended and ends the lease, if it is still the holder's; false otherwise,
   * writing nothing. A sync asked for since the claim (`requestSync`) stays due and `syncing`.
   */
  finishSync(lease: AdSyncLease, sync: AdAccountSync): Promise<boolean>;

  /** Ends the lease without recording anything: the account stays due as it was (a sync cut off at shutdown). */
  release(lease: AdSyncLease): Promise<void>;

  /**
   * Records the conversions API's last refusal (or, with undefined, that it accepts again), apart from
   * the settings and the sync: neither an edit nor a sync undoes it. False when the account is gone.
   */
  setConversionProblem(dashboardId: string, id: string, problem: ConversionProblem | undefined): Promise<boolean>;
}
