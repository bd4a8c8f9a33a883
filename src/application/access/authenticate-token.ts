import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Scope } from '../../domain/scope';
import { tokenExpired, tokenRevoked, unauthorized, type AuthError } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { TokenRepository } from '../ports/token-repository';
import type { TokenSecrets } from '../ports/token-secrets';

export interface Principal {
  readonly dashboardId: string;
  readonly tokenId: string;
  readonly scopes: readonly Scope[];
}

const MINUTE = 60_000;
/** Tokens whose last recorded minute this process remembers; beyond it, the oldest are forgotten. */
const REMEMBERED = 10_000;

export class AuthenticateToken {
  /** The minute each token's use was last recorded by this process: one write per token and minute. */
  private readonly recorded = new Map<string, number>();

  constructor(
    private readonly tokens: TokenRepository,
    private readonly secrets: TokenSecrets,
    private readonly clock: Clock,
  ) {}

  /**
   * Finds the dashboard a plain token belongs to. The store is searched by hash, so the plain token
   * never reaches it, and the hash found is compared again in constant time.
   */
  async execute(plain: string): Promise<E.Either<AuthError, Principal>> {
    if (!this.secrets.isWellFormed(plain)) return E.left(unauthorized);
    const hash = this.secrets.hash(plain);
    const found = await this.tokens.findByHash(hash);
    if (O.isNone(found) || !this.secrets.sameHash(found.value.hash, hash)) return E.left(unauthorized);
    const token = found.value;
    if (token.revokedAt !== undefined) return E.left(tokenRevoked);
    const now = this.clock.now().getTime();
    if (token.expiresAt !== undefined && token.expiresAt.getTime() <= now) return E.left(tokenExpired);
    this.recordUse(token.id, token.lastUsedAt, now);
    return E.right({ dashboardId: token.dashboardId, tokenId: token.id, scopes: token.scopes });
  }

  /**
   * `lastUsedAt` to the minute, without a write per request: only when the stored minute is older
   * than this one and this process has not written this minute already. Not awaited, and a failure is
   * dropped (the next request tries again): a read must not fail, nor wait, on a last-use write.
   */
  private recordUse(tokenId: string, stored: Date | undefined, now: number): void {
    const minute = now - (now % MINUTE);
    if ((stored?.getTime() ?? -1) >= minute || (this.recorded.get(tokenId) ?? -1) >= minute) return;
    if (this.recorded.size >= REMEMBERED) this.recorded.delete(this.recorded.keys().next().value!);
    this.recorded.set(tokenId, minute);
    this.tokens.recordUse(tokenId, new Date(minute)).catch(() => this.recorded.delete(tokenId));
  }
}
