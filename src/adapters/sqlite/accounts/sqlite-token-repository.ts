import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import * as t from 'io-ts';
import type { Logger } from '../../../application/ports/logger';
import type { TokenRepository } from '../../../application/ports/token-repository';
import type { ApiToken } from '../../../domain/dashboard';
import { isScope, type Scope } from '../../../domain/scope';
import { decodeRow, instant, optionalInstant, present, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';

/** `scopes`: the token's scopes, space-separated, each a known one. */
const scopesColumn = new t.Type<Scope[], string, unknown>(
  'ScopesColumn',
  (u): u is Scope[] => Array.isArray(u),
  (u, c) => {
    const parts = typeof u === 'string' ? u.split(' ') : [];
    return parts.length > 0 && parts.every(isScope) ? t.success(parts) : t.failure(u, c, 'must be known scopes, space-separated');
  },
  (scopes) => scopes.join(' '),
);

const tokenRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  name: t.union([t.null, t.string]),
  hash: t.string,
  scopes: scopesColumn,
  created_at: instant,
  expires_at: optionalInstant,
  last_used_at: optionalInstant,
  revoked_at: optionalInstant,
});

const COLUMNS = 'id, dashboard_id, name, hash, scopes, created_at, expires_at, last_used_at, revoked_at';

/** A token no caller's change reaches: the kept one is handed out as copies. */
const copyOf = (token: ApiToken): ApiToken => ({
  ...token,
  scopes: [...token.scopes],
  createdAt: new Date(token.createdAt),
  ...(token.expiresAt === undefined ? {} : { expiresAt: new Date(token.expiresAt) }),
  ...(token.lastUsedAt === undefined ? {} : { lastUsedAt: new Date(token.lastUsedAt) }),
  ...(token.revokedAt === undefined ? {} : { revokedAt: new Date(token.revokedAt) }),
});

/** Tokens the cache of `findByHash` keeps; beyond it, the oldest found is forgotten. */
const CACHED_TOKENS = 10_000;

/**
 * Tokens in the `tokens` table: hashes only. The id and the hash are each unique.
 *
 * `findByHash` runs on every authenticated request, and the row it reads is the same each time until
 * the token is revoked or used in a new minute: the tokens found are kept, for as long as the file is
 * as this connection last saw it. `PRAGMA data_version` changes when another connection (another
 * process, the CLI) has committed anything; this repository is the only writer of `tokens` on this
 * connection, and forgets every kept token inside each of its writes, before it commits. A revocation
 * is therefore seen by the next request, in this process or another, as without the cache.
 */
export class SqliteTokenRepository implements TokenRepository {
  private readonly found = new Map<string, ApiToken>();
  private seenVersion: unknown;
  private readonly dataVersion: Statement;
  private readonly insertToken: Statement;
  private readonly selectByHash: Statement;
  private readonly selectOfDashboard: Statement;
  private readonly revokeToken: Statement;
  private readonly recordTokenUse: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertToken = db.prepare(
      `INSERT INTO tokens (${COLUMNS}) VALUES (@id, @dashboard_id, @name, @hash, @scopes, @created_at, @expires_at, NULL, NULL)`,
    );
    this.selectByHash = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE hash = ?`);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.selectOfDashboard = db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE dashboard_id = ? ORDER BY created_at, id`);
    // One statement: the first revocation's time is kept, and every call gets the token as stored.
    this.revokeToken = db.prepare(`UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${COLUMNS}`);
    this.recordTokenUse = db.prepare(
      'UPDATE tokens SET last_used_at = @at WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @at)',
    );
  }

  async insert(token: ApiToken): Promise<void> {
    const row = {
      id: token.id,
      dashboard_id: token.dashboardId,
      name: token.name ?? null,
      hash: token.hash,
      scopes: token.scopes.join(' '),
      created_at: token.createdAt.getTime(),
      expires_at: token.expiresAt?.getTime() ?? null,
    };
    await this.db.write(() => {
      this.found.clear();
      this.insertToken.run(row);
    });
  }

  async findByHash(hash: string): Promise<O.Option<ApiToken>> {
    return this.db.read(() => {
      const version = this.dataVersion.get();
      if (version !== this.seenVersion) {
        this.found.clear();
        this.seenVersion = version;
      }
      const kept = this.found.get(hash);
      if (kept !== undefined) return O.some(copyOf(kept));
      const raw = this.selectByHash.get(hash);
      if (raw === undefined) return O.none;
      const token = this.decode(raw);
      if (this.found.size >= CACHED_TOKENS) this.found.delete(this.found.keys().next().value!);
      this.found.set(hash, copyOf(token));
      return O.some(token);
    });
  }

  async listByDashboard(dashboardId: string): Promise<readonly ApiToken[]> {
    return this.db.read(() => this.selectOfDashboard.all(dashboardId)).map((raw) => this.decode(raw));
  }

  async revoke(tokenId: string, at: Date): Promise<O.Option<ApiToken>> {
    const raw = await this.db.write(() => {
      this.found.clear();
      return this.revokeToken.get(at.getTime(), tokenId);
    });
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async recordUse(tokenId: string, at: Date): Promise<void> {
    await this.db.write(() => {
      this.found.clear();
      this.recordTokenUse.run({ id: tokenId, at: at.getTime() });
    });
  }

  private decode(raw: unknown): ApiToken {
    const row = decodeRow(tokenRowCodec, raw, 'tokens', rowIdOf(raw), this.logger);
    return {
      id: row.id,
      dashboardId: row.dashboard_id,
      ...present('name', row.name),
      hash: row.hash,
      scopes: row.scopes,
      createdAt: row.created_at,
      ...present('expiresAt', row.expires_at),
      ...present('lastUsedAt', row.last_used_at),
      ...present('revokedAt', row.revoked_at),
    };
  }
}
