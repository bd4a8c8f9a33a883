import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import * as t from 'io-ts';
import type { LinkPage, LinkPageQuery, LinkRepository } from '../../../application/ports/link-repository';
import type { Logger } from '../../../application/ports/logger';
import type { Link } from '../../../domain/link';
import { columnLists } from '../column-lists';
import { decodeRow, instant, jsonText, present, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';

const COLUMNS = [
  'id',
  'dashboard_id',
  'slug',
  'name',
  'destination_url',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'utm_id',
  'params',
  'url',
  'clicks',
  'created_at',
] as const;
const { names: columns, bindings } = columnLists(COLUMNS);

const optionalText = t.union([t.null, t.string]);
const clickCount = new t.Type<number, number, unknown>(
  'ClickCount',
  (u): u is number => typeof u === 'number',
  (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 ? t.success(u) : t.failure(u, c, 'must be a count')),
  t.identity,
);
/** The parameters in their order, as `[key, value]` pairs: a JSON object would not keep the order of keys such as `10`. */
const paramsText = jsonText(t.array(t.tuple([t.string, t.string])), 'LinkParams');

const linkRowCodec = t.type({
  id: t.string,
  dashboard_id: t.string,
  slug: t.string,
  name: optionalText,
  destination_url: t.string,
  utm_source: t.string,
  utm_medium: t.string,
  utm_campaign: t.string,
  utm_term: optionalText,
  utm_content: optionalText,
  utm_id: optionalText,
  params: paramsText,
  url: t.string,
  clicks: clickCount,
  created_at: instant,
});

/**
 * The statements, each on an index (test/adapters/sqlite/sqlite-query-plans.test.ts holds them to
 * their plans): a link by its primary key or by the slug's unique index, a page by walking
 * `links_newest_first` from the dashboard's newest entry, its total counted on the same index, a
 * click by the slug's unique index.
 */
export const LINK_SQL = {
  // Only the slug's conflict is an expected outcome: a second link with an id already stored is a bug, and fails loudly.
  insert: `INSERT INTO links (${columns}) VALUES (${bindings}) ON CONFLICT (slug) DO NOTHING`,
  byId: `SELECT ${columns} FROM links WHERE id = ? AND dashboard_id = ?`,
  page: `SELECT ${columns} FROM links INDEXED BY links_newest_first WHERE dashboard_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  count: 'SELECT count(*) AS total FROM links INDEXED BY links_newest_first WHERE dashboard_id = ?',
  delete: 'DELETE FROM links WHERE id = ? AND dashboard_id = ?',
  bySlug: `SELECT ${columns} FROM links WHERE slug = ?`,
  slugExists: 'SELECT 1 FROM links WHERE slug = ?',
  click: `UPDATE links SET clicks = clicks + 1 WHERE slug = ? RETURNING ${columns}`,
} as const;

/**
 * Links in the `links` table. The slug's unique index decides a collision (`ON CONFLICT DO
 * NOTHING`: nothing is stored, no read first); a click is one `UPDATE … SET clicks = clicks + 1 … RETURNING`, so parallel
 * clicks, from this process or another on the file, each count. The redirect looks the slug up first,
 * on committed data, so that a slug nobody has costs a read and never a write transaction.
 */
export class SqliteLinkRepository implements LinkRepository {
  private readonly insertLink: Statement;
  private readonly selectById: Statement;
  private readonly selectPage: Statement;
  private readonly countOfDashboard: Statement;
  private readonly deleteLink: Statement;
  private readonly selectBySlug: Statement;
  private readonly slugExists: Statement;
  private readonly countClick: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertLink = db.prepare(LINK_SQL.insert);
    this.selectById = db.prepare(LINK_SQL.byId);
    this.selectPage = db.prepare(LINK_SQL.page);
    this.countOfDashboard = db.prepare(LINK_SQL.count);
    this.deleteLink = db.prepare(LINK_SQL.delete);
    this.selectBySlug = db.prepare(LINK_SQL.bySlug);
    this.slugExists = db.prepare(LINK_SQL.slugExists);
    this.countClick = db.prepare(LINK_SQL.click);
  }

  /** The row is made now, so a caller that changes its object before the commit changes nothing stored. */
  async insert(link: Link): Promise<boolean> {
    const row = {
      id: link.id,
      dashboard_id: link.dashboardId,
      slug: link.slug,
      name: link.name ?? null,
      destination_url: link.destinationUrl,
      utm_source: link.utmSource,
      utm_medium: link.utmMedium,
      utm_campaign: link.utmCampaign,
      utm_term: link.utmTerm ?? null,
      utm_content: link.utmContent ?? null,
      utm_id: link.utmId ?? null,
      params: paramsText.encode(link.params.map(({ key, value }) => [key, value])),
      url: link.url,
      clicks: link.clicks,
      created_at: link.createdAt.getTime(),
    };
    return this.db.write(() => this.insertLink.run(row).changes === 1);
  }

  async findById(dashboardId: string, id: string): Promise<O.Option<Link>> {
    const raw = this.db.read(() => this.selectById.get(id, dashboardId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  /** The page and the total on one snapshot. */
  async list(dashboardId: string, query: LinkPageQuery): Promise<LinkPage> {
    const { raws, total } = this.db.readTogether(() => ({
      raws: this.selectPage.all(dashboardId, query.pageSize, (query.page - 1) * query.pageSize),
      total: (this.countOfDashboard.get(dashboardId) as { total: number }).total,
    }));
    return { links: raws.map((raw) => this.decode(raw)), total };
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const result = await this.db.write(() => this.deleteLink.run(id, dashboardId));
    return result.changes > 0;
  }

  async findBySlug(slug: string): Promise<O.Option<Link>> {
    const raw = this.db.read(() => this.selectBySlug.get(slug));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  /**
   * Answered once committed, without waiting for the disk, like a rate-limit count: a click survives
   * a crash of the process, and a power loss may forget the last ones (docs/operations.md, "SQLite store").
   */
  async recordClick(slug: string): Promise<O.Option<Link>> {
    if (this.db.read(() => this.slugExists.get(slug)) === undefined) return O.none;
    const raw = await this.db.writeUnsynced(() => this.countClick.get(slug));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  private decode(raw: unknown): Link {
    const row = decodeRow(linkRowCodec, raw, 'links', rowIdOf(raw), this.logger);
    return {
      id: row.id,
      dashboardId: row.dashboard_id,
      slug: row.slug,
      ...present('name', row.name),
      destinationUrl: row.destination_url,
      utmSource: row.utm_source,
      utmMedium: row.utm_medium,
      utmCampaign: row.utm_campaign,
      ...present('utmTerm', row.utm_term),
      ...present('utmContent', row.utm_content),
      ...present('utmId', row.utm_id),
      params: row.params.map(([key, value]) => ({ key, value })),
      url: row.url,
      clicks: row.clicks,
      createdAt: row.created_at,
    };
  }
}
