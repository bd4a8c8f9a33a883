import * as O from 'fp-ts/Option';
import type { Collection, Db } from 'mongodb';
import type { DashboardRepository } from '../../application/ports/dashboard-repository';
import type { Logger } from '../../application/ports/logger';
import type { Dashboard } from '../../domain/dashboard';
import { decodeDocument } from './bson-codecs';
import { dashboardDocumentCodec, dashboardFromDocument, dashboardToDocument, type DashboardDocument } from './dashboard-documents';
import { guarded } from './mongo-errors';
import { COLLECTIONS } from './mongo-indexes';

export class MongoDashboardRepository implements DashboardRepository {
  private readonly dashboards: Collection<DashboardDocument>;

  constructor(
    db: Db,
    private readonly logger: Logger,
  ) {
    this.dashboards = db.collection<DashboardDocument>(COLLECTIONS.dashboards);
  }

  /** `_id` is the dashboard id: a second insert of one id fails with the duplicate-key error. */
  async insert(dashboard: Dashboard): Promise<void> {
    await guarded(() => this.dashboards.insertOne(dashboardToDocument(dashboard)));
  }

  async update(dashboard: Dashboard): Promise<boolean> {
    const result = await guarded(() =>
      this.dashboards.updateOne({ _id: dashboard.id }, { $set: { name: dashboard.name, timezone: dashboard.timezone } }),
    );
    return result.matchedCount === 1;
  }

  async findById(id: string): Promise<O.Option<Dashboard>> {
    const found = await guarded(() => this.dashboards.findOne({ _id: id }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async list(): Promise<readonly Dashboard[]> {
    const documents = await guarded(() => this.dashboards.find({}).sort({ createdAt: 1, _id: 1 }).toArray());
    return documents.map((document) => this.decode(document));
  }

  private decode(document: unknown): Dashboard {
    return dashboardFromDocument(decodeDocument(dashboardDocumentCodec, document, COLLECTIONS.dashboards, this.logger));
  }
}
