import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { SourceRepository } from '../../src/application/ports/source-repository';
import { aSource } from '../support/source-builders';

/** What every SourceRepository must do (src/application/ports/source-repository.ts). */
export const sourceRepositoryContract = (adapterName: string, factory: () => Promise<SourceRepository>): void => {
  describe(`SourceRepository contract: ${adapterName}`, () => {
    let sources: SourceRepository;

    beforeEach(async () => {
      sources = await factory();
    });

    it('stores a source and gives it back as stored, by dashboard and by id alone', async () => {
      const source = aSource('src_1', { platform: 'stripe', secret: 'whsec_abc', version: 3 });
      expect(await sources.insert(source, 50)).to.equal(true);
      expect(await sources.find('dsh_a', 'src_1')).to.deep.equal(O.some(source));
      expect(await sources.findById('src_1')).to.deep.equal(O.some(source));
      expect(await sources.findById('src_2')).to.deep.equal(O.none);
    });

    it("never shows another dashboard's source through the dashboard's methods", async () => {
      await sources.insert(aSource('src_1'), 50);
      expect(await sources.find('dsh_b', 'src_1')).to.deep.equal(O.none);
      expect(await sources.listByDashboard('dsh_b')).to.deep.equal([]);
      expect(await sources.delete('dsh_b', 'src_1')).to.equal(false);
      expect(await sources.replace(aSource('src_1', { dashboardId: 'dsh_b', version: 2, name: 'x' }))).to.equal(false);
      expect(await sources.find('dsh_a', 'src_1')).to.deep.equal(O.some(aSource('src_1')));
    });

    it('lists a dashboard oldest first, then by id', async () => {
      await sources.insert(aSource('src_c', { createdAt: new Date('2026-01-03T00:00:00.000Z') }), 50);
      await sources.insert(aSource('src_b'), 50);
      await sources.insert(aSource('src_a'), 50);
      await sources.insert(aSource('src_other', { dashboardId: 'dsh_b' }), 50);
      expect((await sources.listByDashboard('dsh_a')).map((s) => s.id)).to.deep.equal(['src_a', 'src_b', 'src_c']);
    });

    // Relies on an atomic limit: a count followed by an insert lets racing inserts pass it.
    it('never passes the limit under 12 racing inserts into one dashboard, and fills it exactly', async () => {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => sources.insert(aSource(`src_r${i}`), 5)));
      expect(results.filter(Boolean)).to.have.length(5);
      expect(await sources.listByDashboard('dsh_a')).to.have.length(5);
      expect(await sources.insert(aSource('src_b0', { dashboardId: 'dsh_b' }), 5)).to.equal(true);
    });

    // Relies on a compare-and-set on one record.
    it('lets exactly one of 8 racing replaces from one version win, and refuses a stale one', async () => {
      await sources.insert(aSource('src_1'), 50);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => sources.replace(aSource('src_1', { name: `racer ${i}`, version: 2 }))),
      );
      expect(results.filter(Boolean)).to.have.length(1);
      const stored = await sources.find('dsh_a', 'src_1');
      expect(O.isSome(stored) && stored.value.name).to.equal(`racer ${results.indexOf(true)}`);
      expect(await sources.replace(aSource('src_1', { name: 'stale', version: 2 }))).to.equal(false);
    });

    it('deletes a source once', async () => {
      await sources.insert(aSource('src_1'), 50);
      expect(await sources.delete('dsh_a', 'src_1')).to.equal(true);
      expect(await sources.findById('src_1')).to.deep.equal(O.none);
      expect(await sources.delete('dsh_a', 'src_1')).to.equal(false);
    });

    it('hands out copies: changing what it returned changes nothing stored', async () => {
      await sources.insert(aSource('src_1'), 50);
      const found = await sources.find('dsh_a', 'src_1');
      if (O.isSome(found)) (found.value as { name: string }).name = 'changed';
      expect(await sources.find('dsh_a', 'src_1')).to.deep.equal(O.some(aSource('src_1')));
    });
  });
};
