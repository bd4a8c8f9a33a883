import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { tokenRevoked, unauthorized, type AuthError } from '../shared/errors';
import type { TokenRepository } from '../ports/token-repository';
import type { TokenSecrets } from '../ports/token-secrets';

export interface Principal {
  readonly dashboardId: string;
  readonly tokenId: string;
}

export class AuthenticateToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly secrets: TokenSecrets,
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
    if (found.value.revokedAt !== undefined) return E.left(tokenRevoked);
    return E.right({ dashboardId: found.value.dashboardId, tokenId: found.value.id });
  }
}
