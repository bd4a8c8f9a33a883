import * as O from 'fp-ts/Option';
import type {
  AccountStores,
  InvitationRepository,
  MembershipRemoval,
  MembershipRepository,
  SessionRepository,
  UserRepository,
} from '../../../application/ports/account-repositories';
import type { Invitation, Membership, Session, User } from '../../../domain/account';

const copy = <A>(value: A): A => structuredClone(value);
const byAge = (a: { createdAt: Date; id?: string; userId?: string }, b: { createdAt: Date; id?: string; userId?: string }): number =>
  a.createdAt.getTime() - b.createdAt.getTime() || (a.id ?? a.userId ?? '').localeCompare(b.id ?? b.userId ?? '');

class InMemoryUsers implements UserRepository {
  private readonly byId = new Map<string, User>();

  async insert(user: User): Promise<boolean> {
    if (this.byId.has(user.id) || [...this.byId.values()].some((u) => u.email === user.email)) return false;
    this.byId.set(user.id, copy(user));
    return true;
  }

  async findById(id: string): Promise<O.Option<User>> {
    const user = this.byId.get(id);
    return user === undefined ? O.none : O.some(copy(user));
  }

  async findByEmail(email: string): Promise<O.Option<User>> {
    const user = [...this.byId.values()].find((u) => u.email === email);
    return user === undefined ? O.none : O.some(copy(user));
  }

  async list(): Promise<readonly User[]> {
    return [...this.byId.values()].sort(byAge).map(copy);
  }

  async setPassword(userId: string, passwordHash: string, at: Date): Promise<boolean> {
    const user = this.byId.get(userId);
    if (user === undefined) return false;
    this.byId.set(userId, { ...user, passwordHash, passwordChangedAt: at });
    return true;
  }
}

class InMemoryMemberships implements MembershipRepository {
  private readonly byKey = new Map<string, Membership>();

  async put(membership: Membership): Promise<void> {
    const key = `${membership.userId} ${membership.dashboardId}`;
    const current = this.byKey.get(key);
    if (current?.role === 'owner') return;
    this.byKey.set(key, copy(current === undefined ? membership : { ...current, role: membership.role }));
  }

  async find(userId: string, dashboardId: string): Promise<O.Option<Membership>> {
    const found = this.byKey.get(`${userId} ${dashboardId}`);
    return found === undefined ? O.none : O.some(copy(found));
  }

  async listByUser(userId: string): Promise<readonly Membership[]> {
    return [...this.byKey.values()]
      .filter((m) => m.userId === userId)
      .sort(byAge)
      .map(copy);
  }

  async listByDashboard(dashboardId: string): Promise<readonly Membership[]> {
    return [...this.byKey.values()]
      .filter((m) => m.dashboardId === dashboardId)
      .sort(byAge)
      .map(copy);
  }

  /** Checks and deletes without yielding to the event loop: no other call can come between. */
  async remove(userId: string, dashboardId: string): Promise<MembershipRemoval> {
    const key = `${userId} ${dashboardId}`;
    const found = this.byKey.get(key);
    if (found === undefined) return 'notMember';
    const otherOwner = [...this.byKey.values()].some((m) => m.dashboardId === dashboardId && m.role === 'owner' && m.userId !== userId);
    if (found.role === 'owner' && !otherOwner) return 'lastOwner';
    this.byKey.delete(key);
    return 'removed';
  }
}

class InMemoryInvitations implements InvitationRepository {
  private readonly byId = new Map<string, Invitation>();

  async insert(invitation: Invitation): Promise<void> {
    if (this.byId.has(invitation.id) || [...this.byId.values()].some((i) => i.tokenHash === invitation.tokenHash))
      throw new Error('invitation id or token hash already used');
    this.byId.set(invitation.id, copy(invitation));
  }

  async findByTokenHash(tokenHash: string): Promise<O.Option<Invitation>> {
    const found = [...this.byId.values()].find((i) => i.tokenHash === tokenHash);
    return found === undefined ? O.none : O.some(copy(found));
  }

  async findById(id: string): Promise<O.Option<Invitation>> {
    const found = this.byId.get(id);
    return found === undefined ? O.none : O.some(copy(found));
  }

  async accept(id: string, at: Date): Promise<boolean> {
    const found = this.byId.get(id);
    if (found === undefined || found.acceptedAt !== undefined) return false;
    this.byId.set(id, { ...found, acceptedAt: at });
    return true;
  }

  async revoke(id: string): Promise<boolean> {
    const found = this.byId.get(id);
    return found !== undefined && found.acceptedAt === undefined && this.byId.delete(id);
  }

  async listPending(dashboardId: string, at: Date): Promise<readonly Invitation[]> {
    return [...this.byId.values()]
      .filter((i) => i.dashboardId === dashboardId && i.acceptedAt === undefined && i.expiresAt.getTime() > at.getTime())
      .sort((a, b) => byAge(b, a))
      .map(copy);
  }
}

class InMemorySessions implements SessionRepository {
  private readonly byHash = new Map<string, Session>();

  async insert(session: Session): Promise<void> {
    if (this.byHash.has(session.idHash)) throw new Error('session id already used');
    this.byHash.set(session.idHash, copy(session));
  }

  async findByIdHash(idHash: string): Promise<O.Option<Session>> {
    const found = this.byHash.get(idHash);
    return found === undefined ? O.none : O.some(copy(found));
  }

  async touch(idHash: string, at: Date): Promise<void> {
    const found = this.byHash.get(idHash);
    if (found !== undefined && found.lastSeenAt < at) this.byHash.set(idHash, { ...found, lastSeenAt: at });
  }

  async delete(idHash: string): Promise<void> {
    this.byHash.delete(idHash);
  }

  async deleteByUser(userId: string): Promise<number> {
    let ended = 0;
    for (const [hash, session] of this.byHash) if (session.userId === userId && this.byHash.delete(hash)) ended++;
    return ended;
  }
}

/** Users, memberships, invitations and sessions in the process (decision 0017), gone at exit. */
export const inMemoryAccountStores = (): AccountStores => ({
  users: new InMemoryUsers(),
  memberships: new InMemoryMemberships(),
  invitations: new InMemoryInvitations(),
  sessions: new InMemorySessions(),
});
