import * as O from 'fp-ts/Option';
import type { Db } from 'mongodb';
import type { DashboardRepository } from '../../../application/ports/dashboard-repository';
import type { Logger } from '../../../application/ports/logger';
import type { Dashboard } from '../../../domain/dashboard';
import { hundredthsOf } from '../../../domain/tax-rate';
import { dashboardDocumentCodec, dashboardFromDocument, dashboardToDocument, type DashboardDocument } from './dashboard-documents';
import { guarded } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';

export class MongoDashboardRepository implements DashboardRepository {
  private readonly dashboards: MongoCollection<DashboardDocument>;

  constructor(db: Db, logger: Logger) {
    this.dashboards = new MongoCollection(db, 'dashboards', logger);
  }

  /** `_id` is the dashboard id: a second insert of one id fails with the duplicate-key error. */
  async insert(dashboard: Dashboard): Promise<void> {
    await guarded(() => this.dashboards.documents.insertOne(dashboardToDocument(dashboard)));
  }

  async update(dashboard: Dashboard): Promise<boolean> {
    const result = await guarded(() =>
      this.dashboards.documents.updateOne(
        { _id: dashboard.id },
        { $set: { name: dashboard.name, timezone: dashboard.timezone, taxRateHundredths: hundredthsOf(dashboard.taxRate) } },
      ),
    );
    return result.matchedCount === 1;
  }

  async findById(id: string): Promise<O.Option<Dashboard>> {
    const found = await guarded(() => this.dashboards.documents.findOne({ _id: id }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  async list(): Promise<readonly Dashboard[]> {
    const documents = await guarded(() => this.dashboards.documents.find({}).sort({ createdAt: 1, _id: 1 }).toArray());
    return documents.map((document) => this.decode(document));
  }

  private decode(document: unknown): Dashboard {
    return dashboardFromDocument(this.dashboards.decode(dashboardDocumentCodec, document));
  }
}
