import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import type { Logger } from '../../../application/ports/logger';
import type { SourceDeliveryLog, SourceDeliveryPage, SourceDeliveryQuery } from '../../../application/ports/source-delivery-log';
import type { SourceDelivery } from '../../../domain/source';
import { columnLists } from '../column-lists';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';
import { SOURCE_DELIVERY_COLUMNS, sourceDeliveryFromRow, sourceDeliveryRowCodec, sourceDeliveryToRow } from './source-rows';

const { names: columns, bindings } = columnLists(SOURCE_DELIVERY_COLUMNS);
const NEWEST_FIRST = 'ORDER BY seq DESC';

/**
 * Each source's log in `source_deliveries`: an append inserts and deletes what falls beyond the
 * newest `keep` in one transaction, walking the source's index past its first `keep` entries.
 */
export class SqliteSourceDeliveryLog implements SourceDeliveryLog {
  private readonly insertDelivery: Statement;
  private readonly trim: Statement;
  private readonly selectPage: Statement;
  private readonly count: Statement;
  private readonly selectApplied: Statement;
  private readonly deleteOfSourceStatement: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertDelivery = db.prepare(`INSERT INTO source_deliveries (${columns}) VALUES (${bindings})`);
    this.trim = db.prepare(
      `DELETE FROM source_deliveries WHERE seq IN (SELECT seq FROM source_deliveries WHERE source_id = @source_id ${NEWEST_FIRST} LIMIT -1 OFFSET @keep)`,
    );
    this.selectPage = db.prepare(`SELECT ${columns} FROM source_deliveries WHERE source_id = ? ${NEWEST_FIRST} LIMIT ? OFFSET ?`);
    this.count = db.prepare('SELECT count(*) AS total FROM source_deliveries WHERE source_id = ?');
    this.selectApplied = db.prepare(
      `SELECT ${columns} FROM source_deliveries WHERE source_id = ? AND event_id = ? AND outcome IN ('created', 'updated') ORDER BY seq LIMIT 1`,
    );
    this.deleteOfSourceStatement = db.prepare('DELETE FROM source_deliveries WHERE source_id = ?');
  }

  async append(delivery: SourceDelivery, keep: number): Promise<void> {
    const row = sourceDeliveryToRow(delivery);
    await this.db.write(() => {
      this.insertDelivery.run(row);
      this.trim.run({ source_id: delivery.sourceId, keep });
    });
  }

  async list(sourceId: string, query: SourceDeliveryQuery): Promise<SourceDeliveryPage> {
    const found = this.db.readTogether(() => ({
      raws: this.selectPage.all(sourceId, query.pageSize, (query.page - 1) * query.pageSize),
      total: (this.count.get(sourceId) as { total: number }).total,
    }));
    return { deliveries: found.raws.map((raw) => this.decode(raw)), total: found.total };
  }

  async findApplied(sourceId: string, eventId: string): Promise<O.Option<SourceDelivery>> {
    const raw = this.db.read(() => this.selectApplied.get(sourceId, eventId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async deleteOfSource(sourceId: string): Promise<void> {
    await this.db.write(() => this.deleteOfSourceStatement.run(sourceId));
  }

  private decode(raw: unknown): SourceDelivery {
    return sourceDeliveryFromRow(decodeRow(sourceDeliveryRowCodec, raw, 'source_deliveries', rowIdOf(raw), this.logger));
  }
}
