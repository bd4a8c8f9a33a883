/** Makes plain API tokens and the one-way hash under which they are stored (decision 0008). */
export interface TokenSecrets {
  /** A new plain token: a fixed prefix and at least 128 bits of randomness. */
  generate(): string;
  /** False for anything that cannot be a token made by `generate`, so it is refused without a look-up. */
  isWellFormed(plain: string): boolean;
  /** The SHA-256 hash (lowercase hex) under which the token is stored. */
  hash(plain: string): string;
  /** Compares two hashes in constant time. */
  sameHash(a: string, b: string): boolean;
}
