import { expect } from 'chai';
import { RepriceRunner, REST_RATIO } from '../../../src/adapters/sqlite/reports/reprice-runner';

/** Holds the thread for `ms`, as a chunk of a job does. */
const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('the re-pricing runner', () => {
  it('rests after each chunk as long as the chunk took, so that the jobs hold the event loop half the time at most', async () => {
    const chunks: { start: number; end: number }[] = [];
    let left = 4;
    const runner = new RepriceRunner(
      () => left > 0,
      async () => {
        const start = performance.now();
        busy(20);
        chunks.push({ start, end: performance.now() });
        left -= 1;
        return true;
      },
    );
    runner.start();
    while (left > 0) await new Promise((done) => setTimeout(done, 5));
    await runner.stop();
    expect(chunks).to.have.length(4);
    for (let i = 1; i < chunks.length; i++) {
      const took = chunks[i - 1].end - chunks[i - 1].start;
      // A timer may fire a millisecond early by its rounding.
      expect(chunks[i].start - chunks[i - 1].end, `the rest after chunk ${i}`).to.be.at.least(took * REST_RATIO - 2);
    }
  });

  it('ends its rest when stopped', async () => {
    let ran = 0;
    const runner = new RepriceRunner(
      () => true,
      async () => {
        busy(200);
        ran += 1;
        return true;
      },
    );
    runner.start();
    while (ran === 0) await new Promise((done) => setTimeout(done, 5));
    const stopping = performance.now();
    await runner.stop();
    expect(performance.now() - stopping, 'stopped during a rest of 200 ms').to.be.below(150);
    expect(ran).to.equal(1);
  });
});
