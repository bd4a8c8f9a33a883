import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import { REFUSAL_PAUSE_MS } from '../../../src/adapters/console/kit/account-messages';
import { HASHING_BOUNDS } from '../../../src/adapters/system/bounded-password-hasher';
import { RandomOpaqueSecrets } from '../../../src/adapters/system/scrypt-password-hasher';
import { compose } from '../../../src/bootstrap/composition';
import { ConsoleClient, type ConsoleResponse } from '../../support/console-client';
import { from, OWNER, startConsole, type ConsoleWorld } from '../../support/console-world';
import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { cheapScrypt, HeldHasher } from '../../support/held-hasher';
import { MutableClock } from '../../support/mutable-clock';
import { anOrderPayload } from '../../support/order-builder';
import { eventually } from '../../support/webhook-receiver';

/** The public address the tests' proxy serves the console under; X-Forwarded-For names each client. */
const PUBLIC = 'http://orders.test';
const PROXIED = { publicBaseUrl: PUBLIC, trustProxy: 1 };
const WRONG = 'not the password!';
/** Hashes at once on this machine (fewer than its cores): the queue's 16 places come on top. */
const { concurrency: RUNNING, queue: QUEUED } = HASHING_BOUNDS;

const expectRetryAfter = (res: ConsoleResponse, status: number): void => {
  expect(res.status, res.text).to.equal(status);
  expect(Number(res.headers['retry-after'])).to.be.at.least(1);
};

/** decision 0023: nobody stalls the service with password work, and nobody locks another out cheaply. */
describe('the console’s passwords under load and guessing (over HTTP)', () => {
  let world: ConsoleWorld;
  const client = () => new ConsoleClient(world.api.url, PUBLIC);
  afterEach(async () => world?.api.stop());

  describe('hashing, a bounded resource', () => {
    let held: HeldHasher;
    beforeEach(async () => {
      held = new HeldHasher();
      world = await startConsole(PROXIED, held);
    });

    it('hashes fewer passwords at once than the cores, queues 16 and answers 503 with Retry-After beyond, while orders are still taken', async () => {
      const analyst = client();
      expect((await analyst.signIn(OWNER.email, OWNER.password, from('198.51.100.1'))).status).to.equal(303);
      await analyst.get('/console/password');
      held.hold();
      const answered: ConsoleResponse[] = [];
      const changes = Array.from({ length: 40 }, (_, i) =>
        analyst.post('/console/password', { current: WRONG, next: 'a new password 12' }, from(`198.51.100.${10 + i}`)).then((res) => {
          answered.push(res);
          return res;
        }),
      );
      const refused = 40 - RUNNING - QUEUED;
      await eventually(`${refused} answers while ${RUNNING} hashes are held`, async () => answered.length >= refused);
      for (const res of answered) {
        expectRetryAfter(res, 503);
        expect(res.text).to.contain('Try again');
      }
      expect(held.inFlight, 'hashes running').to.equal(RUNNING);
      const order = await world.api.request('POST', '/api/v1/orders', { token: world.token, body: anOrderPayload() });
      expect(order.status, 'an order while the queue is full').to.equal(201);
      held.release();
      const all = await Promise.all(changes);
      expect(all.filter((res) => res.status === 400)).to.have.length(RUNNING + QUEUED);
      expect(all.filter((res) => res.status === 503)).to.have.length(refused);
      expect(held.maxInFlight).to.equal(RUNNING);
    });

    it('holds sign-ins to the same bounds, an unknown email as a known one', async () => {
      held.hold();
      const answered: ConsoleResponse[] = [];
      const signIns = Array.from({ length: 50 }, (_, i) =>
        client()
          .signIn(i % 2 === 0 ? OWNER.email : `nobody${i}@shop.example`, WRONG, from(`203.0.113.${i + 1}`))
          .then((res) => {
            answered.push(res);
            return res;
          }),
      );
      await eventually('the answers beyond the queue while hashes are held', async () => answered.length >= 50 - RUNNING - QUEUED);
      for (const res of answered) expectRetryAfter(res, 503);
      held.release();
      const all = await Promise.all(signIns);
      expect(all.filter((res) => res.status === 401)).to.have.length(RUNNING + QUEUED);
      expect(held.maxInFlight).to.equal(RUNNING);
      expect(
        (await client().signIn(OWNER.email, OWNER.password, from('203.0.113.200'))).status,
        'the busy attempts counted nothing',
      ).to.equal(303);
    });
    it("checks another address's password before most of one address's flood, which waits behind itself", async () => {
      held.hold();
      // One address's sign-ins (unknown emails, hashed all the same): as many as run, its 8 places, and one more, refused.
      const answered: ConsoleResponse[] = [];
      const flood = Array.from({ length: RUNNING + 9 }, (_, i) =>
        client()
          .signIn(`nobody${i}@shop.example`, WRONG, from('198.51.100.66'))
          .then((res) => (answered.push(res), res)),
      );
      await eventually('the flood in the queue, its last one refused', async () => answered.length === 1);
      expectRetryAfter(answered[0], 503);
      const other = client().signIn(OWNER.email, OWNER.password, from('198.51.100.77'));
      // Its attempt is counted just before it asks for its hash: once the count shows, it is in the queue.
      const pair = `password:pair:${new RandomOpaqueSecrets().hash(`${OWNER.email}\n198.51.100.77`)}`;
      await eventually(
        'the other address counted',
        async () => (await world.storage.rateLimits.hit(pair, 15 * 60_000, new Date(), 0)).count === 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      held.release();
      expect((await other).status).to.equal(303);
      expect((await Promise.all(flood)).filter((res) => res.status === 401)).to.have.length(RUNNING + 8);
      expect(held.order.indexOf(OWNER.password), 'the other address, within the first round').to.be.at.most(RUNNING + 1);
    });

    it('answers an invitation’s acceptance 503 with Retry-After while the queue is full', async () => {
      const { useCases } = compose({
        storage: world.storage,
        transitions: {},
        rateLimit: { max: 1000, windowSeconds: 60 },
        idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
        passwords: cheapScrypt(),
      });
      const owner = await world.storage.accounts.users.findByEmail(OWNER.email);
      if (O.isNone(owner)) throw new Error('no owner');
      const issued = await useCases.inviteMember.execute({ ownerId: owner.value.id }, world.dashboardId, 'new@shop.example', 'analyst');
      if (issued._tag === 'Left') throw new Error(issued.left._tag);
      held.hold();
      let refused = 0;
      const signIns = Array.from({ length: 30 }, (_, i) =>
        client()
          .signIn(OWNER.email, WRONG, from(`203.0.113.${i + 1}`))
          .then((res) => (refused += res.status === 503 ? 1 : 0)),
      );
      await eventually('sign-ins refused: the queue is full', async () => refused >= 30 - RUNNING - QUEUED);
      const accepted = await client().post('/console/invitations/accept', { token: issued.right.token, password: 'a new password 12' });
      expectRetryAfter(accepted, 503);
      expect(accepted.text).to.contain('Try again in');
      held.release();
      await Promise.all(signIns);
      expect(held.maxInFlight).to.equal(RUNNING);
    });
  });

  describe('lock-outs', () => {
    beforeEach(async () => {
      // A clock that stands still: the windows are fixed 15-minute windows, and a test that ran across
      // the end of one (real time, under load) saw its counts start again and let a password in.
      world = await startConsole(PROXIED, cheapScrypt(), inMemoryStorage(), { clock: new MutableClock() });
    });

    it('refuses one address 15 minutes after 10 wrong passwords for an account, and lets the account in from another', async () => {
      for (let i = 0; i < 10; i++) expect((await client().signIn(OWNER.email, WRONG, from('198.51.100.7'))).status).to.equal(401);
      const refused = await client().signIn(OWNER.email, OWNER.password, from('198.51.100.7'));
      expectRetryAfter(refused, 429);
      expect(Number(refused.headers['retry-after'])).to.be.at.most(900);
      expect(refused.text).to.contain('Too many attempts');
      expect((await client().signIn(OWNER.email, OWNER.password, from('198.51.100.8'))).status).to.equal(303);
    });

    it('answers a throttled attempt after a pause, so that a client sending the next at once gets one refusal a second a connection', async () => {
      for (let i = 0; i < 10; i++) expect((await client().signIn(OWNER.email, WRONG, from('198.51.100.9'))).status).to.equal(401);
      const started = performance.now();
      const refused = await Promise.all(Array.from({ length: 4 }, () => client().signIn(OWNER.email, WRONG, from('198.51.100.9'))));
      const took = performance.now() - started;
      for (const res of refused) expectRetryAfter(res, 429);
      expect(took, 'the refusals waited the pause, side by side').to.be.at.least(REFUSAL_PAUSE_MS - 50);
      const wrong = performance.now();
      expect((await client().signIn(OWNER.email, WRONG, from('198.51.100.10'))).status).to.equal(401);
      expect(performance.now() - wrong, 'a wrong password that is not throttled is answered without the pause').to.be.below(
        REFUSAL_PAUSE_MS,
      );
    });

    it('refuses an address after 50 wrong passwords whatever the accounts, never counting its successes', async () => {
      for (let i = 0; i < 49; i++)
        expect((await client().signIn(`nobody${i % 7}@shop.example`, WRONG, from('192.0.2.1'))).status).to.equal(401);
      for (let i = 0; i < 5; i++) expect((await client().signIn(OWNER.email, OWNER.password, from('192.0.2.1'))).status).to.equal(303);
      expect((await client().signIn('nobody@shop.example', WRONG, from('192.0.2.1'))).status).to.equal(401);
      expectRetryAfter(await client().signIn(OWNER.email, OWNER.password, from('192.0.2.1')), 429);
      expect((await client().signIn(OWNER.email, OWNER.password, from('192.0.2.2'))).status).to.equal(303);
    });

    it('throttles an account alone only after 100 wrong passwords from everywhere', async () => {
      for (let i = 0; i < 99; i++) expect((await client().signIn(OWNER.email, WRONG, from(`10.1.${i}.1`))).status).to.equal(401);
      expect((await client().signIn(OWNER.email, OWNER.password, from('10.2.0.1'))).status, 'after 99').to.equal(303);
      expect((await client().signIn(OWNER.email, WRONG, from('10.1.99.1'))).status).to.equal(401);
      expectRetryAfter(await client().signIn(OWNER.email, OWNER.password, from('10.2.0.2')), 429);
    });

    it('answers an unknown email and a wrong password with the same page and status', async () => {
      const [unknown, wrong] = [
        await client().signIn('nobody@shop.example', WRONG, from('198.51.100.9')),
        await client().signIn(OWNER.email, WRONG, from('198.51.100.9')),
      ];
      expect([unknown.status, wrong.status]).to.deep.equal([401, 401]);
      expect(unknown.text).to.equal(wrong.text);
    });

    it('counts wrong current passwords of a password change with the sign-in’s, and throttles the form the same way', async () => {
      const signedIn = client();
      expect((await signedIn.signIn(OWNER.email, OWNER.password, from('198.51.100.20'))).status).to.equal(303);
      await signedIn.get('/console/password');
      for (let i = 0; i < 10; i++) {
        const res = await signedIn.post('/console/password', { current: WRONG, next: 'a new password 12' }, from('198.51.100.20'));
        expect(res.status, res.text).to.equal(400);
      }
      const refused = await signedIn.post(
        '/console/password',
        { current: OWNER.password, next: 'a new password 12' },
        from('198.51.100.20'),
      );
      expectRetryAfter(refused, 429);
      expect(refused.text).to.contain('Too many attempts');
      expectRetryAfter(await client().signIn(OWNER.email, OWNER.password, from('198.51.100.20')), 429);
      const elsewhere = await signedIn.post(
        '/console/password',
        { current: OWNER.password, next: 'a new password 12' },
        from('198.51.100.21'),
      );
      expect(elsewhere.status, elsewhere.text).to.equal(303);
    });
  });
});
