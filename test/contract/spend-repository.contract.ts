import { expect } from 'chai';
import type { SpendRepository, SpendSumQuery } from '../../src/application/ports/spend-repository';
import type { SpendEntry } from '../../src/domain/spend';

const day = (n: number): string => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** Entries over about five months, several per day, some keys set twice (the second amount wins). */
const entries = (): SpendEntry[] => {
  const out: SpendEntry[] = [];
  for (let d = 0; d < 150; d += 2)
    for (const [i, campaign] of ['a', 'b', 'c'].entries())
      out.push({
        date: day(d),
        utmSource: i === 2 ? 'meta' : 'google',
        utmMedium: 'cpc',
        utmCampaign: campaign,
        utmContent: d % 4 === 0 ? 'v1' : '(not set)',
        currency: d % 10 === 0 ? 'USD' : 'BRL',
        amountCents: 100 + d * 3 + i,
      });
  return out;
};

const direct = (all: readonly SpendEntry[], q: SpendSumQuery): string[] => {
  const sums = new Map<string, number>();
  for (const e of all) {
    if (e.date < q.from || e.date > q.to) continue;
    if (Object.entries(q.filters).some(([d, v]) => (e as unknown as Record<string, string>)[d] !== v)) continue;
    const id = JSON.stringify([q.byDate ? e.date : '', q.by.map((d) => e[d]), e.currency]);
    sums.set(id, (sums.get(id) ?? 0) + e.amountCents);
  }
  return [...sums].map(([id, n]) => `${id}=${n}`).sort();
};

/** Every store's spend: set not added, listed newest day first, summed as a direct sum does. */
export const spendRepositoryContract = (adapterName: string, factory: () => Promise<SpendRepository>): void => {
  describe(`SpendRepository contract: ${adapterName}`, () => {
    let spend: SpendRepository;
    let stored: SpendEntry[];

    beforeEach(async () => {
      spend = await factory();
      stored = entries();
      for (let at = 0; at < stored.length; at += 100) await spend.upsert('dsh_a', stored.slice(at, at + 100));
      const changed = stored.filter((_, i) => i % 7 === 0).map((e) => ({ ...e, amountCents: e.amountCents * 2 }));
      await spend.upsert('dsh_a', changed);
      stored = stored.map((e, i) => (i % 7 === 0 ? { ...e, amountCents: e.amountCents * 2 } : e));
      await spend.upsert('dsh_other', stored.slice(0, 10));
    });

    const QUERIES: SpendSumQuery[] = [
      { from: day(0), to: day(149), by: [], byDate: false, filters: {} },
      { from: day(13), to: day(101), by: ['utmCampaign'], byDate: false, filters: {} },
      { from: day(31), to: day(58), by: ['utmSource', 'utmContent'], byDate: false, filters: { utmMedium: 'cpc' } },
      { from: day(40), to: day(45), by: ['utmCampaign'], byDate: false, filters: {} },
      { from: day(3), to: day(120), by: [], byDate: true, filters: {} },
      { from: day(3), to: day(120), by: [], byDate: true, filters: { utmCampaign: 'b' } },
    ];
    for (const q of QUERIES) {
      it(`sums ${JSON.stringify(q)} as a direct sum does`, async () => {
        const got = (await spend.sums('dsh_a', q))
          .map((s) => `${JSON.stringify([s.date ?? '', q.by.map((d) => s.key[d]), s.currency])}=${s.amountCents}`)
          .sort();
        expect(got).to.deep.equal(direct(stored, q));
      });
    }

    it("replaces an ad account's days, day by day, without touching uploads or other accounts", async () => {
      const synced = (adAccount: string, date: string, campaign: string, amountCents: number): SpendEntry => ({
        date,
        utmSource: 'facebook',
        utmMedium: '(not set)',
        utmCampaign: campaign,
        utmContent: 'ad',
        currency: 'BRL',
        amountCents,
        adAccount,
      });
      const uploaded = { ...synced('x', day(2), 'a', 500) };
      delete (uploaded as { adAccount?: string }).adAccount;
      await spend.upsert('dsh_sync', [uploaded]);
      await spend.replaceAdAccountDays('dsh_sync', 'meta:1', day(0), day(3), [
        synced('meta:1', day(0), 'a', 100),
        synced('meta:1', day(2), 'a', 200),
        synced('meta:1', day(3), 'b', 300),
      ]);
      await spend.replaceAdAccountDays('dsh_sync', 'meta:2', day(0), day(3), [synced('meta:2', day(2), 'a', 7)]);
      await spend.replaceAdAccountDays('dsh_sync', 'meta:1', day(2), day(4), [
        synced('meta:1', day(4), 'c', 400),
        synced('meta:1', day(2), 'a', 250),
      ]);
      const listed = await spend.list('dsh_sync', { page: 1, pageSize: 100 });
      const seen = listed.entries.map((e) => `${e.date} ${e.utmCampaign} ${e.amountCents} ${e.adAccount ?? 'upload'}`);
      expect(seen.sort()).to.deep.equal(
        [
          `${day(0)} a 100 meta:1`,
          `${day(2)} a 250 meta:1`,
          `${day(2)} a 500 upload`,
          `${day(2)} a 7 meta:2`,
          `${day(4)} c 400 meta:1`,
        ].sort(),
      );
      const sums = await spend.sums('dsh_sync', { from: day(0), to: day(4), by: ['utmCampaign'], byDate: false, filters: {} });
      expect(sums.map((s) => `${s.key.utmCampaign}=${s.amountCents}`).sort()).to.deep.equal(['a=857', 'c=400']);
      const days = await spend.sums('dsh_sync', { from: day(0), to: day(4), by: [], byDate: true, filters: {} });
      expect(days.map((s) => `${s.date}=${s.amountCents}`).sort()).to.deep.equal(
        [`${day(0)}=100`, `${day(2)}=757`, `${day(4)}=400`].sort(),
      );
      // An upload of the same key sets the upload's row, never the account's.
      await spend.upsert('dsh_sync', [{ ...uploaded, amountCents: 1 }]);
      expect((await spend.sums('dsh_sync', { from: day(2), to: day(2), by: [], byDate: false, filters: {} }))[0]?.amountCents).to.equal(
        258,
      );
    });

    it('lists newest day first, then by key, with the total, in pages', async () => {
      const all = await spend.list('dsh_a', { from: day(10), to: day(20), page: 1, pageSize: 100 });
      const inRange = stored.filter((e) => e.date >= day(10) && e.date <= day(20));
      expect(all.total).to.equal(inRange.length);
      expect(all.entries.map((e) => e.date)).to.deep.equal(
        inRange
          .map((e) => e.date)
          .sort()
          .reverse(),
      );
      const second = await spend.list('dsh_a', { from: day(10), to: day(20), page: 2, pageSize: 4 });
      expect(second.entries).to.deep.equal(all.entries.slice(4, 8));
      expect((await spend.list('dsh_none', { page: 1, pageSize: 10 })).total).to.equal(0);
    });
  });
};
