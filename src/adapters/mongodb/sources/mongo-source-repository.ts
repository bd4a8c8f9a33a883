import * as O from 'fp-ts/Option';
import type { Db } from 'mongodb';
import type { Logger } from '../../../application/ports/logger';
import type { SourceRepository } from '../../../application/ports/source-repository';
import type { Source } from '../../../domain/source';
import { guarded, insertUnlessDuplicate } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';
import { sourceDocumentCodec, sourceFromDocument, sourceToDocument, type SourceDocument } from './source-documents';

/**
 * Sources in `sources`, one document each. The limit per dashboard rests on the unique (dashboardId,
 * slot) index, as webhook endpoints' does: each source holds one of the dashboard's slots, so racing
 * inserts cannot pass it; one that loses its slot reads the slots again and tries a free one.
 */
export class MongoSourceRepository implements SourceRepository {
  private readonly sources: MongoCollection<SourceDocument>;

  constructor(db: Db, logger: Logger) {
    this.sources = new MongoCollection(db, 'sources', logger);
  }

  async insert(source: Source, limit: number): Promise<boolean> {
    const document = sourceToDocument(source);
    for (let round = 0; round <= limit; round++) {
      const taken = await guarded(() =>
        this.sources.documents.find({ dashboardId: source.dashboardId }, { projection: { slot: 1 } }).toArray(),
      );
      const used = new Set(taken.map((found) => found['slot']));
      const slot = Array.from({ length: limit }, (_, i) => i).find((candidate) => !used.has(candidate));
      if (slot === undefined) return false;
      if (await insertUnlessDuplicate(this.sources.documents, { ...document, slot })) return true;
    }
    return false;
  }

  async find(dashboardId: string, id: string): Promise<O.Option<Source>> {
    const found = await guarded(() => this.sources.documents.findOne({ _id: id, dashboardId }, { projection: { slot: 0 } }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async findById(id: string): Promise<O.Option<Source>> {
    const found = await guarded(() => this.sources.documents.findOne({ _id: id }, { projection: { slot: 0 } }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  /** Through the slot index (by dashboard), sorted here: a dashboard has few. */
  async listByDashboard(dashboardId: string): Promise<readonly Source[]> {
    const documents = await guarded(() => this.sources.documents.find({ dashboardId }, { projection: { slot: 0 } }).toArray());
    return documents
      .map((document) => this.decode(document))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Compare-and-set in one update filtered on the version read; the slot is left as it is. */
  async replace(source: Source): Promise<boolean> {
    const { _id, ...fields } = sourceToDocument(source);
    const result = await guarded(() =>
      this.sources.documents.updateOne({ _id, dashboardId: source.dashboardId, version: source.version - 1 }, { $set: fields }),
    );
    return result.matchedCount === 1;
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const result = await guarded(() => this.sources.documents.deleteOne({ _id: id, dashboardId }));
    return result.deletedCount === 1;
  }

  private decode(document: unknown): Source {
    return sourceFromDocument(this.sources.decode(sourceDocumentCodec, document));
  }
}
