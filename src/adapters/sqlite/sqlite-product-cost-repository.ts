import type { Statement } from 'better-sqlite3';
import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';
import type { ProductCostListQuery, ProductCostPage, ProductCostRepository } from '../../application/ports/product-cost-repository';
import { unitCostLookup, type ProductCostEntry } from '../../domain/product-cost';
import { startOfDate } from '../../domain/time-zone';
import { builtStatements } from './built-statements';
import { ALL_TIME, repriceOrders } from './rollup-costs';
import { cents, decodeRow } from './sqlite-codecs';
import type { SqliteDatabase } from './sqlite-database';

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
  private readonly selectPair: Statement;
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
    this.selectPair = db.prepare(
      'SELECT product, currency, from_date AS "from", unit_cost_cents AS unitCostCents FROM product_costs WHERE dashboard_id = ? AND product = ? AND currency = ?',
    );
    this.selectZone = db.prepare('SELECT timezone FROM dashboards WHERE id = ?').pluck();
  }

  /**
   * One write of the group commit: all the entries, or none when one fails; in the same transaction,
   * the paid orders from the earliest day an entry sets on are moved to their new prices in the
   * rollups (rollup-costs.ts), so the next report prices them so and no order is rewritten.
   */
  async put(dashboardId: string, entries: readonly ProductCostEntry[]): Promise<number> {
    const pairs = [...new Map(entries.map((e) => [`${e.currency}\u0000${e.product}`, e])).values()];
    return this.db.write(() => {
      const zone = (this.selectZone.get(dashboardId) as string | undefined) ?? 'UTC';
      const historyOf = () => pairs.flatMap((pair) => this.selectPair.all(dashboardId, pair.product, pair.currency) as ProductCostEntry[]);
      const before = unitCostLookup(historyOf(), zone);
      for (const entry of entries) this.upsertEntry.run({ dashboardId, ...entry });
      const after = unitCostLookup(historyOf(), zone);
      const from = Math.min(...entries.map((entry) => startOfDate(entry.from, zone)));
      if (entries.length > 0) repriceOrders(this.db, this.db.rollups, dashboardId, [{ start: from, end: ALL_TIME.end }], before, after);
      return entries.length;
    });
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
