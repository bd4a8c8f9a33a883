import { expect } from 'chai';
import { BoundedPasswordHasher, HASHING_BOUNDS } from '../../../src/adapters/system/bounded-password-hasher';
import { PasswordHashingBusy, type PasswordHasher } from '../../../src/application/ports/password-hasher';
import { rejectionOf } from '../../support/failures';
import { cheapScrypt, HeldHasher } from '../../support/held-hasher';
import { eventually } from '../../support/webhook-receiver';

/** DECISIONS D23: password hashing is a bounded resource. */
describe('BoundedPasswordHasher', () => {
  it('runs 2 hashes at once and queues 16 by default', () => {
    expect(HASHING_BOUNDS).to.deep.equal({ concurrency: 2, queue: 16 });
  });

  it('runs at most `concurrency` calls, queues `queue` more, and refuses the next at once without hashing', async () => {
    const held = new HeldHasher();
    const bounded = new BoundedPasswordHasher(held, { concurrency: 2, queue: 3 });
    held.hold();
    const stored = await cheapScrypt().hash('a password of 12+');
    const accepted = Array.from({ length: 5 }, () => bounded.verify('a password of 12+', stored));
    await eventually('two calls running', async () => held.inFlight === 2);
    const refused = await rejectionOf(bounded.verify('a password of 12+', stored));
    expect(refused).to.be.instanceOf(PasswordHashingBusy);
    expect((refused as PasswordHashingBusy).retryAfterSeconds).to.be.at.least(1);
    expect(await rejectionOf(bounded.hash('another password'))).to.be.instanceOf(PasswordHashingBusy);
    expect(await rejectionOf(bounded.verifyNothing('another password'))).to.be.instanceOf(PasswordHashingBusy);
    expect(held.calls, 'the queued and refused calls have not reached the hasher').to.equal(2);
    held.release();
    expect(await Promise.all(accepted)).to.deep.equal([true, true, true, true, true]);
    expect(held.maxInFlight).to.equal(2);
    expect(held.calls).to.equal(5);
    expect(await bounded.verify('a password of 12+', stored), 'the queue is free again').to.equal(true);
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
    const bounded = new BoundedPasswordHasher(failing, { concurrency: 1, queue: 1 });
    const [first, second] = [bounded.hash('one'), bounded.hash('two')];
    expect((await rejectionOf(first)).message).to.equal('the first hash fails');
    expect(await second).to.equal('hashed');
    expect(await bounded.hash('three')).to.equal('hashed');
  });
});
