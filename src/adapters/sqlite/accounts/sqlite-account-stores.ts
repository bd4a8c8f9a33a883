import * as O from 'fp-ts/Option';
import * as t from 'io-ts';
import type {
  AccountStores,
  InvitationRepository,
  MembershipRemoval,
  MembershipRepository,
  SessionRepository,
  UserRepository,
} from '../../../application/ports/account-repositories';
import type { Logger } from '../../../application/ports/logger';
import { ROLES, type Invitation, type Membership, type Role, type Session, type User } from '../../../domain/account';
import { builtStatements } from '../built-statements';
import { decodeRow, instant, optionalInstant, present, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';

const role = t.keyof(Object.fromEntries(ROLES.map((r) => [r, null])) as Record<Role, null>);

const userRow = t.type({ id: t.string, email: t.string, password_hash: t.string, created_at: instant, password_changed_at: instant });
const membershipRow = t.type({ user_id: t.string, dashboard_id: t.string, role, created_at: instant });
const invitationRow = t.type({
  id: t.string,
  dashboard_id: t.string,
  email: t.string,
  role,
  token_hash: t.string,
  invited_by: t.string,
  created_at: instant,
  expires_at: instant,
  accepted_at: optionalInstant,
});
const sessionRow = t.type({ id_hash: t.string, user_id: t.string, created_at: instant, last_seen_at: instant, expires_at: instant });

/** The account tables of accounts-schema.ts (decision 0017), each port one class over the same file. */
export const sqliteAccountStores = (db: SqliteDatabase, logger: Logger): AccountStores => {
  const sql = builtStatements(db);
  const decode = <A>(codec: t.Decoder<unknown, A>, table: string, raw: unknown): A => decodeRow(codec, raw, table, rowIdOf(raw), logger);
  const user = (raw: unknown): User => {
    const row = decode(userRow, 'users', raw);
    return {
      id: row.id,
      email: row.email,
      passwordHash: row.password_hash,
      createdAt: row.created_at,
      passwordChangedAt: row.password_changed_at,
    };
  };
  const membership = (raw: unknown): Membership => {
    const row = decode(membershipRow, 'memberships', raw);
    return { userId: row.user_id, dashboardId: row.dashboard_id, role: row.role, createdAt: row.created_at };
  };
  const invitation = (raw: unknown): Invitation => {
    const row = decode(invitationRow, 'invitations', raw);
    return {
      id: row.id,
      dashboardId: row.dashboard_id,
      email: row.email,
      role: row.role,
      tokenHash: row.token_hash,
      invitedBy: row.invited_by,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      ...present('acceptedAt', row.accepted_at),
    };
  };
  const session = (raw: unknown): Session => {
    const row = decode(sessionRow, 'sessions', raw);
    return { idHash: row.id_hash, userId: row.user_id, createdAt: row.created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
  };
  const one = <A>(raw: unknown, read: (raw: unknown) => A): O.Option<A> => (raw === undefined ? O.none : O.some(read(raw)));

  const users: UserRepository = {
    async insert(u) {
      // The unique email settles a race (ON CONFLICT DO NOTHING, no read first).
      const changes = await db.write(
        () =>
          sql(
            'INSERT INTO users (id, email, password_hash, created_at, password_changed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
          ).run(u.id, u.email, u.passwordHash, u.createdAt.getTime(), u.passwordChangedAt.getTime()).changes,
      );
      return changes === 1;
    },
    async findById(id) {
      return one(
        db.read(() => sql('SELECT * FROM users WHERE id = ?').get(id)),
        user,
      );
    },
    async findByEmail(email) {
      return one(
        db.read(() => sql('SELECT * FROM users WHERE email = ?').get(email)),
        user,
      );
    },
    async list() {
      return db.read(() => sql('SELECT * FROM users ORDER BY created_at, id').all()).map(user);
    },
    async setPassword(userId, passwordHash, at) {
      const changed = await db.write(
        () =>
          sql('UPDATE users SET password_hash = ?, password_changed_at = ? WHERE id = ?').run(passwordHash, at.getTime(), userId).changes,
      );
      return changed === 1;
    },
  };

  const memberships: MembershipRepository = {
    async put(m) {
      await db.write(() => {
        sql(
          "INSERT INTO memberships (user_id, dashboard_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, dashboard_id) DO UPDATE SET role = excluded.role WHERE memberships.role <> 'owner'",
        ).run(m.userId, m.dashboardId, m.role, m.createdAt.getTime());
      });
    },
    async find(userId, dashboardId) {
      return one(
        db.read(() => sql('SELECT * FROM memberships WHERE user_id = ? AND dashboard_id = ?').get(userId, dashboardId)),
        membership,
      );
    },
    async listByUser(userId) {
      return db
        .read(() => sql('SELECT * FROM memberships WHERE user_id = ? ORDER BY created_at, dashboard_id').all(userId))
        .map(membership);
    },
    async listByDashboard(dashboardId) {
      return db
        .read(() => sql('SELECT * FROM memberships WHERE dashboard_id = ? ORDER BY created_at, user_id').all(dashboardId))
        .map(membership);
    },
    // One write transaction (BEGIN IMMEDIATE holds the file's write lock, across processes too): the
    // guard reads the other owners as the delete leaves them.
    async remove(userId, dashboardId) {
      return db.write((): MembershipRemoval => {
        const deleted = sql(
          `DELETE FROM memberships WHERE user_id = ? AND dashboard_id = ? AND (role <> 'owner' OR EXISTS (
             SELECT 1 FROM memberships AS other WHERE other.dashboard_id = memberships.dashboard_id AND other.role = 'owner' AND other.user_id <> memberships.user_id))`,
        ).run(userId, dashboardId).changes;
        if (deleted === 1) return 'removed';
        return sql('SELECT 1 FROM memberships WHERE user_id = ? AND dashboard_id = ?').get(userId, dashboardId) === undefined
          ? 'notMember'
          : 'lastOwner';
      });
    },
  };

  const invitations: InvitationRepository = {
    async insert(i) {
      await db.write(() => {
        sql(
          'INSERT INTO invitations (id, dashboard_id, email, role, token_hash, invited_by, created_at, expires_at, accepted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)',
        ).run(i.id, i.dashboardId, i.email, i.role, i.tokenHash, i.invitedBy, i.createdAt.getTime(), i.expiresAt.getTime());
      });
    },
    async findByTokenHash(tokenHash) {
      return one(
        db.read(() => sql('SELECT * FROM invitations WHERE token_hash = ?').get(tokenHash)),
        invitation,
      );
    },
    async findById(id) {
      return one(
        db.read(() => sql('SELECT * FROM invitations WHERE id = ?').get(id)),
        invitation,
      );
    },
    async accept(id, at) {
      const changed = await db.write(
        () => sql('UPDATE invitations SET accepted_at = ? WHERE id = ? AND accepted_at IS NULL').run(at.getTime(), id).changes,
      );
      return changed === 1;
    },
    async revoke(id) {
      return (await db.write(() => sql('DELETE FROM invitations WHERE id = ? AND accepted_at IS NULL').run(id).changes)) === 1;
    },
    async listPending(dashboardId, at) {
      return db
        .read(() =>
          sql(
            'SELECT * FROM invitations WHERE dashboard_id = ? AND accepted_at IS NULL AND expires_at > ? ORDER BY created_at DESC, id DESC',
          ).all(dashboardId, at.getTime()),
        )
        .map(invitation);
    },
  };

  const sessions: SessionRepository = {
    async insert(s) {
      await db.write(() => {
        sql('INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
          s.idHash,
          s.userId,
          s.createdAt.getTime(),
          s.lastSeenAt.getTime(),
          s.expiresAt.getTime(),
        );
      });
    },
    async findByIdHash(idHash) {
      return one(
        db.read(() => sql('SELECT * FROM sessions WHERE id_hash = ?').get(idHash)),
        session,
      );
    },
    async touch(idHash, at) {
      await db.write(() => {
        sql('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at < ?').run(at.getTime(), idHash, at.getTime());
      });
    },
    async delete(idHash) {
      await db.write(() => {
        sql('DELETE FROM sessions WHERE id_hash = ?').run(idHash);
      });
    },
    async deleteByUser(userId) {
      return db.write(() => sql('DELETE FROM sessions WHERE user_id = ?').run(userId).changes);
    },
  };

  return { users, memberships, invitations, sessions };
};
