import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { BoundedPasswordHasher } from '../../../src/adapters/system/bounded-password-hasher';
import { RandomOpaqueSecrets, ScryptPasswordHasher } from '../../../src/adapters/system/scrypt-password-hasher';
import { accountUseCases, type AccountUseCases } from '../../../src/application/accounts/accounts-use-cases';
import type { Storage } from '../../../src/application/ports/storage';
import type { PasswordHasher } from '../../../src/application/ports/password-hasher';
import { HeldHasher } from '../../support/held-hasher';
import { MutableClock } from '../../support/mutable-clock';
import { SequenceIds } from '../../support/sequence-ids';
import { eventually } from '../../support/webhook-receiver';

const PASSWORD = 'correct horse battery';

/** The scrypt hasher at a cost tests can afford, counting what it is asked. */
class CountingHasher implements PasswordHasher {
  readonly inner = new ScryptPasswordHasher({ logN: 12, r: 8, p: 1 });
  verified = 0;
  nothing = 0;
  /** Runs while a hash is being made: what another request may do meanwhile. */
  meanwhile: (() => Promise<unknown>) | undefined;
  async hash(password: string): Promise<string> {
    await this.meanwhile?.();
    return this.inner.hash(password);
  }
  verify(password: string, stored: string): Promise<boolean> {
    this.verified++;
    return this.inner.verify(password, stored);
  }
  verifyNothing(password: string): Promise<void> {
    this.nothing++;
    return this.inner.verifyNothing(password);
  }
}

const right = <A>(either: E.Either<unknown, A>): A => {
  if (E.isLeft(either)) throw new Error(`expected a result, got ${JSON.stringify(either.left)}`);
  return either.right;
};

describe('Console accounts (decision 0017)', () => {
  let storage: Storage;
  let clock: MutableClock;
  let hasher: CountingHasher;
  let accounts: AccountUseCases;

  const withHasher = (passwords: PasswordHasher): AccountUseCases =>
    accountUseCases({
      accounts: storage.accounts,
      dashboards: storage.dashboards,
      passwords,
      opaqueSecrets: new RandomOpaqueSecrets(),
      rateLimits: storage.rateLimits,
      ids: new SequenceIds(),
      clock,
      signInLimits: { perPair: 3, perAddress: 8, perAccount: 5, windowMs: 15 * 60_000 },
    });

  beforeEach(async () => {
    storage = inMemoryStorage();
    clock = new MutableClock('2026-05-01T10:00:00.000Z');
    hasher = new CountingHasher();
    accounts = withHasher(hasher);
    await storage.dashboards.insert({ id: 'dsh_a', name: 'Shop', timezone: 'UTC', taxRate: 0, createdAt: clock.now() });
  });

  const owner = async (email = 'Owner@Example.com') => right(await accounts.createOwner.execute('dsh_a', email, PASSWORD));

  describe('the first owner (CLI)', () => {
    it('is a new user with a lower-cased email and a scrypt hash, owner of the dashboard', async () => {
      const made = await owner();
      expect(made.user.email).to.equal('owner@example.com');
      expect(made.user.passwordHash).to.match(/^scrypt\$12\$8\$1\$[\w-]+\$[\w-]+$/);
      expect(made.user.passwordHash).not.to.contain(PASSWORD);
      const listed = await accounts.listUsers.execute();
      expect(listed.map(({ user, memberships }) => [user.email, memberships.map((m) => `${m.dashboardId}:${m.role}`)])).to.deep.equal([
        ['owner@example.com', ['dsh_a:owner']],
      ]);
    });

    it('refuses a bad email, a short or long password, and an unknown dashboard', async () => {
      expect(await accounts.createOwner.execute('dsh_a', 'not-an-email', PASSWORD)).to.deep.equal(
        E.left({ _tag: 'InvalidEmail', email: 'not-an-email' }),
      );
      expect(await accounts.createOwner.execute('dsh_a', 'a@b.co', 'short')).to.deep.equal(
        E.left({ _tag: 'PasswordRejected', reason: 'must have at least 12 characters' }),
      );
      expect(await accounts.createOwner.execute('dsh_a', 'a@b.co', 'x'.repeat(129))).to.deep.equal(
        E.left({ _tag: 'PasswordRejected', reason: 'must have at most 128 characters' }),
      );
      expect(await accounts.createOwner.execute('dsh_none', 'a@b.co', PASSWORD)).to.deep.equal(
        E.left({ _tag: 'DashboardNotFound', dashboardId: 'dsh_none' }),
      );
      expect(await accounts.listUsers.execute()).to.deep.equal([]);
    });

    it('refuses an email that has an account, leaving its password and memberships as they are', async () => {
      const first = await owner();
      await storage.dashboards.insert({ id: 'dsh_b', name: 'Other', timezone: 'UTC', taxRate: 0, createdAt: clock.now() });
      expect(await accounts.createOwner.execute('dsh_b', ' OWNER@example.com ', 'another password here')).to.deep.equal(
        E.left({ _tag: 'EmailTaken', email: 'owner@example.com' }),
      );
      expect(await storage.accounts.memberships.listByUser(first.user.id)).to.have.length(1);
      expect(O.toUndefined(await storage.accounts.users.findByEmail('owner@example.com'))?.passwordHash).to.equal(first.user.passwordHash);
    });

    it('refuses an account made by another process while the password was being hashed', async () => {
      await storage.dashboards.insert({ id: 'dsh_b', name: 'Other', timezone: 'UTC', taxRate: 0, createdAt: clock.now() });
      hasher.meanwhile = async () => {
        hasher.meanwhile = undefined;
        right(await accounts.createOwner.execute('dsh_b', 'late@example.com', 'the first password'));
      };
      expect(await accounts.createOwner.execute('dsh_a', 'late@example.com', PASSWORD)).to.deep.equal(
        E.left({ _tag: 'EmailTaken', email: 'late@example.com' }),
      );
      const late = O.toUndefined(await storage.accounts.users.findByEmail('late@example.com'))!;
      expect((await storage.accounts.memberships.listByUser(late.id)).map((m) => m.dashboardId)).to.deep.equal(['dsh_b']);
    });
  });

  describe('only an account adds itself to a dashboard', () => {
    /** Dashboards C (the operator's) beside A (whose owner is the one who tries). */
    beforeEach(async () => {
      await storage.dashboards.insert({ id: 'dsh_c', name: 'Carol shop', timezone: 'UTC', taxRate: 0, createdAt: clock.now() });
    });
    const dashboardsOf = async (email: string) => {
      const user = O.toUndefined(await storage.accounts.users.findByEmail(email));
      return user === undefined ? [] : (await storage.accounts.memberships.listByUser(user.id)).map((m) => `${m.dashboardId}:${m.role}`);
    };

    it("gives nothing to an owner who accepted an invitation for someone else's email and chose its password", async () => {
      const { user } = await owner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'carol@example.com', 'analyst'));
      right(await accounts.acceptInvitation.execute({ token: issued.token, password: 'chosen by the owner', address: '10.0.9.9' }));
      expect(await accounts.createOwner.execute('dsh_c', 'carol@example.com', 'carol real password')).to.deep.equal(
        E.left({ _tag: 'EmailTaken', email: 'carol@example.com' }),
      );
      expect(await dashboardsOf('carol@example.com')).to.deep.equal(['dsh_a:analyst']);
      expect(E.isRight(await accounts.signIn.execute('carol@example.com', 'chosen by the owner', '10.0.9.9'))).to.equal(true);
    });

    it("adds an existing account to another dashboard only through an invitation it accepts itself, the operator's included", async () => {
      const { user } = await owner();
      const operators = right(await accounts.inviteMember.execute('operator', 'dsh_c', 'OWNER@example.com', 'owner'));
      expect(operators.invitation).to.deep.include({
        dashboardId: 'dsh_c',
        email: 'owner@example.com',
        role: 'owner',
        invitedBy: 'operator',
      });
      const accept = (password: string, signedInUserId?: string) =>
        accounts.acceptInvitation.execute({
          token: operators.token,
          password,
          address: '10.0.9.8',
          ...(signedInUserId === undefined ? {} : { signedInUserId }),
        });
      expect(await accept('a wrong password!')).to.deep.equal(E.left({ _tag: 'InvalidCredentials' }));
      expect(await accept('', 'usr_someone_else')).to.deep.equal(E.left({ _tag: 'SignedInAsAnother', email: 'owner@example.com' }));
      expect(await dashboardsOf('owner@example.com')).to.deep.equal(['dsh_a:owner']);
      right(await accept(PASSWORD));
      expect(await dashboardsOf('owner@example.com')).to.deep.equal(['dsh_a:owner', 'dsh_c:owner']);
      expect(user.id).to.equal(O.toUndefined(await storage.accounts.users.findByEmail('owner@example.com'))?.id);
    });
  });

  describe('sign-in', () => {
    it('opens a session for the right password (case-insensitive email), stored as a hash', async () => {
      await owner();
      const opened = right(await accounts.signIn.execute('OWNER@example.com', PASSWORD, '10.0.0.1'));
      expect(opened.sessionId).to.match(/^[\w-]{43}$/);
      expect(opened.session.idHash).not.to.equal(opened.sessionId);
      expect(opened.session.expiresAt).to.deep.equal(new Date('2026-05-08T10:00:00.000Z'));
      const signedIn = right(await accounts.authenticateSession.execute(opened.sessionId));
      expect(signedIn.user.email).to.equal('owner@example.com');
      expect(signedIn.memberships.map((m) => m.role)).to.deep.equal(['owner']);
    });

    it('answers an unknown email and a wrong password alike, after the same hashing work', async () => {
      await owner();
      expect(await accounts.signIn.execute('owner@example.com', 'wrong password!', '10.0.0.1')).to.deep.equal(
        E.left({ _tag: 'InvalidCredentials' }),
      );
      expect(await accounts.signIn.execute('nobody@example.com', 'wrong password!', '10.0.0.1')).to.deep.equal(
        E.left({ _tag: 'InvalidCredentials' }),
      );
      expect([hasher.verified, hasher.nothing]).to.deep.equal([1, 1]);
    });

    it('takes about as long for an unknown email as for a wrong password (medians within 2x)', async () => {
      await owner();
      const median = async (email: string): Promise<number> => {
        const times: number[] = [];
        for (let i = 0; i < 9; i++) {
          const started = performance.now();
          await accounts.signIn.execute(email, 'wrong password!', `10.0.1.${i}`);
          times.push(performance.now() - started);
          clock.advance(16 * 60_000);
        }
        return times.sort((a, b) => a - b)[4];
      };
      await median('nobody@example.com'); // warms the dummy hash
      const [unknown, wrong] = [await median('nobody@example.com'), await median('owner@example.com')];
      expect(unknown / wrong, `unknown ${unknown.toFixed(1)} ms, wrong ${wrong.toFixed(1)} ms`).to.be.within(0.5, 2);
    });

    it('throttles an account from one address after 3 failures, while it still signs in from another', async () => {
      await owner();
      for (let i = 0; i < 3; i++) await accounts.signIn.execute('owner@example.com', 'wrong password!', '10.0.2.1');
      const verifiedBefore = hasher.verified;
      expect(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.2.1')).to.deep.equal(
        E.left({ _tag: 'SignInThrottled', retryAfterSeconds: 900 }),
      );
      expect(hasher.verified, 'a throttled attempt checks no password').to.equal(verifiedBefore);
      expect(E.isRight(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.2.2'))).to.equal(true);
      clock.advance(15 * 60_000);
      expect(E.isRight(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.2.1'))).to.equal(true);
    });

    it('throttles an account alone only after 5 failures from everywhere, and lets it in again after the window', async () => {
      await owner();
      for (let i = 0; i < 4; i++) await accounts.signIn.execute('owner@example.com', 'wrong password!', `10.0.3.${i}`);
      expect(E.isRight(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.3.99')), 'a success is no failure').to.equal(
        true,
      );
      await accounts.signIn.execute('owner@example.com', 'wrong password!', '10.0.3.4');
      expect(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.3.99')).to.deep.equal(
        E.left({ _tag: 'SignInThrottled', retryAfterSeconds: 900 }),
      );
      clock.advance(15 * 60_000);
      expect(E.isRight(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.3.99'))).to.equal(true);
    });

    it('throttles an address after 8 failures whatever the emails, counting no success', async () => {
      await owner();
      for (let i = 0; i < 7; i++) await accounts.signIn.execute(`user${i}@example.com`, 'wrong password!', '10.0.4.1');
      for (let i = 0; i < 3; i++)
        expect(E.isRight(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.4.1'))).to.equal(true);
      await accounts.signIn.execute('user7@example.com', 'wrong password!', '10.0.4.1');
      const refused = await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.4.1');
      expect(E.isLeft(refused) && refused.left._tag).to.equal('SignInThrottled');
      expect(E.isRight(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.4.2'))).to.equal(true);
    });

    it('checks no more than 3 parallel guesses of one account from one address', async () => {
      await owner();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => accounts.signIn.execute('owner@example.com', 'wrong password!', '10.0.5.1')),
      );
      expect(answers.map((answer) => (E.isLeft(answer) ? answer.left._tag : 'Right')).sort()).to.deep.equal([
        ...Array<string>(3).fill('InvalidCredentials'),
        ...Array<string>(7).fill('SignInThrottled'),
      ]);
      expect(hasher.verified).to.equal(3);
    });
  });

  describe('a password change', () => {
    it('counts a wrong current password like a failed sign-in, on the same counters', async () => {
      const { user } = await owner();
      for (let i = 0; i < 3; i++)
        expect(await accounts.changePassword.execute(user.id, 'not the password', 'a new password 1', '10.0.6.1')).to.deep.equal(
          E.left({ _tag: 'InvalidCredentials' }),
        );
      expect(await accounts.changePassword.execute(user.id, PASSWORD, 'a new password 1', '10.0.6.1')).to.deep.equal(
        E.left({ _tag: 'SignInThrottled', retryAfterSeconds: 900 }),
      );
      const refused = await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.6.1');
      expect(E.isLeft(refused) && refused.left._tag).to.equal('SignInThrottled');
      expect(E.isRight(await accounts.changePassword.execute(user.id, PASSWORD, 'a new password 1', '10.0.6.2'))).to.equal(true);
    });

    it('counts no failure for a right current password with a refused new one', async () => {
      const { user } = await owner();
      for (let i = 0; i < 5; i++)
        expect(await accounts.changePassword.execute(user.id, PASSWORD, 'short', '10.0.7.1')).to.deep.equal(
          E.left({ _tag: 'PasswordRejected', reason: 'must have at least 12 characters' }),
        );
      expect(E.isRight(await accounts.changePassword.execute(user.id, PASSWORD, 'a new password 1', '10.0.7.1'))).to.equal(true);
    });
  });

  describe('a full hashing queue (decision 0023)', () => {
    it('answers PasswordHashingBusy at once to sign-in, password change and invitation, counting no failure', async () => {
      const { user } = await owner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'new@example.com', 'analyst'));
      const held = new HeldHasher();
      const bounded = withHasher(new BoundedPasswordHasher(held, { concurrency: 1, queue: 1, queuePerClient: 1 }));
      held.hold();
      const first = bounded.signIn.execute('owner@example.com', 'wrong password!', '10.0.8.1');
      const second = bounded.signIn.execute('owner@example.com', 'wrong password!', '10.0.8.2');
      await eventually('one hash running', async () => held.inFlight === 1);
      const busy = [
        await bounded.signIn.execute('owner@example.com', PASSWORD, '10.0.8.3'),
        await bounded.signIn.execute('owner@example.com', PASSWORD, '10.0.8.3'),
        await bounded.signIn.execute('owner@example.com', PASSWORD, '10.0.8.3'),
        await bounded.signIn.execute('owner@example.com', PASSWORD, '10.0.8.3'),
        await bounded.changePassword.execute(user.id, PASSWORD, 'a new password 1', '10.0.8.3'),
        await bounded.acceptInvitation.execute({ token: issued.token, password: 'a new password 1', address: '10.0.8.3' }),
        await bounded.createOwner.execute('dsh_a', 'other@example.com', 'a new password 1'),
        await bounded.resetPassword.execute('owner@example.com', 'a new password 1'),
      ];
      for (const answer of busy) expect(E.isLeft(answer) && answer.left._tag).to.equal('PasswordHashingBusy');
      held.release();
      expect([await first, await second]).to.deep.equal([E.left({ _tag: 'InvalidCredentials' }), E.left({ _tag: 'InvalidCredentials' })]);
      expect(held.maxInFlight).to.equal(1);
      expect(
        E.isRight(await bounded.signIn.execute('owner@example.com', PASSWORD, '10.0.8.3')),
        'the busy attempts left no failure',
      ).to.equal(true);
    });
  });

  describe('sessions', () => {
    it('end after 12 h without activity, and activity within that keeps them', async () => {
      await owner();
      const { sessionId } = right(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.1'));
      clock.advance(11 * 3_600_000);
      expect(E.isRight(await accounts.authenticateSession.execute(sessionId))).to.equal(true);
      clock.advance(11 * 3_600_000);
      expect(E.isRight(await accounts.authenticateSession.execute(sessionId))).to.equal(true);
      clock.advance(12 * 3_600_000);
      expect(await accounts.authenticateSession.execute(sessionId)).to.deep.equal(E.left({ _tag: 'SessionInvalid' }));
    });

    it('end 7 days after sign-in however active', async () => {
      await owner();
      const { sessionId } = right(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.1'));
      for (let hours = 10; hours < 7 * 24; hours += 10) {
        clock.advance(10 * 3_600_000);
        expect(E.isRight(await accounts.authenticateSession.execute(sessionId)), `after ${hours} h`).to.equal(true);
      }
      clock.set('2026-05-08T10:00:00.000Z');
      expect(E.isLeft(await accounts.authenticateSession.execute(sessionId))).to.equal(true);
    });

    it('end at sign-out, and an unknown id is refused', async () => {
      await owner();
      const { sessionId } = right(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.1'));
      await accounts.signOut.execute(sessionId);
      expect(E.isLeft(await accounts.authenticateSession.execute(sessionId))).to.equal(true);
      expect(E.isLeft(await accounts.authenticateSession.execute('x'.repeat(43)))).to.equal(true);
    });

    it('all end when the password changes, and the one who changed it gets a new one', async () => {
      const { user } = await owner();
      const a = right(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.1'));
      const b = right(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.2'));
      expect(await accounts.changePassword.execute(user.id, 'not the password', 'a new password 1', '10.0.0.1')).to.deep.equal(
        E.left({ _tag: 'InvalidCredentials' }),
      );
      const changed = right(await accounts.changePassword.execute(user.id, PASSWORD, 'a new password 1', '10.0.0.1'));
      expect(E.isLeft(await accounts.authenticateSession.execute(a.sessionId))).to.equal(true);
      expect(E.isLeft(await accounts.authenticateSession.execute(b.sessionId))).to.equal(true);
      expect(E.isRight(await accounts.authenticateSession.execute(changed.sessionId))).to.equal(true);
      expect(E.isLeft(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.3'))).to.equal(true);
      expect(E.isRight(await accounts.signIn.execute('owner@example.com', 'a new password 1', '10.0.0.3'))).to.equal(true);
    });

    it('all end when the CLI resets the password', async () => {
      await owner();
      const a = right(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.1'));
      expect(right(await accounts.resetPassword.execute('owner@example.com', 'reset password 12'))).to.deep.equal({ sessionsEnded: 1 });
      expect(E.isLeft(await accounts.authenticateSession.execute(a.sessionId))).to.equal(true);
      expect(await accounts.resetPassword.execute('nobody@example.com', 'reset password 12')).to.deep.equal(
        E.left({ _tag: 'UserNotFound', email: 'nobody@example.com' }),
      );
    });
  });

  describe('invitations', () => {
    it('let an owner invite an analyst once, with a token stored as its hash, valid 7 days', async () => {
      const { user } = await owner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'Analyst@Example.com', 'analyst'));
      expect(issued.invitation.tokenHash).not.to.equal(issued.token);
      expect(issued.invitation.expiresAt).to.deep.equal(new Date('2026-05-08T10:00:00.000Z'));
      const joined = right(
        await accounts.acceptInvitation.execute({ token: issued.token, password: 'analyst password', address: '10.0.9.1' }),
      );
      expect(joined.user.email).to.equal('analyst@example.com');
      const members = right(await accounts.listMembers.execute(user.id, 'dsh_a'));
      expect(members.map(({ user: u, membership }) => `${u.email}:${membership.role}`)).to.deep.equal([
        'owner@example.com:owner',
        'analyst@example.com:analyst',
      ]);
      expect(
        await accounts.acceptInvitation.execute({ token: issued.token, password: 'analyst password', address: '10.0.9.1' }),
      ).to.deep.equal(E.left({ _tag: 'InvitationInvalid', reason: 'accepted' }));
    });

    it('cannot be made or listed by an analyst, and expire after 7 days', async () => {
      const { user } = await owner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'analyst@example.com', 'analyst'));
      const analyst = right(
        await accounts.acceptInvitation.execute({ token: issued.token, password: 'analyst password', address: '10.0.9.1' }),
      );
      expect(await accounts.inviteMember.execute({ ownerId: analyst.user.id }, 'dsh_a', 'x@example.com', 'owner')).to.deep.equal(
        E.left({ _tag: 'RoleRequired', needed: 'owner' }),
      );
      expect(await accounts.listMembers.execute(analyst.user.id, 'dsh_a')).to.deep.equal(E.left({ _tag: 'RoleRequired', needed: 'owner' }));
      const late = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'late@example.com', 'analyst'));
      clock.advance(7 * 86_400_000);
      expect(
        await accounts.acceptInvitation.execute({ token: late.token, password: 'late password 12', address: '10.0.9.1' }),
      ).to.deep.equal(E.left({ _tag: 'InvitationInvalid', reason: 'expired' }));
      expect(
        await accounts.acceptInvitation.execute({ token: 'unknown-token', password: 'late password 12', address: '10.0.9.1' }),
      ).to.deep.equal(E.left({ _tag: 'InvitationInvalid', reason: 'unknown' }));
    });

    it('keep the password of an existing user, and never lower an owner to analyst', async () => {
      const { user } = await owner();
      const toSelf = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'owner@example.com', 'analyst'));
      right(await accounts.acceptInvitation.execute({ token: toSelf.token, password: '', address: '10.0.9.1', signedInUserId: user.id }));
      expect(right(await accounts.listMembers.execute(user.id, 'dsh_a')).map(({ membership }) => membership.role)).to.deep.equal(['owner']);
      expect(E.isRight(await accounts.signIn.execute('owner@example.com', PASSWORD, '10.0.0.1'))).to.equal(true);
    });
  });

  describe('invitations to an existing account (decision 0023)', () => {
    const OTHER_PASSWORD = 'other owner password';
    /** The owner of dsh_b, whose email the owner of dsh_a invites. */
    const otherOwner = async () => {
      await storage.dashboards.insert({ id: 'dsh_b', name: 'Other shop', timezone: 'UTC', taxRate: 0, createdAt: clock.now() });
      return right(await accounts.createOwner.execute('dsh_b', 'other@example.com', OTHER_PASSWORD)).user;
    };
    const accept = (token: string, password: string, signedInUserId?: string) =>
      accounts.acceptInvitation.execute({
        token,
        password,
        address: '10.0.8.1',
        ...(signedInUserId === undefined ? {} : { signedInUserId }),
      });
    const pending = async () => (await storage.accounts.invitations.listPending('dsh_a', clock.now())).map((i) => i.email);

    it('never sign it in with the link alone: a wrong password opens nothing, counts as a sign-in, and leaves the invitation', async () => {
      const { user } = await owner();
      const other = await otherOwner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'Other@Example.com', 'owner'));
      for (let attempt = 1; attempt <= 3; attempt++)
        expect(await accept(issued.token, `guess number ${attempt}!`), `attempt ${attempt}`).to.deep.equal(
          E.left({ _tag: 'InvalidCredentials' }),
        );
      expect(await accept(issued.token, OTHER_PASSWORD), 'the sign-in throttle, reached').to.deep.equal(
        E.left({ _tag: 'SignInThrottled', retryAfterSeconds: 900 }),
      );
      expect(await storage.accounts.memberships.listByUser(other.id)).to.have.length(1);
      expect(await pending()).to.deep.equal(['other@example.com']);
      expect(right(await accounts.describeInvitation.execute(issued.token, undefined)).acceptance).to.equal('password');
    });

    it('join with the account’s own password, which opens a session of its own and keeps the password', async () => {
      const { user } = await owner();
      const other = await otherOwner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'other@example.com', 'analyst'));
      const joined = right(await accept(issued.token, OTHER_PASSWORD));
      expect([joined.user.id, joined.dashboardId]).to.deep.equal([other.id, 'dsh_a']);
      const session = right(await accounts.authenticateSession.execute(joined.session!.sessionId));
      expect(session.memberships.map((m) => `${m.dashboardId}:${m.role}`)).to.deep.equal(['dsh_b:owner', 'dsh_a:analyst']);
      expect(E.isRight(await accounts.signIn.execute('other@example.com', OTHER_PASSWORD, '10.0.0.1'))).to.equal(true);
      expect(await pending()).to.deep.equal([]);
    });

    it('join without a password when signed in as that account, and opens no other session', async () => {
      const { user } = await owner();
      const other = await otherOwner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'other@example.com', 'analyst'));
      expect(right(await accounts.describeInvitation.execute(issued.token, other.id))).to.deep.equal({
        email: 'other@example.com',
        role: 'analyst',
        dashboardName: 'Shop',
        expiresAt: new Date('2026-05-08T10:00:00.000Z'),
        acceptance: 'signedIn',
      });
      const joined = right(await accept(issued.token, '', other.id));
      expect(joined).to.deep.equal({ user: other, dashboardId: 'dsh_a' });
      expect(hasher.verified).to.equal(0);
    });

    it('are refused while signed in as another account, whether the invited email has one or not', async () => {
      const { user } = await owner();
      const other = await otherOwner();
      const toOther = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'other@example.com', 'owner'));
      const toNewcomer = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'new@example.com', 'analyst'));
      expect(await accept(toOther.token, OTHER_PASSWORD, user.id)).to.deep.equal(
        E.left({ _tag: 'SignedInAsAnother', email: 'other@example.com' }),
      );
      expect(await accept(toNewcomer.token, 'a password for me', other.id)).to.deep.equal(
        E.left({ _tag: 'SignedInAsAnother', email: 'new@example.com' }),
      );
      expect(right(await accounts.describeInvitation.execute(toNewcomer.token, other.id)).acceptance).to.equal('otherAccount');
      expect(right(await accounts.describeInvitation.execute(toNewcomer.token, undefined)).acceptance).to.equal('newAccount');
      expect(await pending()).to.deep.equal(['new@example.com', 'other@example.com']);
      expect(await storage.accounts.users.findByEmail('new@example.com')).to.deep.equal(O.none);
    });

    it('do not sign in an account made for a new email while its invitation was being accepted', async () => {
      const { user } = await owner();
      const issued = right(await accounts.inviteMember.execute({ ownerId: user.id }, 'dsh_a', 'new@example.com', 'analyst'));
      hasher.meanwhile = async () => {
        hasher.meanwhile = undefined;
        await accounts.createOwner.execute('dsh_a', 'new@example.com', 'someone else password');
      };
      expect(await accept(issued.token, 'the invitee password')).to.deep.equal(E.left({ _tag: 'EmailTaken', email: 'new@example.com' }));
      expect(E.isRight(await accounts.signIn.execute('new@example.com', 'someone else password', '10.0.0.1'))).to.equal(true);
      expect(E.isLeft(await accounts.signIn.execute('new@example.com', 'the invitee password', '10.0.0.1'))).to.equal(true);
    });
  });

  describe('removing members and revoking invitations (decision 0023)', () => {
    /** A user with a role in dsh_a, made through the store. */
    const member = async (email: string, role: 'owner' | 'analyst', dashboardId = 'dsh_a') => {
      const user = { id: `usr_${email.split('@')[0]}`, email, passwordHash: 'x', createdAt: clock.now(), passwordChangedAt: clock.now() };
      await storage.accounts.users.insert(user);
      await storage.accounts.memberships.put({ userId: user.id, dashboardId, role, createdAt: clock.now() });
      return user;
    };
    const roles = async (dashboardId = 'dsh_a') =>
      (await storage.accounts.memberships.listByDashboard(dashboardId)).map((m) => `${m.userId}:${m.role}`);

    it('let an owner remove an analyst, another owner and themselves, but never the last owner', async () => {
      const first = (await owner()).user;
      const second = await member('second@example.com', 'owner');
      await member('analyst@example.com', 'analyst');
      expect(right(await accounts.removeMember.execute({ ownerId: first.id }, 'dsh_a', { userId: 'usr_analyst' })).user.email).to.equal(
        'analyst@example.com',
      );
      right(await accounts.removeMember.execute({ ownerId: first.id }, 'dsh_a', { userId: first.id }));
      expect(await accounts.removeMember.execute({ ownerId: second.id }, 'dsh_a', { userId: second.id })).to.deep.equal(
        E.left({ _tag: 'LastOwner', dashboardId: 'dsh_a' }),
      );
      expect(await roles()).to.deep.equal(['usr_second:owner']);
    });

    it('are refused to analysts and to the owners of other dashboards; the operator may, but not the last owner either', async () => {
      const first = (await owner()).user;
      const analyst = await member('analyst@example.com', 'analyst');
      await storage.dashboards.insert({ id: 'dsh_b', name: 'Other', timezone: 'UTC', taxRate: 0, createdAt: clock.now() });
      const stranger = await member('stranger@example.com', 'owner', 'dsh_b');
      const invitation = right(
        await accounts.inviteMember.execute({ ownerId: first.id }, 'dsh_a', 'later@example.com', 'analyst'),
      ).invitation;
      const roleRequired = E.left({ _tag: 'RoleRequired', needed: 'owner' });
      for (const actor of [{ ownerId: analyst.id }, { ownerId: stranger.id }]) {
        expect(await accounts.removeMember.execute(actor, 'dsh_a', { userId: first.id })).to.deep.equal(roleRequired);
        expect(await accounts.listInvitations.execute(actor, 'dsh_a')).to.deep.equal(roleRequired);
        expect(await accounts.revokeInvitation.execute(actor, invitation.id)).to.deep.equal(
          E.left({ _tag: 'InvitationNotFound', invitationId: invitation.id }),
        );
      }
      expect(await roles()).to.deep.equal([`${first.id}:owner`, 'usr_analyst:analyst']);
      expect(right(await accounts.listInvitations.execute('operator', 'dsh_a')).map((i) => i.id)).to.deep.equal([invitation.id]);
      expect(await accounts.removeMember.execute('operator', 'dsh_a', { email: 'OWNER@example.com' })).to.deep.equal(
        E.left({ _tag: 'LastOwner', dashboardId: 'dsh_a' }),
      );
      right(await accounts.removeMember.execute('operator', 'dsh_a', { email: 'Analyst@Example.com' }));
      expect(await accounts.removeMember.execute('operator', 'dsh_a', { email: 'analyst@example.com' })).to.deep.equal(
        E.left({ _tag: 'MemberNotFound', dashboardId: 'dsh_a', member: 'analyst@example.com' }),
      );
      expect(await accounts.removeMember.execute('operator', 'dsh_a', { email: 'stranger@example.com' })).to.deep.equal(
        E.left({ _tag: 'MemberNotFound', dashboardId: 'dsh_a', member: 'stranger@example.com' }),
      );
      expect(await accounts.removeMember.execute('operator', 'dsh_a', { userId: 'usr_nobody' })).to.deep.equal(
        E.left({ _tag: 'MemberNotFound', dashboardId: 'dsh_a', member: 'usr_nobody' }),
      );
      expect(await roles('dsh_b')).to.deep.equal(['usr_stranger:owner']);
    });

    it('leave a removed member’s session open, with their other dashboards only, from their next request', async () => {
      const first = (await owner()).user;
      const issued = right(await accounts.inviteMember.execute({ ownerId: first.id }, 'dsh_a', 'analyst@example.com', 'analyst'));
      const joined = right(
        await accounts.acceptInvitation.execute({ token: issued.token, password: 'analyst password', address: '10.0.7.1' }),
      );
      await storage.dashboards.insert({ id: 'dsh_b', name: 'Other', timezone: 'UTC', taxRate: 0, createdAt: clock.now() });
      await storage.accounts.memberships.put({ userId: joined.user.id, dashboardId: 'dsh_b', role: 'analyst', createdAt: clock.now() });
      const sessionId = joined.session!.sessionId;
      expect(right(await accounts.authenticateSession.execute(sessionId)).memberships.map((m) => m.dashboardId)).to.deep.equal([
        'dsh_a',
        'dsh_b',
      ]);
      right(await accounts.removeMember.execute({ ownerId: first.id }, 'dsh_a', { userId: joined.user.id }));
      expect(right(await accounts.authenticateSession.execute(sessionId)).memberships.map((m) => m.dashboardId)).to.deep.equal(['dsh_b']);
    });

    it('revoke a pending invitation, whose link then answers as an unknown one; an accepted one is no longer pending', async () => {
      const first = (await owner()).user;
      const revoked = right(await accounts.inviteMember.execute({ ownerId: first.id }, 'dsh_a', 'later@example.com', 'analyst'));
      const used = right(await accounts.inviteMember.execute({ ownerId: first.id }, 'dsh_a', 'used@example.com', 'analyst'));
      right(await accounts.acceptInvitation.execute({ token: used.token, password: 'used password 1', address: '10.0.7.1' }));
      expect(right(await accounts.revokeInvitation.execute({ ownerId: first.id }, revoked.invitation.id)).email).to.equal(
        'later@example.com',
      );
      const unknown = E.left({ _tag: 'InvitationInvalid', reason: 'unknown' });
      expect(await accounts.describeInvitation.execute(revoked.token, undefined)).to.deep.equal(unknown);
      expect(
        await accounts.acceptInvitation.execute({ token: revoked.token, password: 'later password 1', address: '10.0.7.1' }),
      ).to.deep.equal(unknown);
      for (const id of [revoked.invitation.id, used.invitation.id, 'inv_none'])
        expect(await accounts.revokeInvitation.execute('operator', id), id).to.deep.equal(
          E.left({ _tag: 'InvitationNotFound', invitationId: id }),
        );
      expect(await storage.accounts.users.findByEmail('later@example.com')).to.deep.equal(O.none);
    });
  });
});
