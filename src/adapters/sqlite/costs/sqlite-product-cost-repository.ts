import type { Statement } from 'better-sqlite3';
import * as t from 'io-ts';
import type { Logger } from '../../../application/ports/logger';
import type { ProductCostListQuery, ProductCostPage, ProductCostRepository } from '../../../application/ports/product-cost-repository';
import type { ProductCostEntry } from '../../../domain/product-cost';
import { startOfDate } from '../../../domain/time-zone';
import { builtStatements } from '../built-statements';
import { historiesOf } from '../reports/rollup-costs';
import { cents, decodeRow } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';

const entryRowCodec = t.type({ product: t.string, currency: t.string, from_date: t.string, unit_cost_cents: cents });

const COLUMNS = 'product, currency, from_date, unit_cost_cents';

/**
 * Product costs in the `product_costs` table (profit-schema.ts), one row per (dashboard, product,
 * currency, from). A listing walks the primary key (or, filtered by currency alone, the index that
 * leads with it) from its cursor: a page costs the same at any depth. Text compares byte by byte in
 * UTF-8, which is code point order.
 */
export class SqliteProductCostRepository implements ProductCostRepository {
  private readonly upsertEntry: Statement;
  private readonly selectAll: Statement;
  private readonly selectZone: Statement;
  private readonly prepared: (sql: string) => Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.prepared = builtStatements(db);
    this.upsertEntry = db.prepare(
      `INSERT INTO product_costs (dashboard_id, ${COLUMNS}) VALUES (@dashboardId, @product, @currency, @from, @unitCostCents)
       ON CONFLICT (dashboard_id, product, currency, from_date) DO UPDATE SET unit_cost_cents = excluded.unit_cost_cents`,
    );
    this.selectAll = db.prepare(`SELECT ${COLUMNS} FROM product_costs WHERE dashboard_id = ?`);
    this.selectZone = db.prepare('SELECT timezone FROM dashboards WHERE id = ?').pluck();
  }

  /**
   * One write of the group commit: all the entries, or none when one fails; in the same transaction,
   * the change is carried into the rollups (rollup-costs.ts): the paid orders from the earliest day an
   * entry sets on move to their new prices at once when they are few, else through a re-pricing job
   * that the runner carries out chunk by chunk; always through a job for a `slice` of a file, whose
   * slices' jobs one pass carries out. No order is rewritten.
   */
  async put(dashboardId: string, entries: readonly ProductCostEntry[], slice = false): Promise<number> {
    await this.db.write(() => {
      const zone = (this.selectZone.get(dashboardId) as string | undefined) ?? 'UTC';
      const pairs = historiesOf(this.db, dashboardId, entries);
      for (const entry of entries) this.upsertEntry.run({ dashboardId, ...entry });
      if (entries.length === 0) return;
      const fromAt = Math.min(...entries.map((entry) => startOfDate(entry.from, zone)));
      this.db.carryPriceChange({ dashboardId, pairs, zone, fromAt, ...(slice ? { later: true } : {}) });
    });
    return entries.length;
  }

  async list(dashboardId: string, query: ProductCostListQuery): Promise<ProductCostPage> {
    const where = [
      'dashboard_id = @dashboardId',
      ...(query.product === undefined ? [] : ['product = @product']),
      ...(query.currency === undefined ? [] : ['currency = @currency']),
      ...(query.after === undefined ? [] : ['(product, currency, from_date) > (@afterProduct, @afterCurrency, @afterFrom)']),
    ];
    const index = query.currency !== undefined && query.product === undefined ? 'product_costs_by_currency' : undefined;
    const bound = {
      dashboardId,
      ...(query.product === undefined ? {} : { product: query.product }),
      ...(query.currency === undefined ? {} : { currency: query.currency }),
      ...(query.after === undefined
        ? {}
        : { afterProduct: query.after.product, afterCurrency: query.after.currency, afterFrom: query.after.from }),
      limit: query.pageSize + 1,
    };
    const rows = this.db.read(() =>
      this.prepared(
        `SELECT ${COLUMNS} FROM product_costs${index === undefined ? '' : ` INDEXED BY ${index}`} WHERE ${where.join(' AND ')}
         ORDER BY product, currency, from_date LIMIT @limit`,
      ).all(bound),
    );
    const entries = rows.slice(0, query.pageSize).map((raw) => this.decode(raw, dashboardId));
    return { entries, more: rows.length > query.pageSize };
  }

  async priceList(dashboardId: string): Promise<readonly ProductCostEntry[]> {
    return this.db.read(() => this.selectAll.all(dashboardId)).map((raw) => this.decode(raw, dashboardId));
  }

  private decode(raw: unknown, dashboardId: string): ProductCostEntry {
    const row = decodeRow(entryRowCodec, raw, 'product_costs', dashboardId, this.logger);
    return { product: row.product, currency: row.currency, from: row.from_date, unitCostCents: row.unit_cost_cents };
  }
}
