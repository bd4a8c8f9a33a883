import type { MongoClient } from 'mongodb';

export interface OpTiming {
  readonly calls: number;
  readonly meanUs: number;
}

export interface PairTiming {
  readonly a: OpTiming;
  readonly b: OpTiming;
  /** a's mean time per call over b's. */
  readonly ratio: number;
}

/** Awaits `op` `calls` times, one after the other, stopping early at `deadline`; microseconds spent in total. */
const timeSequential = async (
  calls: number,
  op: (i: number) => Promise<unknown>,
  deadline: number,
): Promise<{ done: number; us: number }> => {
  const started = performance.now();
  let done = 0;
  while (done < calls && performance.now() < deadline) await op(done++);
  return { done, us: (performance.now() - started) * 1000 };
};

/**
 * Times two store operations on the same store, one call at a time, in alternating rounds (a b, b a,
 * a b, b a) so that drift over the run (GC, a warming server) falls on both alike.
 */
export const timePair = async (
  calls: number,
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
  maxMs: number,
): Promise<PairTiming> => {
  const deadline = performance.now() + maxMs;
  const warmup = Math.min(200, Math.ceil(calls / 10));
  await timeSequential(warmup, a, deadline);
  await timeSequential(warmup, b, deadline);
  const totals = { a: { done: 0, us: 0 }, b: { done: 0, us: 0 } };
  const rounds = 4;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const which of order) {
      const offset = warmup + totals[which].done;
      const { done, us } = await timeSequential(Math.ceil(calls / rounds), (i) => (which === 'a' ? a : b)(offset + i), deadline);
      totals[which].done += done;
      totals[which].us += us;
    }
  }
  const timing = (t: { done: number; us: number }): OpTiming => ({ calls: t.done, meanUs: t.us / t.done });
  return { a: timing(totals.a), b: timing(totals.b), ratio: totals.a.us / totals.a.done / (totals.b.us / totals.b.done) };
};

export interface CommandStats {
  readonly calls: number;
  /** Commands per call, all names together. */
  readonly total: number;
  /** Per command name: commands per call, and the mean time one took (sent to answered). */
  readonly byName: Readonly<Record<string, { readonly perCall: number; readonly meanMs: number }>>;
}

/**
 * Counts the commands a MongoClient opened with `monitorCommands: true` sends (`commandStarted`, by
 * command name), and times each from sent to answered (`commandSucceeded` / `commandFailed`; a
 * duplicate-key error is a command like any other).
 */
export class CommandCounter {
  private stats = new Map<string, { count: number; ms: number }>();

  constructor(client: MongoClient) {
    client.on('commandStarted', (event) => {
      const entry = this.stats.get(event.commandName) ?? { count: 0, ms: 0 };
      this.stats.set(event.commandName, { count: entry.count + 1, ms: entry.ms });
    });
    const timed = (event: { commandName: string; duration: number }): void => {
      const entry = this.stats.get(event.commandName);
      if (entry !== undefined) entry.ms += event.duration;
    };
    client.on('commandSucceeded', timed);
    client.on('commandFailed', timed);
  }

  /**
   * The commands sent while `action` ran, per call of it: `calls` calls one at a time, fewer when
   * `deadline` comes first. Includes whatever else the client sent meanwhile.
   */
  async perCall(calls: number, action: (i: number) => Promise<unknown>, deadline: number): Promise<CommandStats> {
    this.stats = new Map();
    let done = 0;
    while (done < calls && performance.now() < deadline) await action(done++);
    return this.summary(done);
  }

  /** The commands sent while `action` ran once, per unit of work it stands for (`units` requests, say). */
  async perUnit(units: number, action: () => Promise<unknown>): Promise<CommandStats> {
    this.stats = new Map();
    await action();
    return this.summary(units);
  }

  private summary(calls: number): CommandStats {
    const byName = Object.fromEntries(
      [...this.stats]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, { count, ms }]) => [name, { perCall: count / calls, meanMs: ms / count }]),
    );
    return { calls, total: Object.values(byName).reduce((sum, { perCall }) => sum + perCall, 0), byName };
  }
}
