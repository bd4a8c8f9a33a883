import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { isEmail, normalizeEmail, passwordProblem, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { IdGenerator } from '../ports/id-generator';
import { OPERATOR_CLIENT, type PasswordHasher } from '../ports/password-hasher';
import type { AccountError } from './account-errors';

export interface CreatedOwner {
  /** The new account, owner of the dashboard. */
  readonly user: User;
}

/**
 * A dashboard's owner from the CLI: always a new account, with the password given. An email that
 * already has an account is refused (`EmailTaken`), also when another process makes it meanwhile:
 * only an account adds itself to a dashboard, by accepting an invitation signed in as it or with its
 * password. Whoever holds that password may not be the person the operator has in mind (the holder of
 * an invitation link chooses the password of a new email's account).
 */
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
    if (O.isSome(await this.accounts.users.findByEmail(normalized))) return E.left({ _tag: 'EmailTaken', email: normalized });
    const problem = passwordProblem(password);
    if (problem !== undefined) return E.left({ _tag: 'PasswordRejected', reason: problem });
    const now = this.clock.now();
    const user: User = {
      id: this.ids.next('usr'),
      email: normalized,
      passwordHash: await this.hasher.hash(password, OPERATOR_CLIENT),
      createdAt: now,
      passwordChangedAt: now,
    };
    if (!(await this.accounts.users.insert(user))) return E.left({ _tag: 'EmailTaken', email: normalized });
    await this.accounts.memberships.put({ userId: user.id, dashboardId, role: 'owner', createdAt: now });
    return E.right({ user });
  }
}
