import type { Dashboard } from '../../domain/dashboard';
import type { DashboardRepository } from '../ports/dashboard-repository';

export class ListDashboards {
  constructor(private readonly dashboards: DashboardRepository) {}

  execute(): Promise<readonly Dashboard[]> {
    return this.dashboards.list();
  }
}
