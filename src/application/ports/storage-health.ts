/** Whether the storage behind the repositories answers (used by `/readyz`). */
export interface StorageHealth {
  /** Resolves true when the store answered within its own short timeout; never rejects. */
  ping(): Promise<boolean>;
  /**
   * Writes a small record of its own (a heartbeat) and resolves whether the store kept it: false on a
   * full disk or a read-only store that still answers reads. Never rejects.
   */
  canWrite(): Promise<boolean>;
  /** Releases connections; called once, at shutdown. */
  close(): Promise<void>;
}

/**
 * Thrown by storage adapters when the store cannot be reached in time, or cannot write (a full disk,
 * a read-only file): the request answers 503 and may be retried, unlike a bug, which answers 500.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
}

/** Seconds a client is asked to wait (`Retry-After`) when storage is unavailable, by the API and the console alike. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;
