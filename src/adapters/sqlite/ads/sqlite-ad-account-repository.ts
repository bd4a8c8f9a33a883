import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import type {
  AdAccountInsert,
  AdAccountRepository,
  AdSyncClaim,
  AdSyncLease,
  ClaimedAdAccount,
} from '../../../application/ports/ad-account-repository';
import type { Logger } from '../../../application/ports/logger';
import type { AdAccount, AdAccountSync, ConversionProblem } from '../../../domain/ad-account';
import { claimedAdAccount, conversionProblemRecord } from '../../persistence/ad-account-records';
import { columnLists } from '../column-lists';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import { builtStatements, skippingDashboards } from '../built-statements';
import type { SqliteDatabase } from '../sqlite-database';
import {
  AD_ACCOUNT_COLUMNS,
  AD_ACCOUNT_SETTING_COLUMNS,
  adAccountFromRow,
  adAccountRowCodec,
  adAccountToRow,
  syncToRow,
} from './ad-account-rows';

const { names: columns, bindings } = columnLists(AD_ACCOUNT_COLUMNS);
const settingUpdates = AD_ACCOUNT_SETTING_COLUMNS.map((column) => `${column} = @${column}`).join(', ');
const SYNC_COLUMNS = ['status', 'message', 'last_synced_at', 'failing_since', 'next_sync_at', 'currency', 'time_zone'];
/** The sync's columns but when the next sync is and the status, which a sync asked for since the claim keeps. */
const syncUpdates = SYNC_COLUMNS.filter((c) => c !== 'next_sync_at' && c !== 'status')
  .map((column) => `${column} = @${column}`)
  .join(', ');

/**
 * Ad accounts in `ad_accounts`. The limit and the one-copy-per-platform-account rule are settled in
 * the insert's write (a count, the unique index); a claim is one UPDATE of the longest-due row with
 * RETURNING, so of racing claims (processes included) one wins.
 */
export class SqliteAdAccountRepository implements AdAccountRepository {
  private readonly countOf: Statement;
  private readonly duplicateOf: Statement;
  private readonly insertAccount: Statement;
  private readonly selectOne: Statement;
  private readonly selectOfDashboard: Statement;
  private readonly updateSettings: Statement;
  private readonly deleteAccount: Statement;
  private readonly markAsked: Statement;
  private readonly claimOne: (skip: readonly string[]) => Statement;
  private readonly renewLease: Statement;
  private readonly finish: Statement;
  private readonly releaseLease: Statement;
  private readonly writeProblem: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.countOf = db.prepare('SELECT count(*) AS n FROM ad_accounts WHERE dashboard_id = ?');
    this.duplicateOf = db.prepare('SELECT 1 FROM ad_accounts WHERE dashboard_id = ? AND platform = ? AND account_id = ?');
    this.insertAccount = db.prepare(`INSERT INTO ad_accounts (${columns}, lease_until) VALUES (${bindings}, 0)`);
    this.selectOne = db.prepare(`SELECT ${columns} FROM ad_accounts WHERE id = ? AND dashboard_id = ?`);
    this.selectOfDashboard = db.prepare(`SELECT ${columns} FROM ad_accounts WHERE dashboard_id = ? ORDER BY created_at, id`);
    this.updateSettings = db.prepare(
      `UPDATE ad_accounts SET ${settingUpdates} WHERE id = @id AND dashboard_id = @dashboard_id AND version = @version - 1`,
    );
    this.deleteAccount = db.prepare('DELETE FROM ad_accounts WHERE id = ? AND dashboard_id = ?');
    this.markAsked = db.prepare(
      "UPDATE ad_accounts SET status = 'syncing', next_sync_at = @now WHERE id = @id AND dashboard_id = @dashboardId",
    );
    const claims = builtStatements(db);
    this.claimOne = (skip) =>
      claims(
        `UPDATE ad_accounts SET lease_until = ?, lease_id = ?, status = 'syncing'
       WHERE id = (SELECT id FROM ad_accounts WHERE next_sync_at <= ? AND lease_until <= ? ${skippingDashboards(skip)} ORDER BY next_sync_at, id LIMIT 1)
       RETURNING ${columns}`,
      );
    this.renewLease = db.prepare('UPDATE ad_accounts SET lease_until = @until WHERE id = @accountId AND lease_id = @leaseId');
    this.finish = db.prepare(
      `UPDATE ad_accounts SET ${syncUpdates},
         status = CASE WHEN next_sync_at > @claimedAt THEN 'syncing' ELSE @status END,
         next_sync_at = CASE WHEN next_sync_at > @claimedAt THEN next_sync_at ELSE @next_sync_at END,
         lease_until = 0, lease_id = NULL
       WHERE id = @accountId AND lease_id = @leaseId`,
    );
    this.releaseLease = db.prepare('UPDATE ad_accounts SET lease_until = 0, lease_id = NULL WHERE id = @accountId AND lease_id = @leaseId');
    this.writeProblem = db.prepare('UPDATE ad_accounts SET conversion_problem = ? WHERE id = ? AND dashboard_id = ?');
  }

  async insert(account: AdAccount, limit: number): Promise<AdAccountInsert> {
    const row = adAccountToRow(account);
    return this.db.write(() => {
      if (this.duplicateOf.get(account.dashboardId, account.platform, account.accountId) !== undefined) return 'duplicate';
      if ((this.countOf.get(account.dashboardId) as { n: number }).n >= limit) return 'limit';
      this.insertAccount.run(row);
      return 'inserted';
    });
  }

  async find(dashboardId: string, id: string): Promise<O.Option<AdAccount>> {
    const raw = this.db.read(() => this.selectOne.get(id, dashboardId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async listByDashboard(dashboardId: string): Promise<readonly AdAccount[]> {
    return this.db.read(() => this.selectOfDashboard.all(dashboardId)).map((raw) => this.decode(raw));
  }

  async replace(account: AdAccount): Promise<boolean> {
    const row = adAccountToRow(account);
    const bound = Object.fromEntries([...AD_ACCOUNT_SETTING_COLUMNS, 'id', 'dashboard_id'].map((column) => [column, row[column]]));
    return this.db.write(() => this.updateSettings.run(bound).changes === 1);
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    return this.db.write(() => this.deleteAccount.run(id, dashboardId).changes === 1);
  }

  async requestSync(dashboardId: string, id: string, now: Date): Promise<boolean> {
    return this.db.write(() => this.markAsked.run({ id, dashboardId, now: now.getTime() }).changes === 1);
  }

  async claimDue(claim: AdSyncClaim): Promise<O.Option<ClaimedAdAccount>> {
    const now = claim.now.getTime();
    const raw = await this.db.write(() =>
      this.claimOne(claim.skipDashboards).get(now + claim.leaseMs, claim.leaseId, now, now, ...claim.skipDashboards),
    );
    return raw === undefined ? O.none : O.some(claimedAdAccount(this.decode(raw), claim));
  }

  async renew(lease: AdSyncLease, until: Date): Promise<boolean> {
    return this.db.write(
      () => this.renewLease.run({ accountId: lease.accountId, leaseId: lease.leaseId, until: until.getTime() }).changes === 1,
    );
  }

  async finishSync(lease: AdSyncLease, sync: AdAccountSync): Promise<boolean> {
    const bound = { ...syncToRow(sync), accountId: lease.accountId, leaseId: lease.leaseId, claimedAt: lease.claimedAt.getTime() };
    return this.db.write(() => this.finish.run(bound).changes === 1);
  }

  async release(lease: AdSyncLease): Promise<void> {
    await this.db.write(() => this.releaseLease.run({ accountId: lease.accountId, leaseId: lease.leaseId }));
  }

  async setConversionProblem(dashboardId: string, id: string, problem: ConversionProblem | undefined): Promise<boolean> {
    const text = problem === undefined ? null : JSON.stringify(conversionProblemRecord(problem));
    return this.db.write(() => this.writeProblem.run(text, id, dashboardId).changes === 1);
  }

  private decode(raw: unknown): AdAccount {
    return adAccountFromRow(decodeRow(adAccountRowCodec, raw, 'ad_accounts', rowIdOf(raw), this.logger));
  }
}
