import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';
import type { TokenRepository } from '../../application/ports/token-repository';
import type { ApiToken } from '../../domain/dashboard';
import { decodeRow, instant, optionalInstant, present, rowIdOf } from './sqlite-codecs';
import type { SqliteDatabase } from './sqlite-database';

const tokenRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  name: t.union([t.null, t.string]),
  hash: t.string,
  created_at: instant,
  revoked_at: optionalInstant,
});

const COLUMNS = 'id, dashboard_id, name, hash, created_at, revoked_at';

/** Tokens in the `tokens` table: hashes only. The id and the hash are each unique. */
export class SqliteTokenRepository implements TokenRepository {
  private readonly insertToken: Statement;
  private readonly selectByHash: Statement;
  private readonly selectOfDashboard: Statement;
  private readonly revokeToken: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertToken = db.prepare(`INSERT INTO tokens (${COLUMNS}) VALUES (@id, @dashboard_id, @name, @hash, @created_at, NULL)`);
    this.selectByHash = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE hash = ?`);
    this.selectOfDashboard = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE dashboard_id = ? ORDER BY created_at, id`);
    // One statement: the first revocation's time is kept, and every call gets the token as stored.
    this.revokeToken = db.prepare(`UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${COLUMNS}`);
  }

  async insert(token: ApiToken): Promise<void> {
    const row = {
      id: token.id,
      dashboard_id: token.dashboardId,
      name: token.name ?? null,
      hash: token.hash,
      created_at: token.createdAt.getTime(),
    };
    await this.db.write(() => {
      this.insertToken.run(row);
    });
  }

  async findByHash(hash: string): Promise<O.Option<ApiToken>> {
    const raw = this.db.read(() => this.selectByHash.get(hash));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async listByDashboard(dashboardId: string): Promise<readonly ApiToken[]> {
    return this.db.read(() => this.selectOfDashboard.all(dashboardId)).map((raw) => this.decode(raw));
  }

  async revoke(tokenId: string, at: Date): Promise<O.Option<ApiToken>> {
    const raw = await this.db.write(() => this.revokeToken.get(at.getTime(), tokenId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  private decode(raw: unknown): ApiToken {
    const row = decodeRow(tokenRowCodec, raw, 'tokens', rowIdOf(raw), this.logger);
    return {
      id: row.id,
      dashboardId: row.dashboard_id,
      ...present('name', row.name),
      hash: row.hash,
      createdAt: row.created_at,
      ...present('revokedAt', row.revoked_at),
    };
  }
}
