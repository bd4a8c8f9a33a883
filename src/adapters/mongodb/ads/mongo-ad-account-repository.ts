import * as O from 'fp-ts/Option';
import type { Db, Filter } from 'mongodb';
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
import { guarded, insertUnlessDuplicate } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';
import {
  adAccountDocumentCodec,
  adAccountFromDocument,
  adAccountToDocument,
  settingsOf,
  syncUpdate,
  type AdAccountDocument,
} from './ad-account-documents';

const HIDDEN = { projection: { slot: 0, leaseUntil: 0, leaseId: 0 } } as const;
const FREE = new Date(0);

/**
 * Ad accounts in `ad_accounts`, one document each. The limit per dashboard rests on the unique
 * (dashboardId, slot) index as sources' does, one copy of a platform account on the unique
 * (dashboardId, platform, accountId) index; a claim is one findOneAndUpdate of the longest-due
 * account, and every write of a sync is conditioned on its lease id.
 */
export class MongoAdAccountRepository implements AdAccountRepository {
  private readonly accounts: MongoCollection<AdAccountDocument>;

  constructor(db: Db, logger: Logger) {
    this.accounts = new MongoCollection(db, 'adAccounts', logger);
  }

  async insert(account: AdAccount, limit: number): Promise<AdAccountInsert> {
    const document = { ...adAccountToDocument(account), leaseUntil: FREE };
    const copy = { dashboardId: account.dashboardId, platform: account.platform, accountId: account.accountId };
    for (let round = 0; round <= limit; round++) {
      if ((await guarded(() => this.accounts.documents.findOne(copy, { projection: { _id: 1 } }))) !== null) return 'duplicate';
      const taken = await guarded(() =>
        this.accounts.documents.find({ dashboardId: account.dashboardId }, { projection: { slot: 1 } }).toArray(),
      );
      const used = new Set(taken.map((found) => found['slot']));
      const slot = Array.from({ length: limit }, (_, i) => i).find((candidate) => !used.has(candidate));
      if (slot === undefined) return 'limit';
      if (await insertUnlessDuplicate(this.accounts.documents, { ...document, slot })) return 'inserted';
    }
    return 'limit';
  }

  async find(dashboardId: string, id: string): Promise<O.Option<AdAccount>> {
    const found = await guarded(() => this.accounts.documents.findOne({ _id: id, dashboardId }, HIDDEN));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async listByDashboard(dashboardId: string): Promise<readonly AdAccount[]> {
    const documents = await guarded(() => this.accounts.documents.find({ dashboardId }, HIDDEN).toArray());
    return documents
      .map((document) => this.decode(document))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async replace(account: AdAccount): Promise<boolean> {
    const update =
      account.conversions === undefined
        ? { $set: settingsOf(account), $unset: { conversions: '' as const } }
        : { $set: { ...settingsOf(account), conversions: account.conversions } };
    const result = await guarded(() =>
      this.accounts.documents.updateOne({ _id: account.id, dashboardId: account.dashboardId, version: account.version - 1 }, update),
    );
    return result.matchedCount === 1;
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const result = await guarded(() => this.accounts.documents.deleteOne({ _id: id, dashboardId }));
    return result.deletedCount === 1;
  }

  async requestSync(dashboardId: string, id: string, now: Date): Promise<boolean> {
    const result = await guarded(() =>
      this.accounts.documents.updateOne({ _id: id, dashboardId }, { $set: { status: 'syncing', nextSyncAt: now } }),
    );
    return result.matchedCount === 1;
  }

  async claimDue(claim: AdSyncClaim): Promise<O.Option<ClaimedAdAccount>> {
    const filter: Filter<AdAccountDocument> = {
      nextSyncAt: { $lte: claim.now },
      leaseUntil: { $lte: claim.now },
      ...(claim.skipDashboards.length === 0 ? {} : { dashboardId: { $nin: [...claim.skipDashboards] } }),
    };
    const found = await guarded(() =>
      this.accounts.documents.findOneAndUpdate(
        filter,
        { $set: { leaseUntil: new Date(claim.now.getTime() + claim.leaseMs), leaseId: claim.leaseId, status: 'syncing' } },
        { sort: { nextSyncAt: 1, _id: 1 }, returnDocument: 'after', ...HIDDEN },
      ),
    );
    return found === null ? O.none : O.some(claimedAdAccount(this.decode(found), claim));
  }

  async renew(lease: AdSyncLease, until: Date): Promise<boolean> {
    const result = await guarded(() =>
      this.accounts.documents.updateOne({ _id: lease.accountId, leaseId: lease.leaseId }, { $set: { leaseUntil: until } }),
    );
    return result.matchedCount === 1;
  }

  /** When a sync was asked for since the claim (its next sync moved past the claim), the status and that time stay. */
  async finishSync(lease: AdSyncLease, sync: AdAccountSync): Promise<boolean> {
    const { $set, $unset } = syncUpdate(sync);
    const held = { _id: lease.accountId, leaseId: lease.leaseId };
    const unset = { ...$unset, leaseId: '' as const };
    const asIs = await guarded(() =>
      this.accounts.documents.updateOne(
        { ...held, nextSyncAt: { $lte: lease.claimedAt } },
        { $set: { ...$set, leaseUntil: FREE }, $unset: unset },
      ),
    );
    if (asIs.matchedCount === 1) return true;
    const { status: _status, nextSyncAt: _next, ...rest } = $set;
    const asked = await guarded(() => this.accounts.documents.updateOne(held, { $set: { ...rest, leaseUntil: FREE }, $unset: unset }));
    return asked.matchedCount === 1;
  }

  async release(lease: AdSyncLease): Promise<void> {
    await guarded(() =>
      this.accounts.documents.updateOne(
        { _id: lease.accountId, leaseId: lease.leaseId },
        { $set: { leaseUntil: FREE }, $unset: { leaseId: '' } },
      ),
    );
  }

  async setConversionProblem(dashboardId: string, id: string, problem: ConversionProblem | undefined): Promise<boolean> {
    const update =
      problem === undefined
        ? { $unset: { conversionProblem: '' as const } }
        : { $set: { conversionProblem: conversionProblemRecord(problem) } };
    const result = await guarded(() => this.accounts.documents.updateOne({ _id: id, dashboardId }, update));
    return result.matchedCount === 1;
  }

  private decode(document: unknown): AdAccount {
    return adAccountFromDocument(this.accounts.decode(adAccountDocumentCodec, document));
  }
}
