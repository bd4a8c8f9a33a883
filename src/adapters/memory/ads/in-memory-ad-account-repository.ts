import * as O from 'fp-ts/Option';
import type {
  AdAccountInsert,
  AdAccountRepository,
  AdSyncClaim,
  AdSyncLease,
  ClaimedAdAccount,
} from '../../../application/ports/ad-account-repository';
import type { AdAccount, AdAccountSync, ConversionProblem } from '../../../domain/ad-account';
import { oldestFirst } from '../oldest-first';

interface Stored {
  account: AdAccount;
  leaseUntil: number;
  leaseId?: string;
}

/** Ad accounts in the process; each method decides and writes with no `await` in between, and hands out copies. */
export class InMemoryAdAccountRepository implements AdAccountRepository {
  private readonly byId = new Map<string, Stored>();

  async insert(account: AdAccount, limit: number): Promise<AdAccountInsert> {
    const ofDashboard = this.of(account.dashboardId);
    if (ofDashboard.some((s) => s.account.platform === account.platform && s.account.accountId === account.accountId)) return 'duplicate';
    if (ofDashboard.length >= limit) return 'limit';
    this.byId.set(account.id, { account: structuredClone(account), leaseUntil: 0 });
    return 'inserted';
  }

  async find(dashboardId: string, id: string): Promise<O.Option<AdAccount>> {
    const stored = this.byId.get(id);
    return stored === undefined || stored.account.dashboardId !== dashboardId ? O.none : O.some(structuredClone(stored.account));
  }

  async listByDashboard(dashboardId: string): Promise<readonly AdAccount[]> {
    return this.of(dashboardId)
      .map((s) => s.account)
      .sort(oldestFirst)
      .map((account) => structuredClone(account));
  }

  async replace(account: AdAccount): Promise<boolean> {
    const stored = this.byId.get(account.id);
    if (stored === undefined || stored.account.dashboardId !== account.dashboardId || stored.account.version !== account.version - 1)
      return false;
    const { conversionProblem: _given, ...settings } = account;
    const kept = stored.account.conversionProblem;
    stored.account = structuredClone({
      ...settings,
      sync: stored.account.sync,
      ...(kept === undefined ? {} : { conversionProblem: kept }),
    });
    return true;
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const stored = this.byId.get(id);
    if (stored === undefined || stored.account.dashboardId !== dashboardId) return false;
    this.byId.delete(id);
    return true;
  }

  async requestSync(dashboardId: string, id: string, now: Date): Promise<boolean> {
    const stored = this.byId.get(id);
    if (stored === undefined || stored.account.dashboardId !== dashboardId) return false;
    stored.account = { ...stored.account, sync: { ...stored.account.sync, status: 'syncing', nextSyncAt: new Date(now) } };
    return true;
  }

  async claimDue(claim: AdSyncClaim): Promise<O.Option<ClaimedAdAccount>> {
    const now = claim.now.getTime();
    const due = [...this.byId.values()]
      .filter(
        (s) => s.account.sync.nextSyncAt.getTime() <= now && s.leaseUntil <= now && !claim.skipDashboards.includes(s.account.dashboardId),
      )
      .sort(
        (a, b) => a.account.sync.nextSyncAt.getTime() - b.account.sync.nextSyncAt.getTime() || (a.account.id < b.account.id ? -1 : 1),
      )[0];
    if (due === undefined) return O.none;
    due.leaseUntil = now + claim.leaseMs;
    due.leaseId = claim.leaseId;
    due.account = { ...due.account, sync: { ...due.account.sync, status: 'syncing' } };
    return O.some({
      account: structuredClone(due.account),
      lease: { accountId: due.account.id, dashboardId: due.account.dashboardId, leaseId: claim.leaseId, claimedAt: new Date(now) },
    });
  }

  async renew(lease: AdSyncLease, until: Date): Promise<boolean> {
    const stored = this.held(lease);
    if (stored === undefined) return false;
    stored.leaseUntil = until.getTime();
    return true;
  }

  async finishSync(lease: AdSyncLease, sync: AdAccountSync): Promise<boolean> {
    const stored = this.held(lease);
    if (stored === undefined) return false;
    const askedSince = stored.account.sync.nextSyncAt.getTime() > lease.claimedAt.getTime();
    const { nextSyncAt } = stored.account.sync;
    stored.account = {
      ...stored.account,
      sync: askedSince ? { ...structuredClone(sync), status: 'syncing', nextSyncAt } : structuredClone(sync),
    };
    stored.leaseUntil = 0;
    delete stored.leaseId;
    return true;
  }

  async release(lease: AdSyncLease): Promise<void> {
    const stored = this.held(lease);
    if (stored === undefined) return;
    stored.leaseUntil = 0;
    delete stored.leaseId;
  }

  async setConversionProblem(dashboardId: string, id: string, problem: ConversionProblem | undefined): Promise<boolean> {
    const stored = this.byId.get(id);
    if (stored === undefined || stored.account.dashboardId !== dashboardId) return false;
    const { conversionProblem: _previous, ...rest } = stored.account;
    stored.account = problem === undefined ? rest : { ...rest, conversionProblem: structuredClone(problem) };
    return true;
  }

  /** Whether the dashboard has an account that sends conversions: the in-memory outbox's quick step skips its events. */
  sendsConversions(dashboardId: string): boolean {
    return this.of(dashboardId).some((s) => s.account.conversions?.enabled === true);
  }

  private held(lease: AdSyncLease): Stored | undefined {
    const stored = this.byId.get(lease.accountId);
    return stored !== undefined && stored.leaseId === lease.leaseId ? stored : undefined;
  }

  private of(dashboardId: string): Stored[] {
    return [...this.byId.values()].filter((s) => s.account.dashboardId === dashboardId);
  }
}
