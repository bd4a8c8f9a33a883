import { FEED_RETENTION_MS, type EventFeed, type EventFeedPage, type EventFeedQuery } from '../../../application/ports/event-feed';
import type { Logger } from '../../../application/ports/logger';
import { builtStatements } from '../built-statements';
import { EVENT_COLUMNS, eventFromRow, eventRowCodec } from './order-rows';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';

/** The feed of event-feed-schema.ts: pages after a `seq`, on the dashboard's index. */
export class SqliteEventFeed implements EventFeed {
  private readonly prepared;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.prepared = builtStatements(db);
  }

  async list(dashboardId: string, query: EventFeedQuery): Promise<EventFeedPage | undefined> {
    const oldest = query.now.getTime() - FEED_RETENTION_MS;
    const raws = this.db.readTogether(() => {
      let after = 0;
      if (query.after !== undefined) {
        const found = this.prepared('SELECT seq FROM event_feed WHERE id = ? AND dashboard_id = ? AND stored_at > ?').get(
          query.after,
          dashboardId,
          oldest,
        ) as { seq: number } | undefined;
        if (found === undefined) return undefined;
        after = found.seq;
      }
      const index = query.type === undefined ? 'event_feed_of_dashboard' : 'event_feed_of_dashboard_type';
      return this.prepared(
        `SELECT ${EVENT_COLUMNS.join(', ')} FROM event_feed INDEXED BY ${index}
         WHERE dashboard_id = @dashboardId${query.type === undefined ? '' : ' AND type = @type'} AND seq > @after AND stored_at > @oldest
         ORDER BY seq LIMIT @limit`,
      ).all({ dashboardId, ...(query.type === undefined ? {} : { type: query.type }), after, oldest, limit: query.limit + 1 });
    });
    if (raws === undefined) return undefined;
    const events = raws
      .slice(0, query.limit)
      .map((raw) => eventFromRow(decodeRow(eventRowCodec, raw, 'event_feed', rowIdOf(raw), this.logger)));
    return { events, hasMore: raws.length > query.limit };
  }
}
