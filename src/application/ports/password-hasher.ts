/** A memory-hard password hash (DECISIONS D17), run off the event loop. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Whether `password` matches `stored`, compared in constant time. */
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * The work of a verification against no stored hash, for an unknown email: the answer takes about
   * as long as for a wrong password, so it does not tell which emails have accounts.
   */
  verifyNothing(password: string): Promise<void>;
}

/** Random secrets for sessions and invitations: shown once, stored as their SHA-256. */
export interface OpaqueSecrets {
  /** About 256 random bits, URL-safe. */
  generate(): string;
  hash(plain: string): string;
}
