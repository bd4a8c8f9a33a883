import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Dashboard } from '../../domain/dashboard';
import type { DashboardRepository } from '../ports/dashboard-repository';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';

/** The dashboard of a token, with its settings. */
export class GetDashboard {
  constructor(private readonly dashboards: DashboardRepository) {}

  async execute(id: string): Promise<E.Either<DashboardNotFound, Dashboard>> {
    const found = await this.dashboards.findById(id);
    return O.isSome(found) ? E.right(found.value) : E.left(dashboardNotFound(id));
  }
}
