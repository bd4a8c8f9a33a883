import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import { InMemoryDashboardRepository } from '../../../src/adapters/memory/accounts/in-memory-dashboard-repository';
import { CreateDashboard } from '../../../src/application/access/create-dashboard';
import { ListDashboards } from '../../../src/application/access/list-dashboards';
import { MutableClock } from '../../support/mutable-clock';
import { SequenceIds } from '../../support/sequence-ids';

describe('CreateDashboard and ListDashboards', () => {
  let dashboards: InMemoryDashboardRepository;
  let clock: MutableClock;
  let createDashboard: CreateDashboard;
  let listDashboards: ListDashboards;

  beforeEach(() => {
    dashboards = new InMemoryDashboardRepository();
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    createDashboard = new CreateDashboard(dashboards, new SequenceIds(), clock);
    listDashboards = new ListDashboards(dashboards);
  });

  it('creates a dashboard with a service-made id, the name given and the current time, and stores it', async () => {
    const dashboard = await createDashboard.execute('Shop A');
    expect(dashboard).to.deep.equal({
      id: 'dsh_000001',
      name: 'Shop A',
      timezone: 'UTC',
      taxRate: 0,
      createdAt: new Date('2026-03-01T12:00:00.000Z'),
    });
    expect(await dashboards.findById('dsh_000001')).to.deep.equal(O.some(dashboard));
  });

  it('lists every dashboard, oldest first', async () => {
    const first = await createDashboard.execute('First');
    clock.advance(1_000);
    const second = await createDashboard.execute('Second');
    expect(await listDashboards.execute()).to.deep.equal([first, second]);
  });

  it('lists nothing before any dashboard exists', async () => {
    expect(await listDashboards.execute()).to.deep.equal([]);
  });
});
