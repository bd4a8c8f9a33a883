import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ApiToken } from '../../domain/dashboard';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { TokenRepository } from '../ports/token-repository';

export class ListTokens {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly tokens: TokenRepository,
  ) {}

  async execute(dashboardId: string): Promise<E.Either<DashboardNotFound, readonly ApiToken[]>> {
    if (O.isNone(await this.dashboards.findById(dashboardId))) return E.left(dashboardNotFound(dashboardId));
    return E.right(await this.tokens.listByDashboard(dashboardId));
  }
}
