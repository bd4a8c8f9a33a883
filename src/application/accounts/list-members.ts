import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Membership, User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import { refusalOf } from './account-actor';
import type { AccountError } from './account-errors';

/** A dashboard's members with their roles, for one of its owners. */
export class ListMembers {
  constructor(private readonly accounts: AccountStores) {}

  async execute(ownerId: string, dashboardId: string): Promise<E.Either<AccountError, readonly { user: User; membership: Membership }[]>> {
    const refused = await refusalOf(this.accounts, { ownerId }, dashboardId);
    if (refused !== undefined) return E.left(refused);
    const memberships = await this.accounts.memberships.listByDashboard(dashboardId);
    const members = await Promise.all(
      memberships.map(async (membership) => ({ user: await this.accounts.users.findById(membership.userId), membership })),
    );
    return E.right(members.flatMap(({ user, membership }) => (O.isSome(user) ? [{ user: user.value, membership }] : [])));
  }
}
