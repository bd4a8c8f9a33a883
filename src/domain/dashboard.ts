import type { Scope } from './scope';

/** An account: the owner of orders and of the API tokens that reach them. */
export interface Dashboard {
  readonly id: string;
  readonly name: string;
  /** IANA name: the calendar of its reports and of its spend's dates (decision 0016). */
  readonly timezone: string;
  /** Percent of paid revenue a report counts as tax (decision 0020): 0 to 100, at most 2 decimals (tax-rate.ts). */
  readonly taxRate: number;
  readonly createdAt: Date;
}

export const DEFAULT_TIMEZONE = 'UTC';

/** The most characters (code points) of a dashboard's name, and of a token's. */
export const MAX_NAME_LENGTH = 200;

/**
 * An API token as stored: only the SHA-256 hash of the secret is kept; the plain token is shown once,
 * when it is made (decision 0008).
 */
export interface ApiToken {
  readonly id: string;
  readonly dashboardId: string;
  readonly name?: string;
  readonly hash: string;
  /** What it may do (decision 0017); tokens made before scopes have every one. */
  readonly scopes: readonly Scope[];
  readonly createdAt: Date;
  /** From then on it is refused (401 TOKEN_EXPIRED). */
  readonly expiresAt?: Date;
  /** The start of the last minute it was used in, kept to the minute. */
  readonly lastUsedAt?: Date;
  readonly revokedAt?: Date;
}

/** A token after its revocation: it has the time of it. */
export type RevokedToken = ApiToken & { readonly revokedAt: Date };
