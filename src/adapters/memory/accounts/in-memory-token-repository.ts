import * as O from 'fp-ts/Option';
import type { ApiToken } from '../../../domain/dashboard';
import type { TokenRepository } from '../../../application/ports/token-repository';
import { oldestFirst } from '../oldest-first';

export class InMemoryTokenRepository implements TokenRepository {
  private readonly byId = new Map<string, ApiToken>();
  private readonly idByHash = new Map<string, string>();

  async insert(token: ApiToken): Promise<void> {
    if (this.byId.has(token.id) || this.idByHash.has(token.hash)) throw new Error('token id or hash already used');
    this.byId.set(token.id, structuredClone(token));
    this.idByHash.set(token.hash, token.id);
  }

  async findByHash(hash: string): Promise<O.Option<ApiToken>> {
    const id = this.idByHash.get(hash);
    const found = id === undefined ? undefined : this.byId.get(id);
    return found === undefined ? O.none : O.some(structuredClone(found));
  }

  async listByDashboard(dashboardId: string): Promise<readonly ApiToken[]> {
    return [...this.byId.values()]
      .filter((token) => token.dashboardId === dashboardId)
      .sort(oldestFirst)
      .map((token) => structuredClone(token));
  }

  async revoke(tokenId: string, at: Date): Promise<O.Option<ApiToken>> {
    const stored = this.byId.get(tokenId);
    if (stored === undefined) return O.none;
    const revoked = stored.revokedAt === undefined ? { ...stored, revokedAt: at } : stored;
    this.byId.set(tokenId, structuredClone(revoked));
    return O.some(structuredClone(revoked));
  }

  async recordUse(tokenId: string, at: Date): Promise<void> {
    const stored = this.byId.get(tokenId);
    if (stored !== undefined && (stored.lastUsedAt === undefined || stored.lastUsedAt < at))
      this.byId.set(tokenId, { ...stored, lastUsedAt: at });
  }
}
