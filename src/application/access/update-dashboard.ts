import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Dashboard } from '../../domain/dashboard';
import type { DashboardRepository } from '../ports/dashboard-repository';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';

export interface DashboardChanges {
  readonly name?: string;
  readonly timezone?: string;
  /** Percent, checked by isTaxRate at the edge. */
  readonly taxRate?: number;
}

/** Renames a dashboard, moves it to another time zone (decision 0016) or sets its tax rate (decision 0020). */
export class UpdateDashboard {
  constructor(private readonly dashboards: DashboardRepository) {}

  async execute(id: string, changes: DashboardChanges): Promise<E.Either<DashboardNotFound, Dashboard>> {
    const found = await this.dashboards.findById(id);
    if (O.isNone(found)) return E.left(dashboardNotFound(id));
    const updated: Dashboard = { ...found.value, ...changes };
    return (await this.dashboards.update(updated)) ? E.right(updated) : E.left(dashboardNotFound(id));
  }
}
