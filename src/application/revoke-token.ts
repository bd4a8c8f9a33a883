import * as E from 'fp-ts/Either';
import { inject, injectable } from 'tsyringe';
import type { ApiToken } from '../domain/dashboard';
import { tokenNotFound, type TokenNotFound } from './errors';
import { CLOCK, type Clock } from './ports/clock';
import { TOKEN_REPOSITORY, type TokenRepository } from './ports/token-repository';

@injectable()
export class RevokeToken {
  constructor(
    @inject(TOKEN_REPOSITORY) private readonly tokens: TokenRepository,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Revokes the token; revoking it again keeps the first revocation time. */
  async execute(tokenId: string): Promise<E.Either<TokenNotFound, ApiToken>> {
    const revoked = await this.tokens.revoke(tokenId, this.clock.now());
    return E.fromOption(() => tokenNotFound(tokenId))(revoked);
  }
}
