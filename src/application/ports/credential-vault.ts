import type * as E from 'fp-ts/Either';

/**
 * Keeps credentials encrypted at rest (CREDENTIALS_KEY): sealed when an account is connected, opened
 * in memory only for a sync. `context` binds a sealed value to its record, so that one copied into
 * another record does not open.
 */
export interface CredentialVault {
  /** False when the service runs without a key: nothing can be sealed or opened. */
  readonly available: boolean;
  /** The credentials, sealed. Throws when the vault is not available (check `available` first). */
  seal(credentials: object, context: string): string;
  /** The credentials, or why they cannot be read (no key, another key, a value altered), in words for the account's page. */
  open(sealed: string, context: string): E.Either<string, unknown>;
}
