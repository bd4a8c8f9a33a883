import { DEFAULT_TIMEZONE, type Dashboard } from '../../domain/dashboard';
import { DEFAULT_TAX_RATE } from '../../domain/tax-rate';
import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { IdGenerator } from '../ports/id-generator';

export class CreateDashboard {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(name: string, timezone = DEFAULT_TIMEZONE): Promise<Dashboard> {
    const dashboard: Dashboard = { id: this.ids.next('dsh'), name, timezone, taxRate: DEFAULT_TAX_RATE, createdAt: this.clock.now() };
    await this.dashboards.insert(dashboard);
    return dashboard;
  }
}
