import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { AdAccountRepository } from '../../src/application/ports/ad-account-repository';
import { changeAdAccount, newAdAccount, type AdAccount } from '../../src/domain/ad-account';

const T0 = new Date('2026-11-20T10:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

const anAccount = (id: string, dashboardId = 'dsh_a', accountId = id.replace(/\D/g, '') || '1', createdAt = T0): AdAccount =>
  newAdAccount(
    {
      platform: 'meta',
      name: `Account ${id}`,
      accountId,
      campaignKey: 'name',
      conversions: { enabled: false, target: '123', testEventCode: 'TEST1' },
    },
    { id, dashboardId },
    'v1.sealed',
    createdAt,
  );

const claimAt = (repo: AdAccountRepository, now: Date, leaseId: string, skipDashboards: string[] = []) =>
  repo.claimDue({ now, leaseMs: 60_000, leaseId, skipDashboards });

const claimedId = (claimed: Awaited<ReturnType<AdAccountRepository['claimDue']>>): string | undefined =>
  O.isSome(claimed) ? claimed.value.account.id : undefined;

/** What every store of ad accounts must do alike: limits, one copy per platform account, edits apart from syncs, leases. */
export const adAccountRepositoryContract = (adapterName: string, factory: () => Promise<AdAccountRepository>): void => {
  describe(`AdAccountRepository contract: ${adapterName}`, () => {
    let repo: AdAccountRepository;
    beforeEach(async () => {
      repo = await factory();
    });

    it('stores, finds within its dashboard only, and lists oldest first', async () => {
      expect(await repo.insert(anAccount('ada_2', 'dsh_a', '2', at(5)), 20)).to.equal('inserted');
      expect(await repo.insert(anAccount('ada_1', 'dsh_a', '1', at(0)), 20)).to.equal('inserted');
      expect(await repo.insert(anAccount('ada_3', 'dsh_b', '3'), 20)).to.equal('inserted');
      const found = await repo.find('dsh_a', 'ada_1');
      expect(O.isSome(found) && found.value).to.deep.equal(anAccount('ada_1', 'dsh_a', '1', at(0)));
      expect(O.isNone(await repo.find('dsh_b', 'ada_1'))).to.equal(true);
      expect((await repo.listByDashboard('dsh_a')).map((a) => a.id)).to.deep.equal(['ada_1', 'ada_2']);
    });

    it('refuses a second copy of a platform account in a dashboard, and an account past the limit', async () => {
      expect(await repo.insert(anAccount('ada_1', 'dsh_a', '77'), 2)).to.equal('inserted');
      expect(await repo.insert(anAccount('ada_2', 'dsh_a', '77'), 2)).to.equal('duplicate');
      expect(await repo.insert(anAccount('ada_3', 'dsh_b', '77'), 2)).to.equal('inserted');
      expect(await repo.insert(anAccount('ada_4', 'dsh_a', '78'), 2)).to.equal('inserted');
      expect(await repo.insert(anAccount('ada_5', 'dsh_a', '79'), 2)).to.equal('limit');
      const racing = await Promise.all([6, 7, 8].map((n) => repo.insert(anAccount(`ada_${n}`, 'dsh_c', String(n)), 2)));
      expect(racing.filter((r) => r === 'inserted')).to.have.length(2);
    });

    it('replaces settings by version, never the sync, and deletes', async () => {
      await repo.insert(anAccount('ada_1'), 20);
      const stored = O.getOrElseW(() => undefined)(await repo.find('dsh_a', 'ada_1'))!;
      const renamed = changeAdAccount(stored, { name: 'Renamed', conversions: null, sealedCredentials: 'v1.other' }, at(1));
      expect(await repo.requestSync('dsh_a', 'ada_1', at(2))).to.equal(true);
      expect(await repo.replace(renamed)).to.equal(true);
      expect(await repo.replace(renamed)).to.equal(false);
      const after = O.getOrElseW(() => undefined)(await repo.find('dsh_a', 'ada_1'))!;
      expect(after.name).to.equal('Renamed');
      expect(after.conversions).to.equal(undefined);
      expect(after.sealedCredentials).to.equal('v1.other');
      expect(after.sync.nextSyncAt).to.deep.equal(at(2));
      expect(await repo.delete('dsh_b', 'ada_1')).to.equal(false);
      expect(await repo.delete('dsh_a', 'ada_1')).to.equal(true);
      expect(O.isNone(await repo.find('dsh_a', 'ada_1'))).to.equal(true);
      expect(await repo.requestSync('dsh_a', 'ada_1', at(3))).to.equal(false);
    });

    it('claims the longest due, one claimant at a time, skipping busy dashboards and live leases', async () => {
      await repo.insert(anAccount('ada_1', 'dsh_a', '1', at(0)), 20);
      await repo.insert(anAccount('ada_2', 'dsh_b', '2', at(-1_000)), 20);
      expect(claimedId(await claimAt(repo, at(-2_000), 'lse_0'))).to.equal(undefined);
      expect(claimedId(await claimAt(repo, at(1_000), 'lse_1', ['dsh_b']))).to.equal('ada_1');
      const racing = await Promise.all([claimAt(repo, at(1_000), 'lse_2'), claimAt(repo, at(1_000), 'lse_3')]);
      expect(racing.map(claimedId).sort()).to.deep.equal(['ada_2', undefined].sort());
      expect(claimedId(await claimAt(repo, at(30_000), 'lse_4'))).to.equal(undefined);
      // A lease not renewed ends: another claimant takes the account over.
      expect(claimedId(await claimAt(repo, at(62_000), 'lse_5', ['dsh_b']))).to.equal('ada_1');
    });

    it('records the end of a sync for the lease holder only, and keeps a sync asked for since the claim', async () => {
      await repo.insert(anAccount('ada_1'), 20);
      const claimed = await claimAt(repo, at(0), 'lse_1');
      if (O.isNone(claimed)) throw new Error('nothing claimed');
      expect(claimed.value.account.sync.status).to.equal('syncing');
      const { lease } = claimed.value;
      expect(await repo.renew(lease, at(90_000))).to.equal(true);
      expect(await repo.renew({ ...lease, leaseId: 'lse_other' }, at(90_000))).to.equal(false);
      const ok = { status: 'ok' as const, lastSyncedAt: at(5), nextSyncAt: at(3_600_000), currency: 'BRL', timeZone: 'America/Sao_Paulo' };
      expect(await repo.finishSync({ ...lease, leaseId: 'lse_other' }, ok)).to.equal(false);
      expect(await repo.finishSync(lease, ok)).to.equal(true);
      expect(await repo.finishSync(lease, ok)).to.equal(false);
      const synced = O.getOrElseW(() => undefined)(await repo.find('dsh_a', 'ada_1'))!;
      expect(synced.sync).to.deep.equal(ok);

      const again = await claimAt(repo, at(3_600_000), 'lse_2');
      if (O.isNone(again)) throw new Error('nothing claimed');
      await repo.requestSync('dsh_a', 'ada_1', at(3_600_500));
      const failed = {
        status: 'needsAttention' as const,
        message: 'Meta: expired',
        lastSyncedAt: at(5),
        failingSince: at(3_600_100),
        nextSyncAt: at(7_200_000),
      };
      expect(await repo.finishSync(again.value.lease, failed)).to.equal(true);
      const asked = O.getOrElseW(() => undefined)(await repo.find('dsh_a', 'ada_1'))!;
      expect(asked.sync).to.deep.equal({ ...failed, status: 'syncing', nextSyncAt: at(3_600_500) });
      expect(claimedId(await claimAt(repo, at(3_600_600), 'lse_3'))).to.equal('ada_1');
    });

    it('lets a released account be claimed again at once, as due as it was', async () => {
      await repo.insert(anAccount('ada_1'), 20);
      const claimed = await claimAt(repo, at(0), 'lse_1');
      if (O.isNone(claimed)) throw new Error('nothing claimed');
      await repo.release(claimed.value.lease);
      expect(claimedId(await claimAt(repo, at(1), 'lse_2'))).to.equal('ada_1');
    });
  });
};
