import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import type { Logger } from '../../../application/ports/logger';
import type { WebhookEndpointRepository } from '../../../application/ports/webhook-endpoint-repository';
import type { WebhookEndpoint } from '../../../domain/webhook';
import { columnLists } from '../column-lists';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';
import { ENDPOINT_COLUMNS, endpointFromRow, endpointRowCodec, endpointToRow } from './webhook-rows';

const { names: columns, bindings, updates } = columnLists(ENDPOINT_COLUMNS, ['id', 'dashboard_id', 'created_at']);

/**
 * Endpoints in `webhook_endpoints`. The limit per dashboard is part of the insert statement, which
 * counts and inserts in one step of the file's single writer, so racing inserts cannot pass it; a
 * replace is an UPDATE conditioned on the version read.
 */
export class SqliteWebhookEndpointRepository implements WebhookEndpointRepository {
  private readonly insertEndpoint: Statement;
  private readonly selectOne: Statement;
  private readonly selectOfDashboard: Statement;
  private readonly updateEndpoint: Statement;
  private readonly deleteEndpoint: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertEndpoint = db.prepare(
      `INSERT INTO webhook_endpoints (${columns}) SELECT ${bindings}
       WHERE (SELECT count(*) FROM webhook_endpoints WHERE dashboard_id = @dashboard_id) < @limit`,
    );
    this.selectOne = db.prepare(`SELECT ${columns} FROM webhook_endpoints WHERE id = ? AND dashboard_id = ?`);
    this.selectOfDashboard = db.prepare(`SELECT ${columns} FROM webhook_endpoints WHERE dashboard_id = ? ORDER BY created_at, id`);
    this.updateEndpoint = db.prepare(
      `UPDATE webhook_endpoints SET ${updates} WHERE id = @id AND dashboard_id = @dashboard_id AND version = @version - 1`,
    );
    this.deleteEndpoint = db.prepare('DELETE FROM webhook_endpoints WHERE id = ? AND dashboard_id = ?');
  }

  async insert(endpoint: WebhookEndpoint, limit: number): Promise<boolean> {
    const row = { ...endpointToRow(endpoint), limit };
    return this.db.write(() => this.insertEndpoint.run(row).changes === 1);
  }

  async find(dashboardId: string, id: string): Promise<O.Option<WebhookEndpoint>> {
    const raw = this.db.read(() => this.selectOne.get(id, dashboardId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async listByDashboard(dashboardId: string): Promise<readonly WebhookEndpoint[]> {
    return this.db.read(() => this.selectOfDashboard.all(dashboardId)).map((raw) => this.decode(raw));
  }

  async replace(endpoint: WebhookEndpoint): Promise<boolean> {
    const row = endpointToRow(endpoint);
    return this.db.write(() => this.updateEndpoint.run(row).changes === 1);
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    return this.db.write(() => this.deleteEndpoint.run(id, dashboardId).changes === 1);
  }

  private decode(raw: unknown): WebhookEndpoint {
    return endpointFromRow(decodeRow(endpointRowCodec, raw, 'webhook_endpoints', rowIdOf(raw), this.logger));
  }
}
