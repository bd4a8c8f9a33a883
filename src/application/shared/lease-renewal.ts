import type { Clock } from '../ports/clock';

/** How long a claim holds unless renewed, and how often work in flight renews it. */
export interface LeaseTimes {
  readonly leaseMs: number;
  readonly renewEveryMs: number;
}

/**
 * Runs `work` while renewing its claim every `renewEveryMs` to `leaseMs` from now, so that a slow
 * platform or receiver does not let the claim lapse. A renewal that fails is not retried: the claim
 * then ends at its time, and the write that finishes the work, filtered on the lease, says so.
 */
export const whileLeased = async <A>(
  renew: (until: Date) => Promise<unknown>,
  clock: Clock,
  times: LeaseTimes,
  work: () => Promise<A>,
): Promise<A> => {
  const renewal = setInterval(() => {
    renew(new Date(clock.now().getTime() + times.leaseMs)).catch(() => undefined);
  }, times.renewEveryMs);
  try {
    return await work();
  } finally {
    clearInterval(renewal);
  }
};
