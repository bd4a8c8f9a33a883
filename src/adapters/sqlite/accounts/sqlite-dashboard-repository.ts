import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import * as t from 'io-ts';
import type { DashboardRepository } from '../../../application/ports/dashboard-repository';
import type { Logger } from '../../../application/ports/logger';
import type { Dashboard } from '../../../domain/dashboard';
import { hundredthsOf, taxRateOfHundredths } from '../../../domain/tax-rate';
import { decodeRow, instant, rowIdOf } from '../sqlite-codecs';
import { zoneChange } from '../reports/rollup-costs';
import type { SqliteDatabase } from '../sqlite-database';

const dashboardRowCodec = t.type({ id: t.string, name: t.string, timezone: t.string, tax_rate_hundredths: t.Int, created_at: instant });

const COLUMNS = 'id, name, timezone, tax_rate_hundredths, created_at';

/** Dashboards in the `dashboards` table; the primary key refuses a second insert of one id. */
export class SqliteDashboardRepository implements DashboardRepository {
  private readonly insertDashboard: Statement;
  private readonly selectById: Statement;
  private readonly selectAll: Statement;
  private readonly updateDashboard: Statement;
  private readonly selectZone: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertDashboard = db.prepare(`INSERT INTO dashboards (${COLUMNS}) VALUES (?, ?, ?, ?, ?)`);
    this.selectById = db.prepare(`SELECT ${COLUMNS} FROM dashboards WHERE id = ?`);
    this.selectAll = db.prepare(`SELECT ${COLUMNS} FROM dashboards ORDER BY created_at, id`);
    this.selectZone = db.prepare('SELECT timezone FROM dashboards WHERE id = ?').pluck();
    this.updateDashboard = db.prepare('UPDATE dashboards SET name = ?, timezone = ?, tax_rate_hundredths = ? WHERE id = ?');
  }

  async insert(dashboard: Dashboard): Promise<void> {
    const values = [dashboard.id, dashboard.name, dashboard.timezone, hundredthsOf(dashboard.taxRate), dashboard.createdAt.getTime()];
    await this.db.write(() => {
      this.insertDashboard.run(values);
    });
  }

  /** A change of time zone moves the days product costs begin on: the change is carried into the rollups in the same write, at once or as a job (rollup-costs.ts). */
  async update(dashboard: Dashboard): Promise<boolean> {
    return this.db.write(() => {
      const was = this.selectZone.get(dashboard.id) as string | undefined;
      const updated =
        this.updateDashboard.run(dashboard.name, dashboard.timezone, hundredthsOf(dashboard.taxRate), dashboard.id).changes === 1;
      const change = updated && was !== undefined ? zoneChange(this.db, dashboard.id, was, dashboard.timezone) : undefined;
      if (change !== undefined) this.db.carryPriceChange(change);
      return updated;
    });
  }

  async findById(id: string): Promise<O.Option<Dashboard>> {
    const raw = this.db.read(() => this.selectById.get(id));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async list(): Promise<readonly Dashboard[]> {
    return this.db.read(() => this.selectAll.all()).map((raw) => this.decode(raw));
  }

  private decode(raw: unknown): Dashboard {
    const row = decodeRow(dashboardRowCodec, raw, 'dashboards', rowIdOf(raw), this.logger);
    return {
      id: row.id,
      name: row.name,
      timezone: row.timezone,
      taxRate: taxRateOfHundredths(row.tax_rate_hundredths),
      createdAt: row.created_at,
    };
  }
}
