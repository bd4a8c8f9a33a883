import { expect } from 'chai';
import { BoundedPasswordHasher, HASHING_BOUNDS, hashConcurrency } from '../../../src/adapters/system/bounded-password-hasher';
import { PasswordHashingBusy, type PasswordHasher } from '../../../src/application/ports/password-hasher';
import { rejectionOf } from '../../support/failures';
import { cheapScrypt, HeldHasher } from '../../support/held-hasher';
import { eventually } from '../../support/webhook-receiver';

const PASSWORD = 'a password of 12+';

/** Password hashing is a bounded resource, shared fairly between clients. */
describe('BoundedPasswordHasher', () => {
  it('runs fewer hashes at once than the cores, at least 1 and at most 2, and queues 16 (8 per client) by default', () => {
    expect([1, 2, 3, 4, 16].map(hashConcurrency)).to.deep.equal([1, 1, 2, 2, 2]);
    expect(HASHING_BOUNDS).to.deep.include({ queue: 16, queuePerClient: 8 });
  });

  it('runs at most `concurrency` calls, queues `queue` more, and refuses the next at once without hashing', async () => {
    const held = new HeldHasher();
    const bounded = new BoundedPasswordHasher(held, { concurrency: 2, queue: 3, queuePerClient: 3 });
    held.hold();
    const stored = await cheapScrypt().hash(PASSWORD);
    const accepted = Array.from({ length: 5 }, () => bounded.verify(PASSWORD, stored, '10.0.0.1'));
    await eventually('two calls running', async () => held.inFlight === 2);
    const refused = await rejectionOf(bounded.verify(PASSWORD, stored, '10.0.0.2'));
    expect(refused).to.be.instanceOf(PasswordHashingBusy);
    expect((refused as PasswordHashingBusy).retryAfterSeconds).to.be.at.least(1);
    expect(await rejectionOf(bounded.hash('another password', '10.0.0.3'))).to.be.instanceOf(PasswordHashingBusy);
    expect(await rejectionOf(bounded.verifyNothing('another password', '10.0.0.1'))).to.be.instanceOf(PasswordHashingBusy);
    expect(held.calls, 'the queued and refused calls have not reached the hasher').to.equal(2);
    held.release();
    expect(await Promise.all(accepted)).to.deep.equal([true, true, true, true, true]);
    expect(held.maxInFlight).to.equal(2);
    expect(held.calls).to.equal(5);
    expect(await bounded.verify(PASSWORD, stored, '10.0.0.1'), 'the queue is free again').to.equal(true);
  });

  it("serves the clients in turn: one address's flood waits behind its own calls while another's go first", async () => {
    const held = new HeldHasher();
    const bounded = new BoundedPasswordHasher(held, { concurrency: 1, queue: 16, queuePerClient: 8 });
    held.hold();
    const flood = Array.from({ length: 9 }, (_, i) => bounded.hash(`flood ${i}`, '203.0.113.9'));
    await eventually('the first of the flood running', async () => held.inFlight === 1);
    const others = [bounded.hash('carol', '198.51.100.1'), bounded.hash('dave', '198.51.100.2')];
    const later = bounded.hash('carol again', '198.51.100.1');
    held.release();
    await Promise.all([...flood, ...others, later]);
    expect(held.order).to.deep.equal([
      'flood 0',
      'flood 1',
      'carol',
      'dave',
      'flood 2',
      'carol again',
      'flood 3',
      'flood 4',
      'flood 5',
      'flood 6',
      'flood 7',
      'flood 8',
    ]);
  });

  it('refuses a client past its share of the queue while others still find room', async () => {
    const held = new HeldHasher();
    const bounded = new BoundedPasswordHasher(held, { concurrency: 1, queue: 16, queuePerClient: 8 });
    held.hold();
    const flood = Array.from({ length: 9 }, (_, i) => bounded.hash(`flood ${i}`, '203.0.113.9'));
    await eventually('the first of the flood running', async () => held.inFlight === 1);
    expect(await rejectionOf(bounded.hash('flood 9', '203.0.113.9'))).to.be.instanceOf(PasswordHashingBusy);
    const others = Array.from({ length: 8 }, (_, i) => bounded.hash(`other ${i}`, `198.51.100.${i}`));
    expect(await rejectionOf(bounded.hash('one too many', '198.51.100.200')), 'the whole queue is full').to.be.instanceOf(
      PasswordHashingBusy,
    );
    held.release();
    await Promise.all([...flood, ...others]);
    expect(held.calls).to.equal(17);
  });

  it('gives the turn of a call that failed to the next in the queue', async () => {
    let calls = 0;
    const failing: PasswordHasher = {
      hash: async () => {
        calls++;
        if (calls === 1) throw new Error('the first hash fails');
        return 'hashed';
      },
      verify: async () => true,
      verifyNothing: async () => undefined,
    };
    const bounded = new BoundedPasswordHasher(failing, { concurrency: 1, queue: 1, queuePerClient: 1 });
    const [first, second] = [bounded.hash('one', 'a'), bounded.hash('two', 'a')];
    expect((await rejectionOf(first)).message).to.equal('the first hash fails');
    expect(await second).to.equal('hashed');
    expect(await bounded.hash('three', 'a')).to.equal('hashed');
  });
});
