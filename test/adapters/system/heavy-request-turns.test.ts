import { expect } from 'chai';
import {
  HEAVY_REQUEST_BOUNDS,
  HeavyRequestTurns,
  MAX_TURN_REST_MS,
  type ReleaseTurn,
} from '../../../src/adapters/system/heavy-request-turns';

const never = new AbortController().signal;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const taken = async (turns: HeavyRequestTurns, dashboardId: string): Promise<ReleaseTurn> => {
  const turn = await turns.take(dashboardId, never);
  if (typeof turn !== 'function') throw new Error(`refused: ${JSON.stringify(turn)}`);
  return turn;
};

/** decision 0023: the turns bound how many heavy requests of a dashboard run at once; their rest bounds how often. */
describe('heavy request turns: the rest after a turn', () => {
  it('rests a turn given back as long as it was held before the next request of its dashboard takes it, another dashboard untouched', async () => {
    const turns = new HeavyRequestTurns({ ...HEAVY_REQUEST_BOUNDS, rest: 1 });
    const first = await taken(turns, 'dsh_a');
    const next = turns.take('dsh_a', never);
    await sleep(200);
    const givenBack = performance.now();
    first();
    // Given back, but resting: the next one still waits, and the lane is still busy.
    expect(turns.load('dsh_a')).to.deep.equal({ running: 1, waiting: 1 });
    const other = await taken(turns, 'dsh_b');
    other();
    const second = await next;
    if (typeof second !== 'function') throw new Error('the waiting request was refused');
    expect(performance.now() - givenBack).to.be.at.least(150);
    second();
  });

  it('hands the turn over at once with no rest (HEAVY_TURN_REST=0), and rests at most MAX_TURN_REST_MS after a long hold', async () => {
    const eager = new HeavyRequestTurns({ ...HEAVY_REQUEST_BOUNDS, rest: 0 });
    const first = await taken(eager, 'dsh_a');
    const next = eager.take('dsh_a', never);
    await sleep(50);
    first();
    expect(eager.load('dsh_a')).to.deep.equal({ running: 1, waiting: 0 });
    const second = await next;
    if (typeof second === 'function') second();
    expect(eager.load('dsh_a')).to.deep.equal({ running: 0, waiting: 0 });

    const patient = new HeavyRequestTurns({ ...HEAVY_REQUEST_BOUNDS, rest: 10 });
    const long = await taken(patient, 'dsh_a');
    await sleep(300);
    const givenBack = performance.now();
    long();
    await taken(patient, 'dsh_a');
    const rested = performance.now() - givenBack;
    expect(rested).to.be.at.least(MAX_TURN_REST_MS - 50);
    expect(rested).to.be.below(3 * MAX_TURN_REST_MS);
  });

  it('refuses beyond the queue while a turn rests, and lets a waiter that leaves go without its turn', async () => {
    const turns = new HeavyRequestTurns({ ...HEAVY_REQUEST_BOUNDS, queue: 1, rest: 1 });
    const first = await taken(turns, 'dsh_a');
    const leaving = new AbortController();
    const waiting = turns.take('dsh_a', leaving.signal);
    expect(await turns.take('dsh_a', never)).to.deep.equal({ perDashboard: 1, queue: 1, retryAfterSeconds: 1 });
    await sleep(20);
    first();
    leaving.abort();
    const left = await waiting;
    if (typeof left === 'function') left();
    // The lane empties once the rest is over, with nobody left to take the turn.
    while (turns.load('dsh_a').running > 0) await sleep(5);
    expect(turns.load('dsh_a')).to.deep.equal({ running: 0, waiting: 0 });
  });
});
