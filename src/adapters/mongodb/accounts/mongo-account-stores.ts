import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import * as O from 'fp-ts/Option';
import * as t from 'io-ts';
import type { Db } from 'mongodb';
import type {
  AccountStores,
  InvitationRepository,
  MembershipRemoval,
  MembershipRepository,
  SessionRepository,
  UserRepository,
} from '../../../application/ports/account-repositories';
import type { Logger } from '../../../application/ports/logger';
import { ROLES, type Role } from '../../../domain/account';
import { bsonDate, withoutUndefined } from '../bson-codecs';
import { MongoCollection } from '../mongo-collection';
import { guarded, isDuplicateKey } from '../mongo-errors';

const role = t.keyof(Object.fromEntries(ROLES.map((r) => [r, null])) as Record<Role, null>);
const userDocument = t.type({ _id: t.string, email: t.string, passwordHash: t.string, createdAt: bsonDate, passwordChangedAt: bsonDate });
const membershipDocument = t.type({ _id: t.string, userId: t.string, dashboardId: t.string, role, createdAt: bsonDate });
const invitationDocument = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    email: t.string,
    role,
    tokenHash: t.string,
    invitedBy: t.string,
    createdAt: bsonDate,
    expiresAt: bsonDate,
  }),
  t.partial({ acceptedAt: bsonDate }),
]);
const sessionDocument = t.type({ _id: t.string, userId: t.string, createdAt: bsonDate, lastSeenAt: bsonDate, expiresAt: bsonDate });

type Doc = { _id: string } & Record<string, unknown>;

/** How many times an owner's removal tries while every other owner is being removed too: about 1.5 s. */
const OWNER_REMOVAL_ATTEMPTS = 12;
/** `_id` is `<userId> <dashboardId>`; `leaving` holds the marks of the removals under way (see below). */
interface MembershipDoc {
  _id: string;
  userId: string;
  dashboardId: string;
  role: Role;
  createdAt: Date;
  leaving?: string[];
}

/**
 * Users, memberships, invitations and sessions on MongoDB (decision 0017): one document each, every
 * write a single-document one (a unique email, an invitation accepted once, by conditional updates).
 *
 * The last owner of a dashboard stays (decision 0023) without a transaction: an owner's removal first marks
 * their membership `leaving` (a conditional update), then reads the other owners, and deletes only
 * if one of them carries no mark. Of several removals racing, the one that marked last sees every
 * other mark, so none deletes unless an owner truly stays. When every other owner is marked, the
 * removal takes its mark back and tries again after a random pause (one of the racers then goes
 * first); it answers `lastOwner` once no other owner is left, or after 12 tries. A mark left by a
 * process that stopped between marking and deleting makes that owner not count for the others'
 * removals until it is removed itself: a refusal too many, never a dashboard without owners.
 */
export const mongoAccountStores = (db: Db, logger: Logger): AccountStores => {
  const usersCollection = new MongoCollection<Doc>(db, 'users', logger);
  const membershipsCollection = new MongoCollection<MembershipDoc>(db, 'memberships', logger);
  const invitationsCollection = new MongoCollection<Doc>(db, 'invitations', logger);
  const sessionsCollection = new MongoCollection<Doc>(db, 'sessions', logger);

  const user = (raw: unknown) => {
    const d = usersCollection.decode(userDocument, raw);
    return { id: d._id, email: d.email, passwordHash: d.passwordHash, createdAt: d.createdAt, passwordChangedAt: d.passwordChangedAt };
  };
  const membership = (raw: unknown) => {
    const d = membershipsCollection.decode(membershipDocument, raw);
    return { userId: d.userId, dashboardId: d.dashboardId, role: d.role, createdAt: d.createdAt };
  };
  const invitation = (raw: unknown) => {
    const d = invitationsCollection.decode(invitationDocument, raw);
    return withoutUndefined({
      id: d._id,
      dashboardId: d.dashboardId,
      email: d.email,
      role: d.role,
      tokenHash: d.tokenHash,
      invitedBy: d.invitedBy,
      createdAt: d.createdAt,
      expiresAt: d.expiresAt,
      acceptedAt: d.acceptedAt,
    });
  };
  const session = (raw: unknown) => {
    const d = sessionsCollection.decode(sessionDocument, raw);
    return { idHash: d._id, userId: d.userId, createdAt: d.createdAt, lastSeenAt: d.lastSeenAt, expiresAt: d.expiresAt };
  };
  const one = async <A>(find: Promise<Doc | null>, read: (raw: unknown) => A): Promise<O.Option<A>> => {
    const found = await guarded(() => find);
    return found === null ? O.none : O.some(read(found));
  };

  const users: UserRepository = {
    async insert(u) {
      try {
        await guarded(() =>
          usersCollection.documents.insertOne({
            _id: u.id,
            email: u.email,
            passwordHash: u.passwordHash,
            createdAt: u.createdAt,
            passwordChangedAt: u.passwordChangedAt,
          }),
        );
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    findById: (id) => one(usersCollection.documents.findOne({ _id: id }), user),
    findByEmail: (email) => one(usersCollection.documents.findOne({ email }), user),
    async list() {
      return (await guarded(() => usersCollection.documents.find({}).sort({ createdAt: 1, _id: 1 }).toArray())).map(user);
    },
    async setPassword(userId, passwordHash, at) {
      const result = await guarded(() =>
        usersCollection.documents.updateOne({ _id: userId }, { $set: { passwordHash, passwordChangedAt: at } }),
      );
      return result.matchedCount === 1;
    },
  };

  const memberships: MembershipRepository = {
    async put(m) {
      const _id = `${m.userId} ${m.dashboardId}`;
      for (;;) {
        try {
          // An owner does not match, so an owner is never lowered; the upsert then finds the _id taken.
          await guarded(() =>
            membershipsCollection.documents.updateOne(
              { _id, role: { $ne: 'owner' } },
              { $set: { role: m.role }, $setOnInsert: { userId: m.userId, dashboardId: m.dashboardId, createdAt: m.createdAt } },
              { upsert: true },
            ),
          );
          return;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          // Taken by an owner (nothing to do), or by a racing insert of an analyst (try again).
          const current = await guarded(() => membershipsCollection.documents.findOne({ _id }));
          if (current?.['role'] === 'owner') return;
        }
      }
    },
    find: (userId, dashboardId) => one(membershipsCollection.documents.findOne({ _id: `${userId} ${dashboardId}` }), membership),
    async listByUser(userId) {
      return (await guarded(() => membershipsCollection.documents.find({ userId }).sort({ createdAt: 1, dashboardId: 1 }).toArray())).map(
        membership,
      );
    },
    async listByDashboard(dashboardId) {
      return (await guarded(() => membershipsCollection.documents.find({ dashboardId }).sort({ createdAt: 1, userId: 1 }).toArray())).map(
        membership,
      );
    },
    async remove(userId, dashboardId): Promise<MembershipRemoval> {
      const _id = `${userId} ${dashboardId}`;
      const documents = membershipsCollection.documents;
      for (let attempt = 1; ; attempt++) {
        if ((await guarded(() => documents.deleteOne({ _id, role: 'analyst' }))).deletedCount === 1) return 'removed';
        const mark = randomUUID();
        const marked = await guarded(() => documents.updateOne({ _id, role: 'owner' }, { $addToSet: { leaving: mark } }));
        if (marked.matchedCount === 0) {
          // Neither an analyst nor an owner: gone, unless a racing put made it meanwhile (look again).
          if ((await guarded(() => documents.findOne({ _id }))) === null) return 'notMember';
          continue;
        }
        const others = await guarded(() =>
          documents.find({ dashboardId, role: 'owner', _id: { $ne: _id } }, { projection: { leaving: 1 } }).toArray(),
        );
        if (others.some((other) => (other.leaving ?? []).length === 0)) {
          await guarded(() => documents.deleteOne({ _id }));
          return 'removed';
        }
        await guarded(() => documents.updateOne({ _id }, { $pull: { leaving: mark } }));
        if (others.length === 0 || attempt === OWNER_REMOVAL_ATTEMPTS) return 'lastOwner';
        // Every other owner is being removed too: back off for a random while, so that one goes first.
        await sleep(Math.random() * Math.min(200, 4 * 2 ** attempt));
      }
    },
  };

  const invitations: InvitationRepository = {
    async insert(i) {
      await guarded(() =>
        invitationsCollection.documents.insertOne({
          _id: i.id,
          dashboardId: i.dashboardId,
          email: i.email,
          role: i.role,
          tokenHash: i.tokenHash,
          invitedBy: i.invitedBy,
          createdAt: i.createdAt,
          expiresAt: i.expiresAt,
        }),
      );
    },
    findByTokenHash: (tokenHash) => one(invitationsCollection.documents.findOne({ tokenHash }), invitation),
    findById: (id) => one(invitationsCollection.documents.findOne({ _id: id }), invitation),
    async accept(id, at) {
      const result = await guarded(() =>
        invitationsCollection.documents.updateOne({ _id: id, acceptedAt: { $exists: false } }, { $set: { acceptedAt: at } }),
      );
      return result.modifiedCount === 1;
    },
    async revoke(id) {
      return (
        (await guarded(() => invitationsCollection.documents.deleteOne({ _id: id, acceptedAt: { $exists: false } }))).deletedCount === 1
      );
    },
    async listPending(dashboardId, at) {
      return (
        await guarded(() =>
          invitationsCollection.documents
            .find({ dashboardId, acceptedAt: { $exists: false }, expiresAt: { $gt: at } })
            .sort({ createdAt: -1, _id: -1 })
            .toArray(),
        )
      ).map(invitation);
    },
  };

  const sessions: SessionRepository = {
    async insert(s) {
      await guarded(() =>
        sessionsCollection.documents.insertOne({
          _id: s.idHash,
          userId: s.userId,
          createdAt: s.createdAt,
          lastSeenAt: s.lastSeenAt,
          expiresAt: s.expiresAt,
        }),
      );
    },
    findByIdHash: (idHash) => one(sessionsCollection.documents.findOne({ _id: idHash }), session),
    async touch(idHash, at) {
      await guarded(() => sessionsCollection.documents.updateOne({ _id: idHash, lastSeenAt: { $lt: at } }, { $set: { lastSeenAt: at } }));
    },
    async delete(idHash) {
      await guarded(() => sessionsCollection.documents.deleteOne({ _id: idHash }));
    },
    async deleteByUser(userId) {
      return (await guarded(() => sessionsCollection.documents.deleteMany({ userId }))).deletedCount;
    },
  };

  return { users, memberships, invitations, sessions };
};
