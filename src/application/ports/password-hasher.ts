/**
 * A memory-hard password hash (decision 0017), run off the event loop. Each method may reject with
 * `PasswordHashingBusy` when the process already runs and queues as many hashes as it takes
 * (decision 0023): nothing was computed, and the caller may try again later.
 */
export interface PasswordHasher {
  /** `client`: who asks (HashingClient), so that one client's many requests wait behind one another, not before others'. */
  hash(password: string, client: HashingClient): Promise<string>;
  /** Whether `password` matches `stored`, compared in constant time. */
  verify(password: string, stored: string, client: HashingClient): Promise<boolean>;
  /**
   * The work of a verification against no stored hash, for an unknown email: the answer takes about
   * as long as for a wrong password, so it does not tell which emails have accounts.
   */
  verifyNothing(password: string, client: HashingClient): Promise<void>;
}

/**
 * Who a password hash is made for: the client's address as the service sees it (the one its sign-in
 * throttling counts), or OPERATOR_CLIENT for the CLI.
 */
export type HashingClient = string;

/** The operator at the command line, beside the store: one client, whatever the command. */
export const OPERATOR_CLIENT: HashingClient = 'operator';

/**
 * The hasher's refusal when its queue is full: an expected outcome, which the account use cases
 * answer as `PasswordHashingBusy` (an AccountError), not a failure of the service.
 */
export class PasswordHashingBusy extends Error {
  override readonly name = 'PasswordHashingBusy';

  constructor(readonly retryAfterSeconds: number) {
    super(`password hashing is busy; retry after ${retryAfterSeconds} s`);
  }
}

/** Random secrets for sessions and invitations: shown once, stored as their SHA-256. */
export interface OpaqueSecrets {
  /** About 256 random bits, URL-safe. */
  generate(): string;
  hash(plain: string): string;
}
