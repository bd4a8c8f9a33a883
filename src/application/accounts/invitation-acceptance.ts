import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Invitation, User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { OpaqueSecrets } from '../ports/password-hasher';
import type { AccountError } from './account-errors';

/**
 * How the holder of an invitation's link may accept it (decision 0023). The link proves nothing about
 * an account that already exists: its owner accepts by being signed in as it, or with its password.
 */
export type Acceptance =
  /** No account has the invited email: the invitee chooses its password. */
  | { readonly kind: 'newAccount' }
  /** The email's account, and nobody signed in: its current password is needed. */
  | { readonly kind: 'password'; readonly user: User }
  /** Signed in as the email's account: nothing more to prove. */
  | { readonly kind: 'signedIn'; readonly user: User }
  /** Signed in as another account than the email's: refused until it signs out. */
  | { readonly kind: 'otherAccount' };

export interface OpenInvitation {
  readonly invitation: Invitation;
  readonly acceptance: Acceptance;
}

/** The invitation a link's token names, if it can still be accepted, and how, for whoever is signed in (if anyone). */
export const openInvitation = async (
  accounts: AccountStores,
  secrets: OpaqueSecrets,
  token: string,
  signedInUserId: string | undefined,
  now: Date,
): Promise<E.Either<AccountError, OpenInvitation>> => {
  const found = await accounts.invitations.findByTokenHash(secrets.hash(token));
  if (O.isNone(found)) return E.left({ _tag: 'InvitationInvalid', reason: 'unknown' });
  const invitation = found.value;
  if (invitation.acceptedAt !== undefined) return E.left({ _tag: 'InvitationInvalid', reason: 'accepted' });
  if (now.getTime() >= invitation.expiresAt.getTime()) return E.left({ _tag: 'InvitationInvalid', reason: 'expired' });
  const existing = await accounts.users.findByEmail(invitation.email);
  const acceptance: Acceptance =
    signedInUserId !== undefined
      ? O.isSome(existing) && existing.value.id === signedInUserId
        ? { kind: 'signedIn', user: existing.value }
        : { kind: 'otherAccount' }
      : O.isSome(existing)
        ? { kind: 'password', user: existing.value }
        : { kind: 'newAccount' };
  return E.right({ invitation, acceptance });
};
