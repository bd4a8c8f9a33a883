import type { Statement } from 'better-sqlite3';
import type { SpendPage, SpendPageQuery, SpendRepository, SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import type { Logger } from '../../../application/ports/logger';
import type { SpendEntry } from '../../../domain/spend';
import * as t from 'io-ts';
import { decodeRow } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';
import { builtStatements } from '../built-statements';
import { SqliteSpendSums } from './sqlite-spend-sums';
import type { ReportOffload } from '../reports/sqlite-report-reader';

const entryRowCodec = t.type({
  date: t.string,
  utm_source: t.string,
  utm_medium: t.string,
  utm_campaign: t.string,
  utm_content: t.string,
  currency: t.string,
  amount_cents: t.number,
});

/** Spend in the `spend` table, one row per (dashboard, date, key, currency). */
export class SqliteSpendRepository implements SpendRepository {
  private readonly upsertEntry: Statement;
  private readonly prepared: (sql: string) => Statement;
  private readonly sumsOf: SqliteSpendSums;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
    private readonly offload?: ReportOffload,
  ) {
    this.prepared = builtStatements(db);
    this.sumsOf = new SqliteSpendSums(db);
    this.upsertEntry = db.prepare(
      `INSERT INTO spend (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency, amount_cents)
       VALUES (@dashboardId, @date, @utmSource, @utmMedium, @utmCampaign, @utmContent, @currency, @amountCents)
       ON CONFLICT (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency) DO UPDATE SET amount_cents = excluded.amount_cents`,
    );
  }

  /** One write of the group commit: all the entries, or none when one fails. */
  async upsert(dashboardId: string, entries: readonly SpendEntry[]): Promise<number> {
    return this.db.write(() => {
      for (const entry of entries) this.upsertEntry.run({ dashboardId, ...entry });
      return entries.length;
    });
  }

  async list(dashboardId: string, query: SpendPageQuery): Promise<SpendPage> {
    const where = [
      'dashboard_id = @dashboardId',
      ...(query.from === undefined ? [] : ['date >= @from']),
      ...(query.to === undefined ? [] : ['date <= @to']),
    ];
    const params = { dashboardId, from: query.from, to: query.to, limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
    const bound = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
    const { page, count } = this.db.readTogether(() => ({
      page: this.prepared(
        `SELECT date, utm_source, utm_medium, utm_campaign, utm_content, currency, amount_cents FROM spend WHERE ${where.join(' AND ')}
         ORDER BY date DESC, utm_source, utm_medium, utm_campaign, utm_content, currency LIMIT @limit OFFSET @offset`,
      ).all(bound),
      count: this.prepared(`SELECT count(*) AS total FROM spend WHERE ${where.join(' AND ')}`).get(
        Object.fromEntries(Object.entries(bound).filter(([k]) => k !== 'limit' && k !== 'offset')),
      ) as { total: number },
    }));
    const entries = page.map((raw) => {
      const row = decodeRow(entryRowCodec, raw, 'spend', `${dashboardId}`, this.logger);
      return {
        date: row.date,
        utmSource: row.utm_source,
        utmMedium: row.utm_medium,
        utmCampaign: row.utm_campaign,
        utmContent: row.utm_content,
        currency: row.currency,
        amountCents: row.amount_cents,
      };
    });
    return { entries, total: count.total };
  }

  /** See SqliteSpendSums: read in the report thread when there is one (sqlite-report-offload.ts), like the reports they join. */
  async sums(dashboardId: string, query: SpendSumQuery): Promise<readonly SpendSum[]> {
    return this.offload === undefined ? this.sumsOf.sums(dashboardId, query) : this.offload.spendSums(dashboardId, query);
  }
}
