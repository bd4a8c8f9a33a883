import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import type {
  ClaimedDelivery,
  DeliveryLease,
  DeliveryPage,
  DeliveryQuery,
  DeliveryRepository,
  DueClaim,
} from '../../../application/ports/delivery-repository';
import type { Logger } from '../../../application/ports/logger';
import { DELIVERY_RETENTION_MS, type Delivery } from '../../../domain/delivery';
import { randomBase62 } from '../../system/base62';
import { columnLists } from '../column-lists';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';
import { DELIVERY_COLUMNS, deliveryFromRow, deliveryProgressToRow, deliveryRowCodec, deliveryToRow } from './webhook-rows';

const { names: columns, bindings } = columnLists(DELIVERY_COLUMNS);

/** Deletions of expired deliveries go by this many rows per write, so that none holds the event loop long. */
const PURGE_BATCH = 1_000;

/** The insert of a delivery; the unique (event, endpoint) pair makes it idempotent. Shared with the outbox. */
export const INSERT_DELIVERY = `INSERT INTO webhook_deliveries (${columns}, lease_until, lease_id) VALUES (${bindings}, 0, NULL)
  ON CONFLICT (event_id, endpoint_id) DO NOTHING`;

/**
 * A claim's two reads. `dueEndpoints`: the endpoints with pending deliveries, one index seek each (a
 * skip scan written as a recursive query), those not skipped, ordered by the first of their deliveries
 * that nobody holds. `dueOfEndpoint`: the first due deliveries of one endpoint, in index order. A
 * backlog of one dashboard's deliveries (thousands for endpoints that hang, while that dashboard is
 * skipped for having its share of the attempts in flight) is never walked, where a scan of every due
 * delivery in time order went through all of it at every claim.
 */
export const DELIVERY_CLAIM_SQL = {
  dueEndpoints: `WITH RECURSIVE endpoints (id) AS (
     SELECT (SELECT min(endpoint_id) FROM webhook_deliveries INDEXED BY webhook_deliveries_due_by_endpoint WHERE status = 'pending')
     UNION ALL
     SELECT (SELECT min(endpoint_id) FROM webhook_deliveries INDEXED BY webhook_deliveries_due_by_endpoint
             WHERE status = 'pending' AND endpoint_id > e.id)
     FROM endpoints e WHERE e.id IS NOT NULL
   ),
   candidates AS (
     SELECT e.id,
       (SELECT dashboard_id FROM webhook_deliveries INDEXED BY webhook_deliveries_due_by_endpoint
        WHERE endpoint_id = e.id AND status = 'pending' LIMIT 1) AS dashboard_id
     FROM endpoints e
     WHERE e.id IS NOT NULL AND e.id NOT IN (SELECT value FROM json_each(@skipEndpoints))
   ),
   due AS (
     SELECT c.id,
       (SELECT next_attempt_at FROM webhook_deliveries INDEXED BY webhook_deliveries_due_by_endpoint
        WHERE endpoint_id = c.id AND status = 'pending' AND lease_until <= @now ORDER BY next_attempt_at LIMIT 1) AS first
     FROM candidates c WHERE c.dashboard_id NOT IN (SELECT value FROM json_each(@skipDashboards))
   )
   SELECT id FROM due WHERE first <= @now ORDER BY first LIMIT @limit`,
  dueOfEndpoint: `SELECT seq, next_attempt_at FROM webhook_deliveries INDEXED BY webhook_deliveries_due_by_endpoint
   WHERE endpoint_id = @endpoint AND status = 'pending' AND next_attempt_at <= @now AND lease_until <= @now
   ORDER BY next_attempt_at LIMIT @limit`,
};

/**
 * Deliveries in `webhook_deliveries`. Every decision with a single winner is one write: a claim reads
 * the due rows that nobody holds (DELIVERY_CLAIM_SQL) and leases them with one UPDATE … RETURNING in
 * the same transaction (the file has one writer at a time, across processes too), and each later
 * write of the worker is conditioned on its lease.
 */
export class SqliteDeliveryRepository implements DeliveryRepository {
  private readonly insertDelivery: Statement;
  private readonly selectOne: Statement;
  private readonly pages: Readonly<Record<'all' | 'byStatus', { page: Statement; count: Statement }>>;
  private readonly dueEndpoints: Statement;
  private readonly dueOfEndpoint: Statement;
  private readonly claim: Statement;
  private readonly completeAttempt: Statement;
  private readonly releaseLease: Statement;
  private readonly renewLease: Statement;
  private readonly discardDelivery: Statement;
  private readonly makeDue: Statement;
  private readonly deleteOfEndpointStatement: Statement;
  private readonly purge: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertDelivery = db.prepare(INSERT_DELIVERY);
    this.selectOne = db.prepare(`SELECT ${columns} FROM webhook_deliveries WHERE id = ? AND dashboard_id = ? AND endpoint_id = ?`);
    const page = (index: string, status: string) => ({
      page: db.prepare(
        `SELECT ${columns} FROM webhook_deliveries INDEXED BY ${index}
         WHERE endpoint_id = @endpointId ${status} AND dashboard_id = @dashboardId
         ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      ),
      count: db.prepare(
        `SELECT count(*) AS total FROM webhook_deliveries INDEXED BY ${index} WHERE endpoint_id = @endpointId ${status} AND dashboard_id = @dashboardId`,
      ),
    });
    this.pages = {
      all: page('webhook_deliveries_newest_first', ''),
      byStatus: page('webhook_deliveries_by_status_newest_first', 'AND status = @status'),
    };
    this.dueEndpoints = db.prepare(DELIVERY_CLAIM_SQL.dueEndpoints);
    this.dueOfEndpoint = db.prepare(DELIVERY_CLAIM_SQL.dueOfEndpoint);
    this.claim = db.prepare(
      `UPDATE webhook_deliveries SET lease_until = @leaseUntil, lease_id = @leaseId
       WHERE seq IN (SELECT value FROM json_each(@seqs))
       RETURNING ${columns}`,
    );
    const held = 'id = @deliveryId AND lease_id = @leaseId';
    this.completeAttempt = db.prepare(
      `UPDATE webhook_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at, lease_until = 0, lease_id = NULL
       WHERE ${held}`,
    );
    this.releaseLease = db.prepare(`UPDATE webhook_deliveries SET lease_until = 0, lease_id = NULL WHERE ${held}`);
    this.renewLease = db.prepare(`UPDATE webhook_deliveries SET lease_until = @leaseUntil WHERE ${held}`);
    this.discardDelivery = db.prepare(`DELETE FROM webhook_deliveries WHERE ${held}`);
    // SET expressions all read the row as it was: a finished delivery gets one attempt, without retries.
    this.makeDue = db.prepare(
      `UPDATE webhook_deliveries
       SET automatic_retries = iif(status = 'pending', automatic_retries, 0), status = 'pending', next_attempt_at = @now
       WHERE id = @deliveryId AND dashboard_id = @dashboardId AND endpoint_id = @endpointId
       RETURNING ${columns}`,
    );
    this.deleteOfEndpointStatement = db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND dashboard_id = ?');
    this.purge = db.prepare(
      `DELETE FROM webhook_deliveries WHERE seq IN
       (SELECT seq FROM webhook_deliveries INDEXED BY webhook_deliveries_expiry WHERE created_at <= ? LIMIT ${PURGE_BATCH})`,
    );
  }

  async insert(delivery: Delivery): Promise<boolean> {
    const row = deliveryToRow(delivery);
    return this.db.write(() => this.insertDelivery.run(row).changes === 1);
  }

  async find(dashboardId: string, endpointId: string, deliveryId: string): Promise<O.Option<Delivery>> {
    const raw = this.db.read(() => this.selectOne.get(deliveryId, dashboardId, endpointId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  /** The page and the total on one snapshot. */
  async list(dashboardId: string, endpointId: string, query: DeliveryQuery): Promise<DeliveryPage> {
    const statements = query.status === undefined ? this.pages.all : this.pages.byStatus;
    const filters = { dashboardId, endpointId, ...(query.status === undefined ? {} : { status: query.status }) };
    const { raws, total } = this.db.readTogether(() => ({
      raws: statements.page.all({ ...filters, limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
      total: (statements.count.get(filters) as { total: number }).total,
    }));
    return { deliveries: raws.map((raw) => this.decode(raw)), total };
  }

  /**
   * A claim is written without waiting for the disk: a power loss can only forget it, which lets the
   * delivery be claimed again, as when its lease ends.
   */
  async claimDue({ now, leaseMs, limit, skipEndpoints, skipDashboards }: DueClaim): Promise<readonly ClaimedDelivery[]> {
    const leaseId = randomBase62(22);
    const at = now.getTime();
    const skipped = { now: at, limit, skipEndpoints: JSON.stringify(skipEndpoints), skipDashboards: JSON.stringify(skipDashboards) };
    const raws = await this.db.writeUnsynced(() => {
      const endpoints = this.dueEndpoints.pluck().all(skipped) as string[];
      // The first `limit` due deliveries of all are among the first `limit` of each of these endpoints.
      const due = endpoints
        .flatMap((endpoint) => this.dueOfEndpoint.raw().all({ endpoint, now: at, limit }) as [number, number][])
        .sort(([, a], [, b]) => a - b)
        .slice(0, limit);
      return due.length === 0 ? [] : this.claim.all({ leaseUntil: at + leaseMs, leaseId, seqs: JSON.stringify(due.map(([seq]) => seq)) });
    });
    return raws
      .map((raw) => this.decode(raw))
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime())
      .map((delivery) => ({ delivery, lease: { deliveryId: delivery.id, leaseId } }));
  }

  async complete(lease: DeliveryLease, delivery: Delivery): Promise<boolean> {
    const params = { ...lease, ...deliveryProgressToRow(delivery) };
    return this.db.write(() => this.completeAttempt.run(params).changes === 1);
  }

  /** Unsynced: a renewal lost to a power cut only ends a lease sooner, and the lease's holder went with the power. */
  async renew(lease: DeliveryLease, until: Date): Promise<boolean> {
    return this.db.writeUnsynced(() => this.renewLease.run({ ...lease, leaseUntil: until.getTime() }).changes === 1);
  }

  async release(lease: DeliveryLease): Promise<void> {
    await this.db.write(() => {
      this.releaseLease.run(lease);
    });
  }

  async discard(lease: DeliveryLease): Promise<void> {
    await this.db.write(() => {
      this.discardDelivery.run(lease);
    });
  }

  async retryNow(dashboardId: string, endpointId: string, deliveryId: string, now: Date): Promise<O.Option<Delivery>> {
    const raw = await this.db.write(() => this.makeDue.get({ deliveryId, dashboardId, endpointId, now: now.getTime() }));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async deleteOfEndpoint(dashboardId: string, endpointId: string): Promise<void> {
    await this.db.write(() => {
      this.deleteOfEndpointStatement.run(endpointId, dashboardId);
    });
  }

  async purgeExpired(now: Date): Promise<number> {
    const cutoff = now.getTime() - DELIVERY_RETENTION_MS;
    let purged = 0;
    for (;;) {
      const deleted = await this.db.write(() => this.purge.run(cutoff).changes);
      purged += deleted;
      if (deleted < PURGE_BATCH) return purged;
    }
  }

  private decode(raw: unknown): Delivery {
    return deliveryFromRow(decodeRow(deliveryRowCodec, raw, 'webhook_deliveries', rowIdOf(raw), this.logger));
  }
}
