import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { ApiToken } from '../../domain/dashboard';
import { canonicalScopes, SCOPES, type Scope } from '../../domain/scope';
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

export interface TokenOptions {
  /** At least one; all by default (decision 0017). */
  readonly scopes?: readonly Scope[];
  readonly expiresAt?: Date;
}

export class CreateToken {
  constructor(
    private readonly dashboards: DashboardRepository,
    private readonly tokens: TokenRepository,
    private readonly secrets: TokenSecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Issues a token for the dashboard, with every scope unless told; only its hash is stored. */
  async execute(dashboardId: string, name?: string, options: TokenOptions = {}): Promise<E.Either<DashboardNotFound, IssuedToken>> {
    if (O.isNone(await this.dashboards.findById(dashboardId))) return E.left(dashboardNotFound(dashboardId));
    const plain = this.secrets.generate();
    const token: ApiToken = {
      id: this.ids.next('tok'),
      dashboardId,
      ...(name === undefined ? {} : { name }),
      hash: this.secrets.hash(plain),
      scopes: canonicalScopes(options.scopes ?? SCOPES),
      createdAt: this.clock.now(),
      ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }),
    };
    await this.tokens.insert(token);
    return E.right({ token, plain });
  }
}
