import type { Membership, User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';

export interface ListedUser {
  readonly user: User;
  readonly memberships: readonly Membership[];
}

/** Every user with their memberships, oldest first (the CLI's `users list`). */
export class ListUsers {
  constructor(private readonly accounts: AccountStores) {}

  async execute(): Promise<readonly ListedUser[]> {
    const users = await this.accounts.users.list();
    return Promise.all(users.map(async (user) => ({ user, memberships: await this.accounts.memberships.listByUser(user.id) })));
  }
}
