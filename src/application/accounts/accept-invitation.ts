import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { passwordProblem, type Invitation, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OpaqueSecrets, PasswordHasher } from '../ports/password-hasher';
import type { AccountError } from './account-errors';
import { openInvitation } from './invitation-acceptance';
import { openSession, type OpenedSession, type SignIn } from './sign-in';

export interface InvitationAnswer {
  readonly token: string;
  /** A new account's chosen password, or an existing account's current one; unused when signed in as it. */
  readonly password: string;
  /** The client's address, which a password for an existing account is throttled by, as at sign-in. */
  readonly address: string;
  /** The user the console is signed in as, if any. */
  readonly signedInUserId?: string;
}

export interface AcceptedInvitation {
  readonly user: User;
  readonly dashboardId: string;
  /** A session opened for the invitee; none when they were signed in already. */
  readonly session?: OpenedSession;
}

/**
 * Accepts an invitation once (decisions 0017, 0023): the invited email gets the membership, never a
 * lower role than it has. The link alone never signs in an existing account: its owner must be
 * signed in as it, or give its password, which goes through sign-in and so counts and is throttled
 * like any sign-in. Signed in as another account, it is refused. A new email chooses its password.
 */
export class AcceptInvitation {
  constructor(
    private readonly accounts: AccountStores,
    private readonly hasher: PasswordHasher,
    private readonly secrets: OpaqueSecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly signIn: SignIn,
  ) {}

  async execute(answer: InvitationAnswer): Promise<E.Either<AccountError, AcceptedInvitation>> {
    const now = this.clock.now();
    const opened = await openInvitation(this.accounts, this.secrets, answer.token, answer.signedInUserId, now);
    if (E.isLeft(opened)) return opened;
    const { invitation, acceptance } = opened.right;
    switch (acceptance.kind) {
      case 'otherAccount':
        return E.left({ _tag: 'SignedInAsAnother', email: invitation.email });
      case 'signedIn':
        return this.join(invitation, acceptance.user, now);
      case 'password': {
        // Checked before the invitation is spent: a wrong password leaves it for its rightful owner.
        const signedIn = await this.signIn.execute(invitation.email, answer.password, answer.address);
        if (E.isLeft(signedIn)) return signedIn;
        return this.join(invitation, signedIn.right.user, now, signedIn.right);
      }
      case 'newAccount':
        return this.create(invitation, answer.password, answer.address, now);
    }
  }

  private async create(
    invitation: Invitation,
    password: string,
    address: string,
    now: Date,
  ): Promise<E.Either<AccountError, AcceptedInvitation>> {
    const problem = passwordProblem(password);
    if (problem !== undefined) return E.left({ _tag: 'PasswordRejected', reason: problem });
    const user: User = {
      id: this.ids.next('usr'),
      email: invitation.email,
      passwordHash: await this.hasher.hash(password, address),
      createdAt: now,
      passwordChangedAt: now,
    };
    // The invitation is spent first: of two racing acceptances, one goes on.
    const spent = await this.spend(invitation, now);
    if (E.isLeft(spent)) return spent;
    // An account made for the email meanwhile (the CLI, another invitation) is not this one's to sign in.
    if (!(await this.accounts.users.insert(user))) return E.left({ _tag: 'EmailTaken', email: invitation.email });
    await this.addMember(invitation, user, now);
    return E.right({ user, dashboardId: invitation.dashboardId, session: await openSession(this.accounts, this.secrets, user, now) });
  }

  private async join(
    invitation: Invitation,
    user: User,
    now: Date,
    session?: OpenedSession,
  ): Promise<E.Either<AccountError, AcceptedInvitation>> {
    const spent = await this.spend(invitation, now);
    if (E.isLeft(spent)) {
      if (session !== undefined) await this.accounts.sessions.delete(session.session.idHash);
      return spent;
    }
    await this.addMember(invitation, user, now);
    return E.right({ user, dashboardId: invitation.dashboardId, ...(session === undefined ? {} : { session }) });
  }

  /** Marks the invitation accepted; another acceptance or a revocation may have come first. */
  private async spend(invitation: Invitation, now: Date): Promise<E.Either<AccountError, void>> {
    if (await this.accounts.invitations.accept(invitation.id, now)) return E.right(undefined);
    const revoked = O.isNone(await this.accounts.invitations.findById(invitation.id));
    return E.left({ _tag: 'InvitationInvalid', reason: revoked ? 'unknown' : 'accepted' });
  }

  /** The store never lowers an owner, so an owner invited as analyst stays owner. */
  private addMember(invitation: Invitation, user: User, now: Date): Promise<void> {
    return this.accounts.memberships.put({ userId: user.id, dashboardId: invitation.dashboardId, role: invitation.role, createdAt: now });
  }
}
