import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ApiToken } from '../../domain/dashboard';
import { dashboardNotFound, type DashboardNotFound } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { IdGenerator } from '../ports/id-generator';
import type { TokenRepository } from '../ports/token-repository';
import type { TokenSecrets } from '../ports/token-secrets';

/** A token just made: the only moment its plain value exists outside the caller's hands. */
export interface IssuedToken {
  readonly token: ApiToken;
  readonly plain: string;
}

export class CreateToken {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly tokens: TokenRepository,
    private readonly secrets: TokenSecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
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
