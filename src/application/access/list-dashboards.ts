import { inject, injectable } from 'tsyringe';
import type { Dashboard } from '../../domain/dashboard';
import { DASHBOARD_REPOSITORY, type DashboardRepository } from '../ports/dashboard-repository';

@injectable()
export class ListDashboards {
  constructor(@inject(DASHBOARD_REPOSITORY) private readonly dashboards: DashboardRepository) {}

  execute(): Promise<readonly Dashboard[]> {
    return this.dashboards.list();
  }
}
