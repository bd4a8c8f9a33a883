import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { passwordProblem, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OpaqueSecrets, PasswordHasher } from '../ports/password-hasher';
import type { AccountError } from './account-errors';
import { openSession, type OpenedSession } from './sign-in';

/**
 * Accepts an invitation once (DECISIONS D17): the invited email gets the membership; a new user
 * chooses a password, an existing one keeps theirs (`password` is then ignored). Opens a session.
 */
export class AcceptInvitation {
  constructor(
    private readonly accounts: AccountStores,
    private readonly hasher: PasswordHasher,
    private readonly secrets: OpaqueSecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string, password: string): Promise<E.Either<AccountError, OpenedSession>> {
    const found = await this.accounts.invitations.findByTokenHash(this.secrets.hash(token));
    if (O.isNone(found)) return E.left({ _tag: 'InvitationInvalid', reason: 'unknown' });
    const invitation = found.value;
    const now = this.clock.now();
    if (invitation.acceptedAt !== undefined) return E.left({ _tag: 'InvitationInvalid', reason: 'accepted' });
    if (now.getTime() >= invitation.expiresAt.getTime()) return E.left({ _tag: 'InvitationInvalid', reason: 'expired' });
    const existing = await this.accounts.users.findByEmail(invitation.email);
    let user: User;
    if (O.isSome(existing)) user = existing.value;
    else {
      const problem = passwordProblem(password);
      if (problem !== undefined) return E.left({ _tag: 'PasswordRejected', reason: problem });
      user = {
        id: this.ids.next('usr'),
        email: invitation.email,
        passwordHash: await this.hasher.hash(password),
        createdAt: now,
        passwordChangedAt: now,
      };
    }
    // The invitation is spent first: of two racing acceptances, one goes on.
    if (!(await this.accounts.invitations.accept(invitation.id, now))) return E.left({ _tag: 'InvitationInvalid', reason: 'accepted' });
    if (O.isNone(existing) && !(await this.accounts.users.insert(user))) {
      const raced = await this.accounts.users.findByEmail(invitation.email);
      if (O.isNone(raced)) return E.left({ _tag: 'EmailTaken', email: invitation.email });
      user = raced.value;
    }
    const current = await this.accounts.memberships.find(user.id, invitation.dashboardId);
    // An owner invited as analyst stays owner: an invitation never lowers a role.
    if (O.isNone(current) || current.value.role !== 'owner')
      await this.accounts.memberships.put({ userId: user.id, dashboardId: invitation.dashboardId, role: invitation.role, createdAt: now });
    return E.right(await openSession(this.accounts, this.secrets, user, now));
  }
}
