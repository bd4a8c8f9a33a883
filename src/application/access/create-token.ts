import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import type { ApiToken } from '../../domain/dashboard';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import { CLOCK, type Clock } from '../ports/clock';
import { DASHBOARD_REPOSITORY, type DashboardRepository } from '../ports/dashboard-repository';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator';
import { TOKEN_REPOSITORY, type TokenRepository } from '../ports/token-repository';
import { TOKEN_SECRETS, type TokenSecrets } from '../ports/token-secrets';

/** A token just made: the only moment its plain value exists outside the caller's hands. */
export interface IssuedToken {
  readonly token: ApiToken;
  readonly plain: string;
}

@injectable()
export class CreateToken {
  constructor(
    @inject(DASHBOARD_REPOSITORY) private readonly dashboards: DashboardRepository,
    @inject(TOKEN_REPOSITORY) private readonly tokens: TokenRepository,
    @inject(TOKEN_SECRETS) private readonly secrets: TokenSecrets,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Issues a token for the dashboard; only its hash is stored. */
  async execute(dashboardId: string, name?: string): Promise<E.Either<DashboardNotFound, IssuedToken>> {
    if (O.isNone(await this.dashboards.findById(dashboardId))) return E.left(dashboardNotFound(dashboardId));
    const plain = this.secrets.generate();
    const token: ApiToken = {
      id: this.ids.next('tok'),
      dashboardId,
      ...(name === undefined ? {} : { name }),
      hash: this.secrets.hash(plain),
      createdAt: this.clock.now(),
    };
    await this.tokens.insert(token);
    return E.right({ token, plain });
  }
}
