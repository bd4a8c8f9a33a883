import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { describeWithMongo } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { RunningMain } from './running-main';

const WRITERS = 50;
/** Answers to wait for before the kill: enough that the storm is in full swing. */
const ANSWERS_BEFORE_KILL = 150;

describeWithMongo('kill -9 during a storm of PATCHes on MongoDB', (mongo) => {
  let running: RunningMain | undefined;
  afterEach(async () => {
    await running?.proc.dispose();
    running = undefined;
  });

  // Relies on the atomic conditional update of the order document: a version is decided by the
  // order's own write and by nothing beside it, so a process killed in the middle of its writes
  // leaves nothing behind that could block the next one (a claim left by a dead writer did, for
  // 30 s, before).
  it('answers 200 at once to the next PATCH of the order after a restart, and counts every write (atomic conditional update)', async function () {
    this.timeout(60_000);
    const env = { MONGODB_URI: mongo.uri, MONGODB_DB: mongo.dbName, RATE_LIMIT_MAX: '1000000' };
    running = await RunningMain.start(env);
    const first = running;
    const { token } = await first.newDashboard('Storm shop');
    expect((await first.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: 'storm' }))).status).to.equal(201);

    const answered: number[] = [];
    let writing = WRITERS;
    const writer = async (i: number): Promise<void> => {
      try {
        for (let n = 0; ; n++)
          answered.push((await first.call('PATCH', '/api/v1/orders/storm', token, { metadata: { writer: i, n } })).status);
      } catch {
        // The process is gone: the request in flight has no answer.
      } finally {
        writing -= 1;
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, i) => writer(i));
    while (answered.length < ANSWERS_BEFORE_KILL && writing > 0) await sleep(10);
    first.proc.kill('SIGKILL');
    expect((await first.proc.exited).signal).to.equal('SIGKILL');
    await Promise.all(writers);
    expect(answered.length).to.be.at.least(ANSWERS_BEFORE_KILL);
    expect(answered.filter((status) => status !== 200)).to.deep.equal([]);

    running = await RunningMain.start(env);
    const second = running;
    const before = await second.call('GET', '/api/v1/orders/storm', token);
    expect(before.status).to.equal(200);
    // Every answered PATCH is in the version; writes whose answer the kill swallowed may add more.
    expect(before.body.order.version).to.be.at.least(1 + answered.length);

    const next = await second.call('PATCH', '/api/v1/orders/storm', token, { metadata: { after: 'restart' } });
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
    const after = await second.call('GET', '/api/v1/orders/storm', token);
    expect(after.body.order).to.deep.include({ version: before.body.order.version + 1, metadata: { after: 'restart' } });

    const again = await Promise.all(
      Array.from({ length: 10 }, (_, i) => second.call('PATCH', '/api/v1/orders/storm', token, { metadata: { again: i } })),
    );
    expect(again.map((res) => res.status)).to.deep.equal(Array.from({ length: 10 }, () => 200));
    expect((await second.call('GET', '/api/v1/orders/storm', token)).body.order.version).to.equal(before.body.order.version + 11);
  });
});
