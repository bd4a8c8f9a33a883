import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { RevokedToken } from '../../domain/dashboard';
import { tokenNotFound, type TokenNotFound } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { TokenRepository } from '../ports/token-repository';

export class RevokeToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly clock: Clock,
  ) {}

  /** Revokes the token; revoking it again keeps the first revocation time. */
  async execute(tokenId: string): Promise<E.Either<TokenNotFound, RevokedToken>> {
    const stored = await this.tokens.revoke(tokenId, this.clock.now());
    if (O.isNone(stored)) return E.left(tokenNotFound(tokenId));
    const { revokedAt } = stored.value;
    if (revokedAt === undefined) throw new Error(`the token store answered token ${tokenId} unrevoked after revoking it`);
    return E.right({ ...stored.value, revokedAt });
  }
}
