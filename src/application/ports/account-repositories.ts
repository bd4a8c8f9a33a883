import type { Option } from 'fp-ts/Option';
import type { Invitation, Membership, Session, User } from '../../domain/account';

/** Console users (DECISIONS D17): emails unique (stored lower-cased), passwords as hashes only. */
export interface UserRepository {
  /** False, and nothing stored, when the email is taken. */
  insert(user: User): Promise<boolean>;
  findById(id: string): Promise<Option<User>>;
  findByEmail(email: string): Promise<Option<User>>;
  /** Oldest first. */
  list(): Promise<readonly User[]>;
  /** False for an unknown user. */
  setPassword(userId: string, passwordHash: string, at: Date): Promise<boolean>;
}

/** Who may do what in which dashboard: one role per user and dashboard. */
export interface MembershipRepository {
  /** Sets the user's role in the dashboard, adding the membership if there is none. */
  put(membership: Membership): Promise<void>;
  find(userId: string, dashboardId: string): Promise<Option<Membership>>;
  listByUser(userId: string): Promise<readonly Membership[]>;
  /** Oldest first. */
  listByDashboard(dashboardId: string): Promise<readonly Membership[]>;
  /** False when there was none. */
  remove(userId: string, dashboardId: string): Promise<boolean>;
}

/** One-time invitations: the token's hash only. */
export interface InvitationRepository {
  insert(invitation: Invitation): Promise<void>;
  findByTokenHash(tokenHash: string): Promise<Option<Invitation>>;
  /**
   * Marks the invitation accepted at `at`, atomically, if it was not: of racing calls one gets true.
   * False when it was already accepted or does not exist.
   */
  accept(id: string, at: Date): Promise<boolean>;
  /** Newest first. */
  listByDashboard(dashboardId: string): Promise<readonly Invitation[]>;
}

/** Console sessions: the id's hash only. */
export interface SessionRepository {
  insert(session: Session): Promise<void>;
  findByIdHash(idHash: string): Promise<Option<Session>>;
  /** Moves `lastSeenAt` forward to `at` (never back). */
  touch(idHash: string, at: Date): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Ends every session of the user; resolves how many there were. */
  deleteByUser(userId: string): Promise<number>;
}

export interface AccountStores {
  readonly users: UserRepository;
  readonly memberships: MembershipRepository;
  readonly invitations: InvitationRepository;
  readonly sessions: SessionRepository;
}
