import { availableParallelism } from 'node:os';
import { PasswordHashingBusy, type HashingClient, type PasswordHasher } from '../../application/ports/password-hasher';

/** How many hashes run at once in the process, and how many more may wait for a turn, in all and per client. */
export interface HashingBounds {
  readonly concurrency: number;
  readonly queue: number;
  /** The most one client (one address) may have waiting: the rest of the queue stays open to others. */
  readonly queuePerClient: number;
}

/**
 * Hashes at once: fewer than the cores, so that a crowd of password forms leaves a core to every
 * other request, and at most 2, so that libuv's pool of 4 threads keeps 2 for SQLite's syncs and DNS
 * look-ups; at least 1.
 */
export const hashConcurrency = (cores: number): number => Math.max(1, Math.min(2, cores - 1));

export const HASHING_BOUNDS: HashingBounds = { concurrency: hashConcurrency(availableParallelism()), queue: 16, queuePerClient: 8 };

/** What a hash is assumed to take before one has been measured (OWASP's scrypt, docs/security.md). */
const FIRST_ESTIMATE_MS = 400;

/**
 * Any PasswordHasher, at most `concurrency` calls at a time and `queue` waiting, fairly across
 * clients: each client's calls wait in their own line, and a turn that comes free goes to the client
 * whose line is next in a round, so a client with many calls waiting gets one turn in each round
 * while a client with one gets its turn within a round. A call beyond the queue, or beyond its
 * client's `queuePerClient`, is refused at once with `PasswordHashingBusy`, its Retry-After the time
 * the queue takes to drain at the speed of the hashes measured so far.
 */
export class BoundedPasswordHasher implements PasswordHasher {
  private running = 0;
  private waitingCount = 0;
  /** Each client's waiting calls, oldest first; the map's order is the round's (a client served goes last). */
  private readonly lines = new Map<HashingClient, (() => void)[]>();
  private averageMs = FIRST_ESTIMATE_MS;

  constructor(
    private readonly inner: PasswordHasher,
    private readonly bounds: HashingBounds = HASHING_BOUNDS,
  ) {}

  hash(password: string, client: HashingClient): Promise<string> {
    return this.inTurn(client, () => this.inner.hash(password, client));
  }

  verify(password: string, stored: string, client: HashingClient): Promise<boolean> {
    return this.inTurn(client, () => this.inner.verify(password, stored, client));
  }

  verifyNothing(password: string, client: HashingClient): Promise<void> {
    return this.inTurn(client, () => this.inner.verifyNothing(password, client));
  }

  private async inTurn<A>(client: HashingClient, work: () => Promise<A>): Promise<A> {
    if (this.running < this.bounds.concurrency) this.running++;
    else {
      const line = this.lines.get(client) ?? [];
      if (this.waitingCount >= this.bounds.queue || line.length >= this.bounds.queuePerClient)
        throw new PasswordHashingBusy(this.drainSeconds());
      this.lines.set(client, line);
      this.waitingCount++;
      await new Promise<void>((resolve) => line.push(resolve));
    }
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
      this.handOver();
    }
  }

  /** The turn to the first call of the next client in the round (`running` stays as it is), or back to the pool. */
  private handOver(): void {
    const next = this.lines.entries().next();
    if (next.done === true) {
      this.running--;
      return;
    }
    const [client, line] = next.value;
    this.lines.delete(client);
    if (line.length > 1) this.lines.set(client, line);
    this.waitingCount--;
    line.shift()!();
  }

  private drainSeconds(): number {
    const turns = Math.ceil((this.running + this.waitingCount) / this.bounds.concurrency);
    return Math.max(1, Math.ceil((turns * this.averageMs) / 1000));
  }
}
