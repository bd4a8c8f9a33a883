import * as O from 'fp-ts/Option';
import type { AccountStores } from '../ports/account-repositories';
import type { AccountError } from './account-errors';

/**
 * Who manages a dashboard's members and invitations: one of its owners, signed in to the console, or
 * the operator at the CLI, who runs it beside the store and may do whatever the store allows.
 */
export type AccountActor = { readonly ownerId: string } | 'operator';

/** Why the actor may not manage the dashboard's members; undefined when they may. */
export const refusalOf = async (accounts: AccountStores, actor: AccountActor, dashboardId: string): Promise<AccountError | undefined> => {
  if (actor === 'operator') return undefined;
  const membership = await accounts.memberships.find(actor.ownerId, dashboardId);
  return O.isSome(membership) && membership.value.role === 'owner' ? undefined : { _tag: 'RoleRequired', needed: 'owner' };
};
