import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { DashboardRepository } from '../ports/dashboard-repository';
import type { IdGenerator } from '../ports/id-generator';
import type { OpaqueSecrets, PasswordHasher } from '../ports/password-hasher';
import type { RateLimitCounter } from '../ports/rate-limit-counter';
import { AcceptInvitation } from './accept-invitation';
import { AnsweringBusy } from './answering-busy';
import { AuthenticateSession } from './authenticate-session';
import { ChangePassword } from './change-password';
import { CreateOwner } from './create-owner';
import { DescribeInvitation } from './describe-invitation';
import { InviteMember } from './invite-member';
import { ListInvitations } from './list-invitations';
import { ListMembers } from './list-members';
import { ListUsers } from './list-users';
import { PasswordAttempts, type SignInLimits } from './password-attempts';
import { RemoveMember } from './remove-member';
import { ResetPassword } from './reset-password';
import { RevokeInvitation } from './revoke-invitation';
import { SignIn } from './sign-in';
import { SignOut } from './sign-out';

export interface AccountPorts {
  readonly accounts: AccountStores;
  readonly dashboards: DashboardRepository;
  readonly passwords: PasswordHasher;
  readonly opaqueSecrets: OpaqueSecrets;
  readonly rateLimits: RateLimitCounter;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly signInLimits?: SignInLimits;
}

export const accountUseCases = ({ accounts, dashboards, passwords, opaqueSecrets, rateLimits, ids, clock, signInLimits }: AccountPorts) => {
  const attempts = new PasswordAttempts(rateLimits, opaqueSecrets, signInLimits);
  const signIn = new SignIn(accounts, passwords, opaqueSecrets, attempts, clock);
  return {
    signIn: new AnsweringBusy(signIn),
    signOut: new SignOut(accounts, opaqueSecrets),
    authenticateSession: new AuthenticateSession(accounts, opaqueSecrets, clock),
    changePassword: new AnsweringBusy(new ChangePassword(accounts, passwords, opaqueSecrets, attempts, clock)),
    createOwner: new AnsweringBusy(new CreateOwner(accounts, dashboards, passwords, ids, clock)),
    resetPassword: new AnsweringBusy(new ResetPassword(accounts, passwords, clock)),
    listUsers: new ListUsers(accounts),
    inviteMember: new InviteMember(accounts, opaqueSecrets, ids, clock),
    describeInvitation: new DescribeInvitation(accounts, dashboards, opaqueSecrets, clock),
    // An existing account's password goes through sign-in: counted and throttled as any sign-in.
    acceptInvitation: new AnsweringBusy(new AcceptInvitation(accounts, passwords, opaqueSecrets, ids, clock, signIn)),
    listInvitations: new ListInvitations(accounts, clock),
    revokeInvitation: new RevokeInvitation(accounts),
    listMembers: new ListMembers(accounts),
    removeMember: new RemoveMember(accounts),
  };
};

export type AccountUseCases = ReturnType<typeof accountUseCases>;
