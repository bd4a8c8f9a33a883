import type { Statement } from 'better-sqlite3';
import type {
  ClaimedConversion,
  ConversionClaim,
  ConversionLease,
  ConversionPage,
  ConversionQuery,
  ConversionRepository,
} from '../../../application/ports/conversion-repository';
import type { Logger } from '../../../application/ports/logger';
import { CONVERSION_RETENTION_MS, type ConversionDelivery, type ConversionKind } from '../../../domain/conversion';
import { columnLists } from '../column-lists';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import { builtStatements, skippingDashboards } from '../built-statements';
import type { SqliteDatabase } from '../sqlite-database';
import { CONVERSION_COLUMNS, conversionFromRow, conversionProgressToRow, conversionRowCodec } from './conversion-rows';

const columns = CONVERSION_COLUMNS.join(', ');
const { names: allColumns, bindings } = columnLists([...CONVERSION_COLUMNS, 'order_id', 'kind']);

/** Deletions of expired deliveries go by this many rows per write, so that none holds the event loop long. */
const PURGE_BATCH = 1_000;

/** The relay's insert; the unique (event, account) pair makes it idempotent. Shared with the outbox. */
export const INSERT_CONVERSION = `INSERT INTO conversion_deliveries (${allColumns}, lease_until, lease_id) VALUES (${bindings}, 0, NULL)
  ON CONFLICT (event_id, ad_account_id) DO NOTHING`;

/**
 * Conversion deliveries in `conversion_deliveries`. A claim is one UPDATE … RETURNING over the
 * longest-due row nobody holds (the file has one writer at a time, across processes too), and each
 * later write of the sender is conditioned on its lease.
 */
export class SqliteConversionRepository implements ConversionRepository {
  private readonly pages: Readonly<Record<'all' | 'byStatus', { page: Statement; count: Statement }>>;
  private readonly ofOrder: Statement;
  private readonly claimOne: (skip: readonly string[]) => Statement;
  private readonly completeAttempt: Statement;
  private readonly renewLease: Statement;
  private readonly releaseLease: Statement;
  private readonly discardDelivery: Statement;
  private readonly makeDue: Statement;
  private readonly deleteOfAccountStatement: Statement;
  private readonly purge: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    const page = (index: string, status: string) => ({
      page: db.prepare(
        `SELECT ${columns} FROM conversion_deliveries INDEXED BY ${index}
         WHERE ad_account_id = @adAccountId ${status} AND dashboard_id = @dashboardId
         ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      ),
      count: db.prepare(
        `SELECT count(*) AS total FROM conversion_deliveries INDEXED BY ${index}
         WHERE ad_account_id = @adAccountId ${status} AND dashboard_id = @dashboardId`,
      ),
    });
    this.pages = {
      all: page('conversion_deliveries_newest_first', ''),
      byStatus: page('conversion_deliveries_by_status_newest_first', 'AND status = @status'),
    };
    this.ofOrder = db.prepare(
      `SELECT ${columns} FROM conversion_deliveries WHERE ad_account_id = ? AND order_id = ? AND kind = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    const claims = builtStatements(db);
    this.claimOne = (skip) =>
      claims(
        `UPDATE conversion_deliveries SET lease_until = ?, lease_id = ?
       WHERE seq = (SELECT seq FROM conversion_deliveries INDEXED BY conversion_deliveries_due
         WHERE status = 'pending' AND next_attempt_at <= ? AND lease_until <= ? ${skippingDashboards(skip)} ORDER BY next_attempt_at LIMIT 1)
       RETURNING ${columns}`,
      );
    const held = 'id = @deliveryId AND lease_id = @leaseId';
    this.completeAttempt = db.prepare(
      `UPDATE conversion_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @next_attempt_at, lease_until = 0, lease_id = NULL
       WHERE ${held}`,
    );
    this.renewLease = db.prepare(`UPDATE conversion_deliveries SET lease_until = @leaseUntil WHERE ${held}`);
    this.releaseLease = db.prepare(`UPDATE conversion_deliveries SET lease_until = 0, lease_id = NULL WHERE ${held}`);
    this.discardDelivery = db.prepare(`DELETE FROM conversion_deliveries WHERE ${held}`);
    this.makeDue = db.prepare(
      `UPDATE conversion_deliveries SET next_attempt_at = @now
       WHERE ad_account_id = @adAccountId AND dashboard_id = @dashboardId AND status = 'pending' AND next_attempt_at > @now`,
    );
    this.deleteOfAccountStatement = db.prepare('DELETE FROM conversion_deliveries WHERE ad_account_id = ? AND dashboard_id = ?');
    this.purge = db.prepare(
      `DELETE FROM conversion_deliveries WHERE seq IN
       (SELECT seq FROM conversion_deliveries INDEXED BY conversion_deliveries_expiry WHERE created_at <= ? LIMIT ${PURGE_BATCH})`,
    );
  }

  /** The page and the total on one snapshot. */
  async list(dashboardId: string, adAccountId: string, query: ConversionQuery): Promise<ConversionPage> {
    const statements = query.status === undefined ? this.pages.all : this.pages.byStatus;
    const filters = { dashboardId, adAccountId, ...(query.status === undefined ? {} : { status: query.status }) };
    const { raws, total } = this.db.readTogether(() => ({
      raws: statements.page.all({ ...filters, limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
      total: (statements.count.get(filters) as { total: number }).total,
    }));
    return { conversions: raws.map((raw) => this.decode(raw)), total };
  }

  async findOfOrder(adAccountId: string, orderId: string, kind: ConversionKind): Promise<ConversionDelivery | undefined> {
    const raw = this.db.read(() => this.ofOrder.get(adAccountId, orderId, kind));
    return raw === undefined ? undefined : this.decode(raw);
  }

  /** Unsynced: a power cut can only forget a claim, which lets the delivery be claimed again, as when its lease ends. */
  async claimDue({ now, leaseMs, leaseId, skipDashboards }: ConversionClaim): Promise<ClaimedConversion | undefined> {
    const at = now.getTime();
    const raw = await this.db.writeUnsynced(() => this.claimOne(skipDashboards).get(at + leaseMs, leaseId, at, at, ...skipDashboards));
    if (raw === undefined) return undefined;
    const delivery = this.decode(raw);
    return { delivery, lease: { deliveryId: delivery.id, leaseId } };
  }

  async complete(lease: ConversionLease, delivery: ConversionDelivery): Promise<boolean> {
    const params = { ...lease, ...conversionProgressToRow(delivery) };
    return this.db.write(() => this.completeAttempt.run(params).changes === 1);
  }

  async renew(lease: ConversionLease, until: Date): Promise<boolean> {
    return this.db.writeUnsynced(() => this.renewLease.run({ ...lease, leaseUntil: until.getTime() }).changes === 1);
  }

  async release(lease: ConversionLease): Promise<void> {
    await this.db.write(() => {
      this.releaseLease.run(lease);
    });
  }

  async discard(lease: ConversionLease): Promise<void> {
    await this.db.write(() => {
      this.discardDelivery.run(lease);
    });
  }

  async makeDueOfAccount(dashboardId: string, adAccountId: string, now: Date): Promise<number> {
    return this.db.write(() => this.makeDue.run({ dashboardId, adAccountId, now: now.getTime() }).changes);
  }

  async deleteOfAccount(dashboardId: string, adAccountId: string): Promise<void> {
    await this.db.write(() => {
      this.deleteOfAccountStatement.run(adAccountId, dashboardId);
    });
  }

  async purgeExpired(now: Date): Promise<number> {
    const cutoff = now.getTime() - CONVERSION_RETENTION_MS;
    let purged = 0;
    for (;;) {
      const deleted = await this.db.write(() => this.purge.run(cutoff).changes);
      purged += deleted;
      if (deleted < PURGE_BATCH) return purged;
    }
  }

  private decode(raw: unknown): ConversionDelivery {
    return conversionFromRow(decodeRow(conversionRowCodec, raw, 'conversion_deliveries', rowIdOf(raw), this.logger));
  }
}
