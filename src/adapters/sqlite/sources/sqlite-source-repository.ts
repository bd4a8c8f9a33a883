import type { Statement } from 'better-sqlite3';
import * as O from 'fp-ts/Option';
import type { Logger } from '../../../application/ports/logger';
import type { SourceRepository } from '../../../application/ports/source-repository';
import type { Source } from '../../../domain/source';
import { columnLists } from '../column-lists';
import { decodeRow, rowIdOf } from '../sqlite-codecs';
import type { SqliteDatabase } from '../sqlite-database';
import { SOURCE_COLUMNS, sourceFromRow, sourceRowCodec, sourceToRow } from './source-rows';

const { names: columns, bindings, updates } = columnLists(SOURCE_COLUMNS, ['id', 'dashboard_id', 'platform', 'created_at']);

/**
 * Sources in `sources`. The limit per dashboard is part of the insert statement (a count and an insert
 * in one step of the file's single writer); a replace is an UPDATE conditioned on the version read.
 */
export class SqliteSourceRepository implements SourceRepository {
  private readonly insertSource: Statement;
  private readonly selectOne: Statement;
  private readonly selectById: Statement;
  private readonly selectOfDashboard: Statement;
  private readonly updateSource: Statement;
  private readonly deleteSource: Statement;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly logger: Logger,
  ) {
    this.insertSource = db.prepare(
      `INSERT INTO sources (${columns}) SELECT ${bindings} WHERE (SELECT count(*) FROM sources WHERE dashboard_id = @dashboard_id) < @limit`,
    );
    this.selectOne = db.prepare(`SELECT ${columns} FROM sources WHERE id = ? AND dashboard_id = ?`);
    this.selectById = db.prepare(`SELECT ${columns} FROM sources WHERE id = ?`);
    this.selectOfDashboard = db.prepare(`SELECT ${columns} FROM sources WHERE dashboard_id = ? ORDER BY created_at, id`);
    this.updateSource = db.prepare(
      `UPDATE sources SET ${updates} WHERE id = @id AND dashboard_id = @dashboard_id AND version = @version - 1`,
    );
    this.deleteSource = db.prepare('DELETE FROM sources WHERE id = ? AND dashboard_id = ?');
  }

  async insert(source: Source, limit: number): Promise<boolean> {
    const row = { ...sourceToRow(source), limit };
    return this.db.write(() => this.insertSource.run(row).changes === 1);
  }

  async find(dashboardId: string, id: string): Promise<O.Option<Source>> {
    const raw = this.db.read(() => this.selectOne.get(id, dashboardId));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async findById(id: string): Promise<O.Option<Source>> {
    const raw = this.db.read(() => this.selectById.get(id));
    return raw === undefined ? O.none : O.some(this.decode(raw));
  }

  async listByDashboard(dashboardId: string): Promise<readonly Source[]> {
    return this.db.read(() => this.selectOfDashboard.all(dashboardId)).map((raw) => this.decode(raw));
  }

  async replace(source: Source): Promise<boolean> {
    const row = sourceToRow(source);
    return this.db.write(() => this.updateSource.run(row).changes === 1);
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    return this.db.write(() => this.deleteSource.run(id, dashboardId).changes === 1);
  }

  private decode(raw: unknown): Source {
    return sourceFromRow(decodeRow(sourceRowCodec, raw, 'sources', rowIdOf(raw), this.logger));
  }
}
