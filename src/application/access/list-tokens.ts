import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import type { ApiToken } from '../../domain/dashboard';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import { DASHBOARD_REPOSITORY, type DashboardRepository } from '../ports/dashboard-repository';
import { TOKEN_REPOSITORY, type TokenRepository } from '../ports/token-repository';

@injectable()
export class ListTokens {
  constructor(
    @inject(DASHBOARD_REPOSITORY) private readonly dashboards: DashboardRepository,
    @inject(TOKEN_REPOSITORY) private readonly tokens: TokenRepository,
  ) {}

  async execute(dashboardId: string): Promise<E.Either<DashboardNotFound, readonly ApiToken[]>> {
    if (O.isNone(await this.dashboards.findById(dashboardId))) return E.left(dashboardNotFound(dashboardId));
    return E.right(await this.tokens.listByDashboard(dashboardId));
  }
}
