import type { Statement } from 'better-sqlite3';
import * as t from 'io-ts';
import type {
  ClaimOutcome,
  ClaimRequest,
  IdempotencyScope,
  IdempotencyStore,
  StoredResponse,
} from '../../../application/ports/idempotency-store';
import type { Logger } from '../../../application/ports/logger';
import { randomBase62 } from '../../system/base62';
import { decodeRow, instant, jsonText } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';

/** How often, in the time of the requests, records past their TTL are deleted. */
const PURGE_EVERY_MS = 60_000;

const claimRowCodec = t.type({
  claim_id: t.string,
  reserved_id: t.string,
  fingerprint: t.string,
  lease_expires_at: instant,
  response_status: t.union([t.null, t.number]),
  response_headers: t.union([t.null, jsonText(t.record(t.string, t.string))]),
  response_body: t.union([t.null, jsonText(t.unknown)]),
});

/** Whether a claim takes the record: it is past its TTL, or an in-progress lease has passed for the same request. */
const CLAIMABLE = 'expires_at <= @now OR (response_status IS NULL AND lease_expires_at <= @now AND fingerprint = excluded.fingerprint)';

/**
 * The whole claim in one statement, so that of racing claims (across processes too) exactly one
 * acquires: a new key or one past its TTL gets a fresh record, a lapsed lease of the same request is
 * taken over, anything else is written back as it was. The claim id RETURNING gives says who won.
 */
const CLAIM = `
  INSERT INTO idempotency_keys (dashboard_id, key, fingerprint, claim_id, reserved_id, lease_expires_at, expires_at)
  VALUES (@dashboardId, @key, @fingerprint, @claimId, @reservedId, @leaseExpiresAt, @expiresAt)
  ON CONFLICT (dashboard_id, key) DO UPDATE SET
    fingerprint = iif(expires_at <= @now, excluded.fingerprint, fingerprint),
    reserved_id = iif(expires_at <= @now, excluded.reserved_id, reserved_id),
    expires_at = iif(expires_at <= @now, excluded.expires_at, expires_at),
    response_status = iif(expires_at <= @now, NULL, response_status),
    response_headers = iif(expires_at <= @now, NULL, response_headers),
    response_body = iif(expires_at <= @now, NULL, response_body),
    claim_id = iif(${CLAIMABLE}, excluded.claim_id, claim_id),
    lease_expires_at = iif(${CLAIMABLE}, excluded.lease_expires_at, lease_expires_at)
  RETURNING claim_id, reserved_id, fingerprint, lease_expires_at, response_status, response_headers, response_body`;

/** Idempotency records in `idempotency_keys`, one row per (dashboard, key). */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly claimKey: Statement;
  private readonly completeKey: Statement;
  private readonly releaseKey: Statement;
  private readonly abandonKey: Statement;
  private readonly purge: Statement;
  private purgedAt = 0;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.claimKey = db.prepare(CLAIM);
    const held = 'dashboard_id = @dashboardId AND key = @key AND claim_id = @claimId AND response_status IS NULL';
    this.completeKey = db.prepare(
      `UPDATE idempotency_keys SET response_status = @status, response_headers = @headers, response_body = @body WHERE ${held}`,
    );
    this.releaseKey = db.prepare(`DELETE FROM idempotency_keys WHERE ${held}`);
    this.abandonKey = db.prepare(`UPDATE idempotency_keys SET lease_expires_at = @now WHERE ${held}`);
    this.purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
  }

  async claim(scope: IdempotencyScope, request: ClaimRequest): Promise<ClaimOutcome> {
    const now = request.now.getTime();
    const claimId = randomBase62(22);
    const params = {
      dashboardId: scope.dashboardId,
      key: scope.key,
      fingerprint: request.fingerprint,
      claimId,
      reservedId: request.reservedId,
      leaseExpiresAt: now + request.leaseMs,
      expiresAt: now + request.ttlMs,
      now,
    };
    const purge = now - this.purgedAt >= PURGE_EVERY_MS;
    if (purge) this.purgedAt = now;
    const raw = await this.db.write(() => {
      if (purge) this.purge.run(now);
      return this.claimKey.get(params);
    });
    const row = decodeRow(claimRowCodec, raw, 'idempotency_keys', `${scope.dashboardId}:${scope.key}`, this.logger);
    if (row.claim_id === claimId) return { kind: 'acquired', claim: { claimId, reservedId: row.reserved_id } };
    if (row.response_status !== null) {
      return {
        kind: 'completed',
        fingerprint: row.fingerprint,
        response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body },
      };
    }
    return { kind: 'in-progress', fingerprint: row.fingerprint, leaseExpiresAt: row.lease_expires_at };
  }

  async complete(scope: IdempotencyScope, claimId: string, response: StoredResponse): Promise<boolean> {
    const params = {
      dashboardId: scope.dashboardId,
      key: scope.key,
      claimId,
      status: response.status,
      headers: JSON.stringify(response.headers),
      body: JSON.stringify(response.body ?? null),
    };
    return this.db.write(() => this.completeKey.run(params).changes === 1);
  }

  async release(scope: IdempotencyScope, claimId: string): Promise<void> {
    const params = { dashboardId: scope.dashboardId, key: scope.key, claimId };
    await this.db.write(() => {
      this.releaseKey.run(params);
    });
  }

  async abandon(scope: IdempotencyScope, claimId: string, now: Date): Promise<void> {
    const params = { dashboardId: scope.dashboardId, key: scope.key, claimId, now: now.getTime() };
    await this.db.write(() => {
      this.abandonKey.run(params);
    });
  }
}
