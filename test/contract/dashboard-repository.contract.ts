import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { DashboardRepository } from '../../src/application/ports/dashboard-repository';
import type { Dashboard } from '../../src/domain/dashboard';

const aDashboard = (id: string, changes: Partial<Dashboard> = {}): Dashboard => ({
  id,
  name: `Shop ${id} — Café`,
  timezone: 'America/Sao_Paulo',
  taxRate: 7.25,
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  ...changes,
});

export const dashboardRepositoryContract = (adapterName: string, factory: () => Promise<DashboardRepository>): void => {
  describe(`DashboardRepository contract: ${adapterName}`, () => {
    let dashboards: DashboardRepository;

    beforeEach(async () => {
      dashboards = await factory();
    });

    describe('insert and findById', () => {
      it('finds a stored dashboard by its id, exactly as it was stored', async () => {
        await dashboards.insert(aDashboard('dsh_1'));
        expect(await dashboards.findById('dsh_1')).to.deep.equal(O.some(aDashboard('dsh_1')));
      });

      it('gives back createdAt as a Date with its milliseconds', async () => {
        await dashboards.insert(aDashboard('dsh_1'));
        const found = await dashboards.findById('dsh_1');
        expect(O.isSome(found) && found.value.createdAt).to.be.instanceOf(Date);
        expect(O.isSome(found) && found.value.createdAt.toISOString()).to.equal('2026-01-02T03:04:05.678Z');
      });

      it('resolves none for an unknown id', async () => {
        await dashboards.insert(aDashboard('dsh_1'));
        expect(await dashboards.findById('dsh_2')).to.deep.equal(O.none);
      });

      it('does not share the found dashboard with the store', async () => {
        await dashboards.insert(aDashboard('dsh_1'));
        const found = await dashboards.findById('dsh_1');
        if (O.isNone(found)) throw new Error('dashboard not found');
        const scribbled = found.value as { name: string; createdAt: Date };
        scribbled.name = 'scribbled';
        scribbled.createdAt.setTime(0);
        expect(await dashboards.findById('dsh_1')).to.deep.equal(O.some(aDashboard('dsh_1')));
      });

      it('does not keep a reference to the dashboard it was given', async () => {
        const given = aDashboard('dsh_1');
        await dashboards.insert(given);
        (given as { name: string }).name = 'scribbled';
        expect(await dashboards.findById('dsh_1')).to.deep.equal(O.some(aDashboard('dsh_1')));
      });
    });

    describe('update', () => {
      it('stores a new name and time zone, keeping the rest, and says whether there was such a dashboard', async () => {
        await dashboards.insert(aDashboard('dsh_1'));
        const moved = aDashboard('dsh_1', { name: 'Renamed', timezone: 'Asia/Kathmandu' });
        expect(await dashboards.update(moved)).to.equal(true);
        expect(await dashboards.findById('dsh_1')).to.deep.equal(O.some(moved));
        expect(await dashboards.update(aDashboard('dsh_2'))).to.equal(false);
        expect(await dashboards.findById('dsh_2')).to.deep.equal(O.none);
      });
    });

    describe('tax rate', () => {
      it('reads back every tax rate of 2 decimals exactly as it was written (decision 0020)', async () => {
        // Each a number whose hundredfold is not an integer in floating point (0.29 × 100 = 28.999999999999996).
        const rates = [0, 0.01, 0.29, 1.15, 8.7, 12.34, 33.33, 99.99, 100];
        for (const [i, taxRate] of rates.entries()) {
          await dashboards.insert(aDashboard(`dsh_${i}`, { taxRate }));
          const found = await dashboards.findById(`dsh_${i}`);
          expect(O.isSome(found) && found.value.taxRate, String(taxRate)).to.equal(taxRate);
        }
        const changed = aDashboard('dsh_0', { taxRate: 17.57 });
        expect(await dashboards.update(changed)).to.equal(true);
        expect(await dashboards.findById('dsh_0')).to.deep.equal(O.some(changed));
      });
    });

    describe('list', () => {
      it('resolves an empty list when there is no dashboard', async () => {
        expect(await dashboards.list()).to.deep.equal([]);
      });

      it('lists every dashboard, oldest first, then by id ascending', async () => {
        const same = new Date('2026-01-05T00:00:00.000Z');
        const stored = [
          aDashboard('dsh_b', { createdAt: same }),
          aDashboard('dsh_late', { createdAt: new Date('2026-01-05T00:00:00.001Z') }),
          aDashboard('dsh_A', { createdAt: same }),
          aDashboard('dsh_a', { createdAt: same }),
          aDashboard('dsh_early', { createdAt: new Date('2026-01-04T23:59:59.999Z') }),
        ];
        for (const dashboard of stored) await dashboards.insert(dashboard);
        const listed = await dashboards.list();
        expect(listed.map((dashboard) => dashboard.id)).to.deep.equal(['dsh_early', 'dsh_A', 'dsh_a', 'dsh_b', 'dsh_late']);
        expect(listed).to.deep.equal([stored[4], stored[2], stored[3], stored[0], stored[1]]);
      });
    });
  });
};
