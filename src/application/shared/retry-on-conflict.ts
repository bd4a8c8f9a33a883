import { setTimeout } from 'node:timers/promises';

export class ConcurrentUpdateError extends Error {
  override readonly name = 'ConcurrentUpdateError';
}

/** What one round of a read-decide-write gives: its result, or `conflict` when another write got there first. */
export type Round<A> = { readonly done: A } | 'conflict';

/**
 * After a lost round, a pause drawn uniformly from [0, min(cap, base * 2^round)) ms ("full jitter"):
 * the losers of one round spread out instead of colliding again. Measured on 50 concurrent PATCHes of
 * one order: about 6 rounds per request instead of about 19 (docs/mongodb-notes.md).
 */
const BACKOFF_BASE_MS = 2;
const BACKOFF_CAP_MS = 100;

const pauseAfterLoss = (round: number): Promise<void> => setTimeout(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** round));

/**
 * Runs `round` (read, decide, compare-and-set on the version) until it is not outraced, at most
 * `maxRounds` times. A round is lost only when another write of the same record succeeded between its
 * read and its write, so of N writers at once none loses more than N - 1 times.
 */
export const retryOnConflict = async <A>(what: string, maxRounds: number, round: () => Promise<Round<A>>): Promise<A> => {
  for (let n = 0; n < maxRounds; n++) {
    const outcome = await round();
    if (outcome !== 'conflict') return outcome.done;
    if (n + 1 < maxRounds) await pauseAfterLoss(n);
  }
  throw new ConcurrentUpdateError(`${what} kept changing during ${maxRounds} attempts`);
};
