import type { Option } from 'fp-ts/Option';
import type { ApiToken } from '../../domain/dashboard';

/** Where API tokens live: hashes only, never a plain token. */
export interface TokenRepository {
  /** Stores a new token; its id and hash are unique. */
  insert(token: ApiToken): Promise<void>;
  /** The token whose SHA-256 hash is `hash`, revoked or not, or `none`. */
  findByHash(hash: string): Promise<Option<ApiToken>>;
  /** The dashboard's tokens, oldest first (then by id). */
  listByDashboard(dashboardId: string): Promise<readonly ApiToken[]>;
  /**
   * Marks the token revoked at `at`, atomically and idempotently: a token already revoked keeps its
   * first `revokedAt`. Resolves the token as stored afterwards, or `none` when there is no such token.
   */
  revoke(tokenId: string, at: Date): Promise<Option<ApiToken>>;
  /** Sets `lastUsedAt` to `at` unless it is already `at` or later; nothing for an unknown token. */
  recordUse(tokenId: string, at: Date): Promise<void>;
}
