import type { Db, Filter } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../../application/ports/logger';
import type { SpendPage, SpendPageQuery, SpendRepository, SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import { SPEND_DIMENSIONS } from '../../../domain/report';
import type { SpendEntry } from '../../../domain/spend';
import { sumSpend } from '../../persistence/spend-sums';
import { guarded } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';

interface SpendDocument extends SpendEntry {
  readonly _id: string;
  readonly dashboardId: string;
}

const spendDocumentCodec = t.type({
  _id: t.string,
  dashboardId: t.string,
  date: t.string,
  utmSource: t.string,
  utmMedium: t.string,
  utmCampaign: t.string,
  utmContent: t.string,
  currency: t.string,
  amountCents: t.number,
});

/**
 * Spend on MongoDB, one document per (dashboard, date, key, currency) under an `_id` made of them. An
 * upload is one unordered bulk of replacements by `_id`: each is idempotent, so a batch cut off by a
 * failure is finished by sending it again (there are no multi-document transactions).
 */
export class MongoSpendRepository implements SpendRepository {
  private readonly spend: MongoCollection<SpendDocument>;

  constructor(db: Db, logger: Logger) {
    this.spend = new MongoCollection(db, 'spend', logger);
  }

  async upsert(dashboardId: string, entries: readonly SpendEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    await guarded(() =>
      this.spend.documents.bulkWrite(
        entries.map((entry) => {
          const _id = JSON.stringify([
            dashboardId,
            entry.date,
            entry.utmSource,
            entry.utmMedium,
            entry.utmCampaign,
            entry.utmContent,
            entry.currency,
          ]);
          return { replaceOne: { filter: { _id }, replacement: { _id, dashboardId, ...entry }, upsert: true } };
        }),
        { ordered: false },
      ),
    );
    return entries.length;
  }

  async list(dashboardId: string, query: SpendPageQuery): Promise<SpendPage> {
    const filter = this.filterOf(dashboardId, query.from, query.to);
    const [docs, total] = await guarded(() =>
      Promise.all([
        this.spend.documents
          .find(filter)
          .sort({ date: -1, utmSource: 1, utmMedium: 1, utmCampaign: 1, utmContent: 1, currency: 1 })
          .skip((query.page - 1) * query.pageSize)
          .limit(query.pageSize)
          .toArray(),
        this.spend.documents.countDocuments(filter),
      ]),
    );
    return { entries: docs.map((doc) => this.entryOf(doc)), total };
  }

  async sums(dashboardId: string, query: SpendSumQuery): Promise<readonly SpendSum[]> {
    const filter: Filter<SpendDocument> = {
      ...this.filterOf(dashboardId, query.from, query.to),
      ...Object.fromEntries(SPEND_DIMENSIONS.filter((d) => query.filters[d] !== undefined).map((d) => [d, query.filters[d]])),
    };
    const docs = await guarded(() => this.spend.documents.find(filter).toArray());
    return sumSpend(
      docs.map((doc) => this.entryOf(doc)),
      query,
    );
  }

  private filterOf(dashboardId: string, from: string | undefined, to: string | undefined): Filter<SpendDocument> {
    const date = { ...(from === undefined ? {} : { $gte: from }), ...(to === undefined ? {} : { $lte: to }) };
    return { dashboardId, ...(Object.keys(date).length === 0 ? {} : { date }) };
  }

  private entryOf(raw: unknown): SpendEntry {
    const { _id: _ignored, dashboardId: _dashboard, ...entry } = this.spend.decode(spendDocumentCodec, raw);
    return entry;
  }
}
