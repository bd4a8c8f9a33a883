import {
  type Collection,
  type Document,
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type OptionalUnlessRequiredId,
} from 'mongodb';
import { StorageUnavailableError } from '../../application/ports/storage-health';

/**
 * Server error codes that say "not now" rather than "never": the node is unreachable, shutting down,
 * stepping down or out of time, or it reads but cannot write (a full disk, writes blocked by an
 * operator). A retry later may well succeed, so the request answers 503 (decision 0023).
 */
const TRANSIENT_SERVER_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  371, // UserWritesBlocked
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
  14031, // OutOfDiskSpace
]);

/**
 * The connection pool's own refusals, which the driver does not export as classes: no connection
 * came free in time, or the pool was closed under the request. (A pool cleared after a network
 * error is a MongoNetworkError.)
 */
const POOL_REFUSALS = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError']);

/** True for driver errors that mean the server could not be reached or answer in time. */
export const isUnavailable = (err: unknown): boolean =>
  err instanceof MongoServerSelectionError ||
  err instanceof MongoNetworkError ||
  err instanceof MongoOperationTimeoutError ||
  err instanceof MongoTopologyClosedError ||
  err instanceof MongoClientClosedError ||
  err instanceof MongoServerClosedError ||
  err instanceof MongoNotConnectedError ||
  (err instanceof MongoError && POOL_REFUSALS.has(err.name)) ||
  (err instanceof MongoServerError && typeof err.code === 'number' && TRANSIENT_SERVER_CODES.has(err.code)) ||
  (err instanceof MongoError && err.hasErrorLabel('RetryableWriteError'));

/** A unique index refused the write (code 11000). */
export const isDuplicateKey = (err: unknown): boolean => err instanceof MongoServerError && err.code === 11000;

/**
 * Runs one storage operation and turns "not now" (the server cannot be reached, or cannot write)
 * into `StorageUnavailableError` (503); any other failure is rethrown as it is (500). The message
 * names the driver error and the server's code only: its own message may carry host names and never
 * helps the client.
 */
export const guarded = async <A>(operation: () => Promise<A>): Promise<A> => {
  try {
    return await operation();
  } catch (err) {
    if (isUnavailable(err)) {
      const name = (err as Error).name;
      throw new StorageUnavailableError(
        err instanceof MongoServerError
          ? `MongoDB cannot take the request now (${name} ${String(err.code)})`
          : `MongoDB cannot be reached (${name})`,
        { cause: err },
      );
    }
    throw err;
  }
};

/** Inserts `document`, resolving false when a unique index refuses it. */
export const insertUnlessDuplicate = async <D extends Document>(
  collection: Collection<D>,
  document: OptionalUnlessRequiredId<D>,
): Promise<boolean> => {
  try {
    await guarded(() => collection.insertOne(document));
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
};
