import type { Option } from 'fp-ts/Option';
import type { Invitation, Membership, Session, User } from '../../domain/account';

/** Console users (decision 0017): emails unique (stored lower-cased), passwords as hashes only. */
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

/** What `MembershipRepository.remove` did. */
export type MembershipRemoval = 'removed' | 'notMember' | 'lastOwner';

/**
 * Who may do what in which dashboard: one role per user and dashboard. A dashboard that has an owner
 * keeps one (decision 0023): `put` never lowers an owner, and `remove` never takes the last one.
 */
export interface MembershipRepository {
  /**
   * Adds the membership, or raises an analyst to owner; an owner stays owner whatever `role` says (an
   * invitation never lowers a role). Atomic on its own row or document; `createdAt` of an existing
   * membership is kept.
   */
  put(membership: Membership): Promise<void>;
  find(userId: string, dashboardId: string): Promise<Option<Membership>>;
  listByUser(userId: string): Promise<readonly Membership[]>;
  /** Oldest first. */
  listByDashboard(dashboardId: string): Promise<readonly Membership[]>;
  /**
   * Ends the membership, unless the user is the dashboard's last owner: 'lastOwner', and nothing
   * changes. Atomic against every other `remove` and `put` of the dashboard: of two owners removing
   * each other at once, one stays. 'notMember' when there was no membership.
   */
  remove(userId: string, dashboardId: string): Promise<MembershipRemoval>;
}

/** One-time invitations: the token's hash only. A revoked invitation is deleted: it is then unknown. */
export interface InvitationRepository {
  insert(invitation: Invitation): Promise<void>;
  findByTokenHash(tokenHash: string): Promise<Option<Invitation>>;
  findById(id: string): Promise<Option<Invitation>>;
  /**
   * Marks the invitation accepted at `at`, atomically, if it was not: of racing calls (and a racing
   * `revoke`) one gets true. False when it was already accepted, was revoked or does not exist.
   */
  accept(id: string, at: Date): Promise<boolean>;
  /**
   * Deletes the invitation unless it was accepted, atomically against `accept`: of an acceptance and
   * a revocation racing, exactly one gets true. False when it was accepted or does not exist.
   */
  revoke(id: string): Promise<boolean>;
  /** The dashboard's invitations neither accepted nor expired at `at`, newest first. */
  listPending(dashboardId: string, at: Date): Promise<readonly Invitation[]>;
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
