import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import type { AccountStores } from '../../src/application/ports/account-repositories';
import type { Invitation, Membership, Session, User } from '../../src/domain/account';

const at = (iso: string): Date => new Date(iso);

const aUser = (id: string, changes: Partial<User> = {}): User => ({
  id,
  email: `${id}@example.com`,
  passwordHash: `scrypt$17$8$1$salt-${id}$key-${id}`,
  createdAt: at('2026-01-01T00:00:00.000Z'),
  passwordChangedAt: at('2026-01-01T00:00:00.000Z'),
  ...changes,
});

const aMembership = (userId: string, dashboardId: string, changes: Partial<Membership> = {}): Membership => ({
  userId,
  dashboardId,
  role: 'analyst',
  createdAt: at('2026-01-02T00:00:00.000Z'),
  ...changes,
});

const anInvitation = (id: string, changes: Partial<Invitation> = {}): Invitation => ({
  id,
  dashboardId: 'dsh_a',
  email: `guest-${id}@example.com`,
  role: 'analyst',
  tokenHash: `hash-${id}`,
  invitedBy: 'usr_owner',
  createdAt: at('2026-01-03T00:00:00.000Z'),
  expiresAt: at('2026-01-10T00:00:00.000Z'),
  ...changes,
});

const aSession = (idHash: string, changes: Partial<Session> = {}): Session => ({
  idHash,
  userId: 'usr_1',
  createdAt: at('2026-01-04T00:00:00.000Z'),
  lastSeenAt: at('2026-01-04T00:00:00.000Z'),
  expiresAt: at('2026-01-11T00:00:00.000Z'),
  ...changes,
});

/** Users, memberships, invitations and sessions (decision 0017): every store answers alike. */
export const accountStoresContract = (adapterName: string, factory: () => Promise<AccountStores>): void => {
  describe(`AccountStores contract: ${adapterName}`, () => {
    let stores: AccountStores;
    beforeEach(async () => {
      stores = await factory();
    });

    describe('users', () => {
      it('stores a user and finds it by id and by email, and lists users oldest first', async () => {
        const later = aUser('usr_2', { createdAt: at('2026-01-05T00:00:00.000Z') });
        expect(await stores.users.insert(later)).to.equal(true);
        expect(await stores.users.insert(aUser('usr_1'))).to.equal(true);
        expect(await stores.users.findById('usr_1')).to.deep.equal(O.some(aUser('usr_1')));
        expect(await stores.users.findByEmail('usr_2@example.com')).to.deep.equal(O.some(later));
        expect(await stores.users.findByEmail('nobody@example.com')).to.deep.equal(O.none);
        expect((await stores.users.list()).map((u) => u.id)).to.deep.equal(['usr_1', 'usr_2']);
      });

      it('refuses a second user with the same email, even when many insert it at once', async () => {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => stores.users.insert(aUser(`usr_${i}`, { email: 'same@example.com' }))),
        );
        expect(results.filter((inserted) => inserted)).to.have.length(1);
        expect(await stores.users.list()).to.have.length(1);
      });

      it('sets a password and its time, and says false for an unknown user', async () => {
        await stores.users.insert(aUser('usr_1'));
        expect(await stores.users.setPassword('usr_1', 'scrypt$new', at('2026-02-01T00:00:00.000Z'))).to.equal(true);
        expect(await stores.users.findById('usr_1')).to.deep.equal(
          O.some(aUser('usr_1', { passwordHash: 'scrypt$new', passwordChangedAt: at('2026-02-01T00:00:00.000Z') })),
        );
        expect(await stores.users.setPassword('usr_missing', 'x', at('2026-02-01T00:00:00.000Z'))).to.equal(false);
      });
    });

    describe('memberships', () => {
      it('puts one membership per user and dashboard, changing the role and keeping its creation time', async () => {
        await stores.memberships.put(aMembership('usr_1', 'dsh_a'));
        await stores.memberships.put(aMembership('usr_1', 'dsh_a', { role: 'owner', createdAt: at('2026-03-01T00:00:00.000Z') }));
        expect(await stores.memberships.find('usr_1', 'dsh_a')).to.deep.equal(O.some(aMembership('usr_1', 'dsh_a', { role: 'owner' })));
        expect(await stores.memberships.listByDashboard('dsh_a')).to.have.length(1);
      });

      it("lists a user's and a dashboard's memberships oldest first, and removes one", async () => {
        await stores.memberships.put(aMembership('usr_1', 'dsh_b', { createdAt: at('2026-01-09T00:00:00.000Z') }));
        await stores.memberships.put(aMembership('usr_1', 'dsh_a'));
        await stores.memberships.put(aMembership('usr_2', 'dsh_a', { role: 'owner', createdAt: at('2026-01-01T00:00:00.000Z') }));
        expect((await stores.memberships.listByUser('usr_1')).map((m) => m.dashboardId)).to.deep.equal(['dsh_a', 'dsh_b']);
        expect((await stores.memberships.listByDashboard('dsh_a')).map((m) => m.userId)).to.deep.equal(['usr_2', 'usr_1']);
        expect(await stores.memberships.remove('usr_1', 'dsh_a')).to.equal('removed');
        expect(await stores.memberships.remove('usr_1', 'dsh_a')).to.equal('notMember');
        expect(await stores.memberships.find('usr_1', 'dsh_a')).to.deep.equal(O.none);
        expect(await stores.memberships.find('usr_1', 'dsh_b')).to.deep.equal(
          O.some(aMembership('usr_1', 'dsh_b', { createdAt: at('2026-01-09T00:00:00.000Z') })),
        );
      });

      it('never lowers an owner to analyst, and raises an analyst to owner', async () => {
        await stores.memberships.put(aMembership('usr_1', 'dsh_a', { role: 'owner' }));
        await stores.memberships.put(aMembership('usr_1', 'dsh_a', { role: 'analyst' }));
        await stores.memberships.put(aMembership('usr_2', 'dsh_a'));
        await stores.memberships.put(aMembership('usr_2', 'dsh_a', { role: 'owner' }));
        expect((await stores.memberships.listByDashboard('dsh_a')).map((m) => `${m.userId}:${m.role}`)).to.deep.equal([
          'usr_1:owner',
          'usr_2:owner',
        ]);
      });

      it('removes an owner while another stays, never the last one, whose other dashboards do not count', async () => {
        await stores.memberships.put(aMembership('usr_1', 'dsh_a', { role: 'owner' }));
        await stores.memberships.put(aMembership('usr_2', 'dsh_a', { role: 'owner' }));
        await stores.memberships.put(aMembership('usr_3', 'dsh_a'));
        await stores.memberships.put(aMembership('usr_3', 'dsh_b', { role: 'owner' }));
        expect(await stores.memberships.remove('usr_1', 'dsh_a')).to.equal('removed');
        expect(await stores.memberships.remove('usr_2', 'dsh_a')).to.equal('lastOwner');
        expect(await stores.memberships.remove('usr_3', 'dsh_b')).to.equal('lastOwner');
        expect(await stores.memberships.remove('usr_3', 'dsh_a')).to.equal('removed');
        expect((await stores.memberships.listByDashboard('dsh_a')).map((m) => `${m.userId}:${m.role}`)).to.deep.equal(['usr_2:owner']);
        expect((await stores.memberships.listByDashboard('dsh_b')).map((m) => `${m.userId}:${m.role}`)).to.deep.equal(['usr_3:owner']);
        // A refused removal leaves nothing behind: once another owner comes, the last one may go.
        await stores.memberships.put(aMembership('usr_4', 'dsh_a', { role: 'owner' }));
        expect(await stores.memberships.remove('usr_2', 'dsh_a')).to.equal('removed');
        expect(await stores.memberships.remove('usr_4', 'dsh_a')).to.equal('lastOwner');
      });

      it('keeps one owner when two owners remove each other at once, in every one of 20 dashboards', async () => {
        const dashboards = Array.from({ length: 20 }, (_, i) => `dsh_race_${i}`);
        for (const dashboardId of dashboards) {
          await stores.memberships.put(aMembership('usr_1', dashboardId, { role: 'owner' }));
          await stores.memberships.put(aMembership('usr_2', dashboardId, { role: 'owner' }));
        }
        const outcomes = await Promise.all(
          dashboards.map((dashboardId) =>
            Promise.all([stores.memberships.remove('usr_2', dashboardId), stores.memberships.remove('usr_1', dashboardId)]),
          ),
        );
        for (const [i, dashboardId] of dashboards.entries()) {
          const owners = (await stores.memberships.listByDashboard(dashboardId)).filter((m) => m.role === 'owner');
          expect(owners, dashboardId).to.have.length(1);
          expect([...outcomes[i]].sort(), dashboardId).to.deep.equal(['lastOwner', 'removed']);
        }
      });

      it('keeps exactly one of five owners all removed at once, and one owner when an owner goes as another is made', async () => {
        const users = ['usr_1', 'usr_2', 'usr_3', 'usr_4', 'usr_5'];
        for (const userId of users) await stores.memberships.put(aMembership(userId, 'dsh_a', { role: 'owner' }));
        const outcomes = await Promise.all(users.map((userId) => stores.memberships.remove(userId, 'dsh_a')));
        expect(outcomes.filter((o) => o === 'removed')).to.have.length(4);
        expect(await stores.memberships.listByDashboard('dsh_a')).to.have.length(1);

        await stores.memberships.put(aMembership('usr_1', 'dsh_b', { role: 'owner' }));
        await stores.memberships.put(aMembership('usr_2', 'dsh_b'));
        await Promise.all([
          stores.memberships.remove('usr_1', 'dsh_b'),
          stores.memberships.put(aMembership('usr_2', 'dsh_b', { role: 'owner' })),
        ]);
        const owners = (await stores.memberships.listByDashboard('dsh_b')).filter((m) => m.role === 'owner');
        expect(owners.map((m) => m.userId)).to.include('usr_2');
      });
    });

    describe('invitations', () => {
      it('finds an invitation by its token hash and by its id, and lists the pending ones of a dashboard newest first', async () => {
        await stores.invitations.insert(anInvitation('inv_1'));
        await stores.invitations.insert(anInvitation('inv_2', { createdAt: at('2026-01-04T00:00:00.000Z') }));
        await stores.invitations.insert(anInvitation('inv_3', { dashboardId: 'dsh_b' }));
        await stores.invitations.insert(anInvitation('inv_4', { expiresAt: at('2026-01-05T00:00:00.000Z') }));
        await stores.invitations.insert(anInvitation('inv_5'));
        await stores.invitations.accept('inv_5', at('2026-01-04T00:00:00.000Z'));
        expect(await stores.invitations.findByTokenHash('hash-inv_1')).to.deep.equal(O.some(anInvitation('inv_1')));
        expect(await stores.invitations.findByTokenHash('hash-none')).to.deep.equal(O.none);
        expect(await stores.invitations.findById('inv_3')).to.deep.equal(O.some(anInvitation('inv_3', { dashboardId: 'dsh_b' })));
        expect(await stores.invitations.findById('inv_none')).to.deep.equal(O.none);
        const pending = async (iso: string) => (await stores.invitations.listPending('dsh_a', at(iso))).map((i) => i.id);
        expect(await pending('2026-01-04T12:00:00.000Z')).to.deep.equal(['inv_2', 'inv_4', 'inv_1']);
        expect(await pending('2026-01-05T00:00:00.000Z'), 'expired at expiresAt').to.deep.equal(['inv_2', 'inv_1']);
        expect(await pending('2026-01-10T00:00:00.000Z')).to.deep.equal([]);
      });

      it('is revoked unless accepted, and a revoked one is unknown and cannot be accepted', async () => {
        await stores.invitations.insert(anInvitation('inv_1'));
        await stores.invitations.insert(anInvitation('inv_2'));
        await stores.invitations.accept('inv_2', at('2026-01-04T00:00:00.000Z'));
        expect(await stores.invitations.revoke('inv_1')).to.equal(true);
        expect(await stores.invitations.revoke('inv_1')).to.equal(false);
        expect(await stores.invitations.revoke('inv_2')).to.equal(false);
        expect(await stores.invitations.revoke('inv_none')).to.equal(false);
        expect(await stores.invitations.findByTokenHash('hash-inv_1')).to.deep.equal(O.none);
        expect(await stores.invitations.findById('inv_1')).to.deep.equal(O.none);
        expect(await stores.invitations.accept('inv_1', at('2026-01-04T00:00:00.000Z'))).to.equal(false);
        expect(O.isSome(await stores.invitations.findById('inv_2'))).to.equal(true);
      });

      it('is either accepted or revoked when both race, never both, for each of 10 invitations', async () => {
        const ids = Array.from({ length: 10 }, (_, i) => `inv_${i}`);
        for (const id of ids) await stores.invitations.insert(anInvitation(id));
        const outcomes = await Promise.all(
          ids.map((id, i) =>
            i % 2 === 0
              ? Promise.all([stores.invitations.accept(id, at('2026-01-04T00:00:00.000Z')), stores.invitations.revoke(id)])
              : Promise.all([stores.invitations.revoke(id), stores.invitations.accept(id, at('2026-01-04T00:00:00.000Z'))]),
          ),
        );
        for (const [i, id] of ids.entries()) {
          expect(
            outcomes[i].filter((won) => won),
            id,
          ).to.have.length(1);
          const [accepted] = i % 2 === 0 ? outcomes[i] : [...outcomes[i]].reverse();
          const stored = await stores.invitations.findById(id);
          expect(O.isSome(stored), id).to.equal(accepted);
        }
      });

      it('is accepted once: of parallel acceptances exactly one succeeds, and the time is kept', async () => {
        await stores.invitations.insert(anInvitation('inv_1'));
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => stores.invitations.accept('inv_1', at(`2026-01-05T00:00:0${i}.000Z`))),
        );
        expect(results.filter((accepted) => accepted)).to.have.length(1);
        const stored = await stores.invitations.findByTokenHash('hash-inv_1');
        expect(O.isSome(stored) && stored.value.acceptedAt).to.be.instanceOf(Date);
        expect(await stores.invitations.accept('inv_missing', at('2026-01-05T00:00:00.000Z'))).to.equal(false);
      });
    });

    describe('sessions', () => {
      it('finds a session by its id hash, moves lastSeenAt forward only, and deletes it', async () => {
        await stores.sessions.insert(aSession('s1'));
        await stores.sessions.touch('s1', at('2026-01-04T05:00:00.000Z'));
        await stores.sessions.touch('s1', at('2026-01-04T04:00:00.000Z'));
        expect(await stores.sessions.findByIdHash('s1')).to.deep.equal(
          O.some(aSession('s1', { lastSeenAt: at('2026-01-04T05:00:00.000Z') })),
        );
        await stores.sessions.delete('s1');
        await stores.sessions.delete('s1');
        expect(await stores.sessions.findByIdHash('s1')).to.deep.equal(O.none);
      });

      it("ends every session of a user and no one else's", async () => {
        await stores.sessions.insert(aSession('s1'));
        await stores.sessions.insert(aSession('s2'));
        await stores.sessions.insert(aSession('s3', { userId: 'usr_2' }));
        expect(await stores.sessions.deleteByUser('usr_1')).to.equal(2);
        expect(await stores.sessions.findByIdHash('s1')).to.deep.equal(O.none);
        expect(await stores.sessions.findByIdHash('s3')).to.deep.equal(O.some(aSession('s3', { userId: 'usr_2' })));
      });
    });
  });
};
