import { inject, injectable } from 'tsyringe';
import type { Dashboard } from '../../domain/dashboard';
import { CLOCK, type Clock } from '../ports/clock';
import { DASHBOARD_REPOSITORY, type DashboardRepository } from '../ports/dashboard-repository';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator';

@injectable()
export class CreateDashboard {
  constructor(
    @inject(DASHBOARD_REPOSITORY) private readonly dashboards: DashboardRepository,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(name: string): Promise<Dashboard> {
    const dashboard: Dashboard = { id: this.ids.next('dsh'), name, createdAt: this.clock.now() };
    await this.dashboards.insert(dashboard);
    return dashboard;
  }
}
