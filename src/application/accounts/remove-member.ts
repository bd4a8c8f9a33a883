import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { normalizeEmail, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import { refusalOf, type AccountActor } from './account-actor';
import type { AccountError } from './account-errors';

/** A member named by their user id (the console) or their email (the CLI). */
export type MemberRef = { readonly userId: string } | { readonly email: string };

export interface RemovedMember {
  readonly user: User;
  readonly dashboardId: string;
}

/**
 * Ends a user's membership of a dashboard (decision 0023), an owner's own included, but never the
 * last owner's, however many removals race (the store decides atomically). The user's sessions go on
 * for their other dashboards; this one is gone from their next request, which reads the memberships
 * again.
 */
export class RemoveMember {
  constructor(private readonly accounts: AccountStores) {}

  async execute(actor: AccountActor, dashboardId: string, member: MemberRef): Promise<E.Either<AccountError, RemovedMember>> {
    const refused = await refusalOf(this.accounts, actor, dashboardId);
    if (refused !== undefined) return E.left(refused);
    const named = 'userId' in member ? member.userId : member.email;
    const user =
      'userId' in member
        ? await this.accounts.users.findById(member.userId)
        : await this.accounts.users.findByEmail(normalizeEmail(member.email));
    if (O.isNone(user)) return E.left({ _tag: 'MemberNotFound', dashboardId, member: named });
    switch (await this.accounts.memberships.remove(user.value.id, dashboardId)) {
      case 'removed':
        return E.right({ user: user.value, dashboardId });
      case 'notMember':
        return E.left({ _tag: 'MemberNotFound', dashboardId, member: named });
      case 'lastOwner':
        return E.left({ _tag: 'LastOwner', dashboardId });
    }
  }
}
