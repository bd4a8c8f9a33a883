import { PasswordHashingBusy, type PasswordHasher } from '../../application/ports/password-hasher';

/** How many hashes run at once in the process, and how many more may wait for a turn. */
export interface HashingBounds {
  readonly concurrency: number;
  readonly queue: number;
}

/**
 * DECISIONS D23. node:crypto runs scrypt on libuv's pool of 4 threads, which SQLite's syncs and DNS
 * lookups also wait for: 2 at once leaves them 2 threads, whatever the number of password forms sent.
 */
export const HASHING_BOUNDS: HashingBounds = { concurrency: 2, queue: 16 };

/** What a hash is assumed to take before one has been measured (OWASP's scrypt, README). */
const FIRST_ESTIMATE_MS = 400;

/**
 * Any PasswordHasher, at most `concurrency` calls at a time, the next `queue` waiting in order; one
 * more is refused at once with `PasswordHashingBusy`, its Retry-After the time the queue takes to
 * drain at the speed of the hashes measured so far.
 */
export class BoundedPasswordHasher implements PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private averageMs = FIRST_ESTIMATE_MS;

  constructor(
    private readonly inner: PasswordHasher,
    private readonly bounds: HashingBounds = HASHING_BOUNDS,
  ) {}

  hash(password: string): Promise<string> {
    return this.inTurn(() => this.inner.hash(password));
  }

  verify(password: string, stored: string): Promise<boolean> {
    return this.inTurn(() => this.inner.verify(password, stored));
  }

  verifyNothing(password: string): Promise<void> {
    return this.inTurn(() => this.inner.verifyNothing(password));
  }

  private async inTurn<A>(work: () => Promise<A>): Promise<A> {
    if (this.running < this.bounds.concurrency) this.running++;
    else if (this.waiting.length < this.bounds.queue) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw new PasswordHashingBusy(this.drainSeconds());
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      // The turn goes to the first in the queue, so `running` stays as it is.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }

  private drainSeconds(): number {
    const turns = Math.ceil((this.running + this.waiting.length) / this.bounds.concurrency);
    return Math.max(1, Math.ceil((turns * this.averageMs) / 1000));
  }
}
