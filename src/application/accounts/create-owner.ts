import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { isEmail, normalizeEmail, passwordProblem, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { IdGenerator } from '../ports/id-generator';
import type { PasswordHasher } from '../ports/password-hasher';
import type { AccountError } from './account-errors';

export interface CreatedOwner {
  readonly user: User;
  /** False when the email already had an account: it became an owner, its password unchanged. */
  readonly created: boolean;
}

/** The first owner of a dashboard, from the CLI (DECISIONS D17): a new user, or an existing one made owner. */
export class CreateOwner {
  constructor(
    private readonly accounts: AccountStores,
    private readonly dashboards: DashboardRepository,
    private readonly hasher: PasswordHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(dashboardId: string, email: string, password: string): Promise<E.Either<AccountError, CreatedOwner>> {
    const normalized = normalizeEmail(email);
    if (!isEmail(normalized)) return E.left({ _tag: 'InvalidEmail', email });
    if (O.isNone(await this.dashboards.findById(dashboardId))) return E.left({ _tag: 'DashboardNotFound', dashboardId });
    const now = this.clock.now();
    let user = await this.accounts.users.findByEmail(normalized);
    let created = false;
    if (O.isNone(user)) {
      const problem = passwordProblem(password);
      if (problem !== undefined) return E.left({ _tag: 'PasswordRejected', reason: problem });
      const fresh: User = {
        id: this.ids.next('usr'),
        email: normalized,
        passwordHash: await this.hasher.hash(password),
        createdAt: now,
        passwordChangedAt: now,
      };
      // Another process may have made it meanwhile: then it is the one made owner.
      created = await this.accounts.users.insert(fresh);
      user = created ? O.some(fresh) : await this.accounts.users.findByEmail(normalized);
      if (O.isNone(user)) return E.left({ _tag: 'EmailTaken', email: normalized });
    }
    await this.accounts.memberships.put({ userId: user.value.id, dashboardId, role: 'owner', createdAt: now });
    return E.right({ user: user.value, created });
  }
}
