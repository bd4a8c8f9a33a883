import { expect } from 'chai';
import { DashboardShares, type ReleaseShare } from '../../../src/adapters/system/dashboard-shares';

const never = (): AbortSignal => new AbortController().signal;

/** Whether `promise` has settled after the pending callbacks ran. */
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("each dashboard's share of the requests in progress", () => {
  it('lets a dashboard alone have as many requests in progress as it sends', async () => {
    const shares = new DashboardShares(2, 50);
    const taken = await Promise.all(Array.from({ length: 6 }, () => shares.take('dsh_a', never())));
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 6, waiting: 0 });
    for (const release of taken) release();
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 0, waiting: 0 });
  });

  it('holds a dashboard to its share while another is active, starting its waiters in order as its requests end', async () => {
    const shares = new DashboardShares(2, 10_000);
    const b = await shares.take('dsh_b', never());
    const first = await shares.take('dsh_a', never());
    const second = await shares.take('dsh_a', never());
    const started: number[] = [];
    const third = shares.take('dsh_a', never()).then((release) => (started.push(3), release));
    const fourth = shares.take('dsh_a', never()).then((release) => (started.push(4), release));
    expect(await settled(third)).to.equal(false);
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 2, waiting: 2 });
    // The other dashboard's next request is not held behind them.
    const b2 = await shares.take('dsh_b', never());
    first();
    expect(await settled(third)).to.equal(true);
    expect(await settled(fourth)).to.equal(false);
    second();
    const releaseFourth = await fourth;
    expect(started).to.deep.equal([3, 4]);
    (await third)();
    releaseFourth();
    b();
    b2();
    expect([shares.load('dsh_a'), shares.load('dsh_b')]).to.deep.equal([
      { inFlight: 0, waiting: 0 },
      { inFlight: 0, waiting: 0 },
    ]);
  });

  it('counts a dashboard as active for a while after its last request began, then lets the other have all it sends', async () => {
    const shares = new DashboardShares(1, 100);
    (await shares.take('dsh_b', never()))();
    const first = await shares.take('dsh_a', never());
    const started = performance.now();
    const second = shares.take('dsh_a', never());
    expect(await settled(second), 'dsh_b began a request a moment ago').to.equal(false);
    const release = await second;
    expect(performance.now() - started).to.be.at.least(90);
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 2, waiting: 0 });
    first();
    release();
  });

  it('takes a waiter whose client went away out of the queue, and never refuses', async () => {
    const shares = new DashboardShares(1, 10_000);
    const b = await shares.take('dsh_b', never());
    const a = await shares.take('dsh_a', never());
    const gone = new AbortController();
    const leaving = shares.take('dsh_a', gone.signal);
    const staying = shares.take('dsh_a', never());
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 1, waiting: 2 });
    gone.abort();
    const nothing: ReleaseShare = await leaving;
    nothing();
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 1, waiting: 1 });
    a();
    (await staying)();
    b();
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 0, waiting: 0 });
  });

  it('forgets the dashboards that went quiet: after 100 others, a dashboard alone again has all it sends', async () => {
    const shares = new DashboardShares(1, 50);
    for (let i = 0; i < 100; i++) (await shares.take(`dsh_${i}`, never()))();
    await new Promise((done) => setTimeout(done, 60));
    const taken = await Promise.all(Array.from({ length: 3 }, () => shares.take('dsh_a', never())));
    expect(shares.load('dsh_a')).to.deep.equal({ inFlight: 3, waiting: 0 });
    for (const release of taken) release();
  });
});
