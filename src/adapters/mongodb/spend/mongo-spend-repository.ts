import type { Db, Filter } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../../application/ports/logger';
import type { SpendPage, SpendPageQuery, SpendRepository, SpendSum, SpendSumQuery } from '../../../application/ports/spend-repository';
import { SPEND_DIMENSIONS } from '../../../domain/report';
import type { SpendEntry } from '../../../domain/spend';
import { sumSpend } from '../../persistence/spend-sums';
import { guarded } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';
import { nextDate } from '../../../domain/time-zone';

interface SpendDocument extends SpendEntry {
  readonly _id: string;
  readonly dashboardId: string;
}

const spendDocumentCodec = t.intersection([
  t.type({
    _id: t.string,
    dashboardId: t.string,
    date: t.string,
    utmSource: t.string,
    utmMedium: t.string,
    utmCampaign: t.string,
    utmContent: t.string,
    currency: t.string,
    amountCents: t.number,
  }),
  t.partial({ adAccount: t.string }),
]);

/** An uploaded entry's `_id` is its key; an ad account's entry adds the account, so that the two never meet. */
const idOf = (dashboardId: string, entry: SpendEntry): string =>
  JSON.stringify([
    dashboardId,
    entry.date,
    entry.utmSource,
    entry.utmMedium,
    entry.utmCampaign,
    entry.utmContent,
    entry.currency,
    ...(entry.adAccount === undefined ? [] : [entry.adAccount]),
  ]);

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
        entries.map(({ adAccount: _uploaded, ...entry }) => {
          const _id = idOf(dashboardId, entry);
          return { replaceOne: { filter: { _id }, replacement: { _id, dashboardId, ...entry }, upsert: true } };
        }),
        { ordered: false },
      ),
    );
    return entries.length;
  }

  /**
   * Day by day: the day's entries replaced by `_id` (idempotent), then the account's other rows of the
   * day deleted. Without multi-document transactions a report may see, for a moment, a day with rows
   * the platform no longer reports; a sync cut off is finished by the next.
   */
  async replaceAdAccountDays(
    dashboardId: string,
    adAccount: string,
    from: string,
    to: string,
    entries: readonly SpendEntry[],
  ): Promise<number> {
    const byDay = new Map<string, SpendEntry[]>();
    for (const entry of entries) byDay.set(entry.date, [...(byDay.get(entry.date) ?? []), { ...entry, adAccount }]);
    for (let day = from; day <= to; day = nextDate(day)) {
      const ofDay = byDay.get(day) ?? [];
      const ids = ofDay.map((entry) => idOf(dashboardId, entry));
      if (ofDay.length > 0) {
        await guarded(() =>
          this.spend.documents.bulkWrite(
            ofDay.map((entry, i) => ({
              replaceOne: { filter: { _id: ids[i] }, replacement: { _id: ids[i], dashboardId, ...entry }, upsert: true },
            })),
            { ordered: false },
          ),
        );
      }
      await guarded(() => this.spend.documents.deleteMany({ dashboardId, adAccount, date: day, _id: { $nin: ids } }));
    }
    return entries.length;
  }

  async list(dashboardId: string, query: SpendPageQuery): Promise<SpendPage> {
    const filter = this.filterOf(dashboardId, query.from, query.to);
    const [docs, total] = await guarded(() =>
      Promise.all([
        this.spend.documents
          .find(filter)
          .sort({ date: -1, utmSource: 1, utmMedium: 1, utmCampaign: 1, utmContent: 1, currency: 1, adAccount: 1 })
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
