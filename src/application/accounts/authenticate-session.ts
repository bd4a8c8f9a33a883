import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { sessionEnded, type Membership, type Session, type User } from '../../domain/account';
import type { AccountStores } from '../ports/account-repositories';
import type { Clock } from '../ports/clock';
import type { OpaqueSecrets } from '../ports/password-hasher';
import { StorageUnavailableError } from '../ports/storage-health';
import { sessionInvalid, type AccountError } from './account-errors';

export interface SignedIn {
  readonly user: User;
  readonly session: Session;
  readonly memberships: readonly Membership[];
}

/** `lastSeenAt` is written at most once a minute per session: a page view is not a write. */
const TOUCH_EVERY_MS = 60_000;

/**
 * A write that only tidies up (the last-seen time, an ended session) is best effort: a read-only or
 * full store must not turn a page that reads into a failure (decision 0023). A next request tries again.
 */
const bestEffort = async (write: Promise<unknown>): Promise<void> => {
  try {
    await write;
  } catch (err) {
    if (!(err instanceof StorageUnavailableError)) throw err;
  }
};

export class AuthenticateSession {
  constructor(
    private readonly accounts: AccountStores,
    private readonly secrets: OpaqueSecrets,
    private readonly clock: Clock,
  ) {}

  /** The user behind a session id, with their memberships; an ended session is deleted. */
  async execute(sessionId: string): Promise<E.Either<AccountError, SignedIn>> {
    const idHash = this.secrets.hash(sessionId);
    const found = await this.accounts.sessions.findByIdHash(idHash);
    if (O.isNone(found)) return E.left(sessionInvalid);
    const now = this.clock.now();
    const session = found.value;
    if (sessionEnded(session, now)) {
      await bestEffort(this.accounts.sessions.delete(idHash));
      return E.left(sessionInvalid);
    }
    const user = await this.accounts.users.findById(session.userId);
    // A session opened before the last password change is over (decision 0017).
    if (O.isNone(user) || user.value.passwordChangedAt.getTime() > session.createdAt.getTime()) {
      await bestEffort(this.accounts.sessions.delete(idHash));
      return E.left(sessionInvalid);
    }
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await bestEffort(this.accounts.sessions.touch(idHash, now));
    return E.right({ user: user.value, session, memberships: await this.accounts.memberships.listByUser(user.value.id) });
  }
}
