import type { Statement } from 'better-sqlite3';
import type { SpendPage, SpendPageQuery, SpendRepository, SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import type { Logger } from '../../../application/ports/logger';
import type { SpendEntry } from '../../../domain/spend';
import * as t from 'io-ts';
import { decodeRow } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';
import { builtStatements } from '../built-statements';
import { SqliteSpendSums } from './sqlite-spend-sums';
import { nextDate } from '../../../domain/time-zone';
import type { ReportOffload } from '../reports/sqlite-report-reader';

const entryRowCodec = t.type({
  date: t.string,
  utm_source: t.string,
  utm_medium: t.string,
  utm_campaign: t.string,
  utm_content: t.string,
  currency: t.string,
  amount_cents: t.number,
  ad_account: t.string,
});

/** Spend in the `spend` table, one row per (dashboard, date, key, currency). */
export class SqliteSpendRepository implements SpendRepository {
  private readonly upsertEntry: Statement;
  private readonly keysOfAccountDay: Statement;
  private readonly deleteAccountEntry: Statement;
  private readonly insertAccountEntry: Statement;
  private readonly dropEmptyDay: Statement;
  private readonly dropEmptyMonth: Statement;
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
      `INSERT INTO spend (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency, amount_cents, ad_account)
       VALUES (@dashboardId, @date, @utmSource, @utmMedium, @utmCampaign, @utmContent, @currency, @amountCents, '')
       ON CONFLICT (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency, ad_account) DO UPDATE SET amount_cents = excluded.amount_cents`,
    );
    this.keysOfAccountDay = db.prepare(
      'SELECT utm_source, utm_medium, utm_campaign, utm_content, currency FROM spend WHERE dashboard_id = ? AND ad_account = ? AND date = ?',
    );
    this.deleteAccountEntry = db.prepare(
      `DELETE FROM spend WHERE dashboard_id = @dashboardId AND date = @date AND utm_source = @utm_source AND utm_medium = @utm_medium
         AND utm_campaign = @utm_campaign AND utm_content = @utm_content AND currency = @currency AND ad_account = @adAccount`,
    );
    // The sums the triggers keep stay as rows at 0 once the last entry under them is deleted; a store
    // without them reports no group there, so these go too.
    this.dropEmptyDay = db.prepare(
      `DELETE FROM spend_days WHERE dashboard_id = @dashboardId AND date = @date AND currency = @currency AND amount_cents = 0
         AND NOT EXISTS (SELECT 1 FROM spend WHERE dashboard_id = @dashboardId AND date = @date AND currency = @currency)`,
    );
    this.dropEmptyMonth = db.prepare(
      `DELETE FROM spend_months WHERE dashboard_id = @dashboardId AND month = substr(@date, 1, 7) AND utm_source = @utm_source
         AND utm_medium = @utm_medium AND utm_campaign = @utm_campaign AND utm_content = @utm_content AND currency = @currency AND amount_cents = 0
         AND NOT EXISTS (SELECT 1 FROM spend WHERE dashboard_id = @dashboardId AND date BETWEEN substr(@date, 1, 7) || '-01' AND substr(@date, 1, 7) || '-31'
           AND utm_source = @utm_source AND utm_medium = @utm_medium AND utm_campaign = @utm_campaign AND utm_content = @utm_content AND currency = @currency)`,
    );
    this.insertAccountEntry = db.prepare(
      `INSERT INTO spend (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency, amount_cents, ad_account)
       VALUES (@dashboardId, @date, @utmSource, @utmMedium, @utmCampaign, @utmContent, @currency, @amountCents, @adAccount)
       ON CONFLICT (dashboard_id, date, utm_source, utm_medium, utm_campaign, utm_content, currency, ad_account)
       DO UPDATE SET amount_cents = excluded.amount_cents WHERE amount_cents <> excluded.amount_cents`,
    );
  }

  /** One write of the group commit: all the entries, or none when one fails. */
  async upsert(dashboardId: string, entries: readonly SpendEntry[]): Promise<number> {
    return this.db.write(() => {
      for (const { adAccount: _uploaded, ...entry } of entries) this.upsertEntry.run({ dashboardId, ...entry });
      return entries.length;
    });
  }

  /**
   * One write per day, so that a report sees the day whole: the day's entries upserted (an amount
   * that did not change writes nothing, and most of the 28 days do not), then the keys the day no
   * longer has deleted.
   */
  async replaceAdAccountDays(
    dashboardId: string,
    adAccount: string,
    from: string,
    to: string,
    entries: readonly SpendEntry[],
  ): Promise<number> {
    const byDay = new Map<string, SpendEntry[]>();
    for (const entry of entries) byDay.set(entry.date, [...(byDay.get(entry.date) ?? []), entry]);
    const keyOf = (source: string, medium: string, campaign: string, content: string, currency: string) =>
      JSON.stringify([source, medium, campaign, content, currency]);
    for (let day = from; day <= to; day = nextDate(day)) {
      const ofDay = byDay.get(day) ?? [];
      await this.db.write(() => {
        const kept = new Set<string>();
        for (const { adAccount: _origin, ...entry } of ofDay) {
          this.insertAccountEntry.run({ dashboardId, ...entry, adAccount });
          kept.add(keyOf(entry.utmSource, entry.utmMedium, entry.utmCampaign, entry.utmContent, entry.currency));
          kept.add(entry.currency);
        }
        const stored = this.keysOfAccountDay.all(dashboardId, adAccount, day) as Record<string, string>[];
        const gone = stored.filter(
          (k) => !kept.has(keyOf(k['utm_source'], k['utm_medium'], k['utm_campaign'], k['utm_content'], k['currency'])),
        );
        for (const key of gone) {
          this.deleteAccountEntry.run({ dashboardId, date: day, adAccount, ...key });
          this.dropEmptyMonth.run({ dashboardId, date: day, ...key });
        }
        for (const currency of new Set(gone.map((key) => key['currency']))) {
          if (!kept.has(currency)) this.dropEmptyDay.run({ dashboardId, date: day, currency });
        }
      });
    }
    return entries.length;
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
        `SELECT date, utm_source, utm_medium, utm_campaign, utm_content, currency, amount_cents, ad_account FROM spend WHERE ${where.join(' AND ')}
         ORDER BY date DESC, utm_source, utm_medium, utm_campaign, utm_content, currency, ad_account LIMIT @limit OFFSET @offset`,
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
        ...(row.ad_account === '' ? {} : { adAccount: row.ad_account }),
      };
    });
    return { entries, total: count.total };
  }

  /** See SqliteSpendSums: read in the report thread when there is one (sqlite-report-offload.ts), like the reports they join. */
  async sums(dashboardId: string, query: SpendSumQuery): Promise<readonly SpendSum[]> {
    return this.offload === undefined ? this.sumsOf.sums(dashboardId, query) : this.offload.spendSums(dashboardId, query);
  }
}
