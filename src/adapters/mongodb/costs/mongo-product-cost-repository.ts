import type { Db, Filter } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../../application/ports/logger';
import type { ProductCostListQuery, ProductCostPage, ProductCostRepository } from '../../../application/ports/product-cost-repository';
import type { ProductCostEntry } from '../../../domain/product-cost';
import { bsonCents, int64 } from '../bson-codecs';
import { guarded } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';

interface ProductCostDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly product: string;
  readonly currency: string;
  readonly from: string;
  readonly unitCostCents: unknown;
  /** The listing's order as ASCII (orderKey). */
  readonly order: string;
}

/**
 * The listing's position of an entry as text that every server compares alike: the product's UTF-8
 * bytes in hex (code point order, whether a server compares UTF-8 bytes as MongoDB does or UTF-16
 * units as some test servers do), `!` (below every hex digit, so a product sorts before the longer
 * ones it begins), the currency and the day, both ASCII.
 */
const orderKey = (entry: { product: string; currency: string; from: string }): string =>
  `${Buffer.from(entry.product, 'utf8').toString('hex')}!${entry.currency}!${entry.from}`;

/** The keys of one product's entries: from its hex and `!` up to its hex and `"`, the next character. */
const productKeys = (product: string) => {
  const hex = Buffer.from(product, 'utf8').toString('hex');
  return { $gte: `${hex}!`, $lt: `${hex}"` };
};

const productCostDocumentCodec = t.type({
  _id: t.string,
  dashboardId: t.string,
  product: t.string,
  currency: t.string,
  from: t.string,
  unitCostCents: bsonCents,
  order: t.string,
});

/**
 * Product costs on MongoDB, one document per (dashboard, product, currency, from) under an `_id` made
 * of them. An upload is one unordered bulk of replacements by `_id`: each is idempotent, so a batch
 * cut off by a failure is finished by sending it again (there are no multi-document transactions). A
 * listing walks `product_costs_dashboard_order` (or, filtered by currency, the index that leads with
 * it) from its cursor, on `order` (orderKey).
 */
export class MongoProductCostRepository implements ProductCostRepository {
  private readonly costs: MongoCollection<ProductCostDocument>;

  constructor(db: Db, logger: Logger) {
    this.costs = new MongoCollection(db, 'productCosts', logger);
  }

  async put(dashboardId: string, entries: readonly ProductCostEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    await guarded(() =>
      this.costs.documents.bulkWrite(
        entries.map((entry) => {
          const _id = JSON.stringify([dashboardId, entry.product, entry.currency, entry.from]);
          const replacement = { _id, dashboardId, ...entry, unitCostCents: int64(entry.unitCostCents), order: orderKey(entry) };
          return { replaceOne: { filter: { _id }, replacement, upsert: true } };
        }),
        { ordered: false },
      ),
    );
    return entries.length;
  }

  async list(dashboardId: string, query: ProductCostListQuery): Promise<ProductCostPage> {
    const order = {
      ...(query.product === undefined ? {} : productKeys(query.product)),
      ...(query.after === undefined ? {} : { $gt: orderKey(query.after) }),
    };
    const filter: Filter<ProductCostDocument> = {
      dashboardId,
      ...(query.currency === undefined ? {} : { currency: query.currency }),
      ...(Object.keys(order).length === 0 ? {} : { order }),
    };
    const docs = await guarded(() =>
      this.costs.documents
        .find(filter)
        .sort({ order: 1 })
        .limit(query.pageSize + 1)
        .toArray(),
    );
    return { entries: docs.slice(0, query.pageSize).map((doc) => this.entryOf(doc)), more: docs.length > query.pageSize };
  }

  async priceList(dashboardId: string): Promise<readonly ProductCostEntry[]> {
    const docs = await guarded(() => this.costs.documents.find({ dashboardId }).toArray());
    return docs.map((doc) => this.entryOf(doc));
  }

  private entryOf(raw: unknown): ProductCostEntry {
    const { product, currency, from, unitCostCents } = this.costs.decode(productCostDocumentCodec, raw);
    return { product, currency, from, unitCostCents };
  }
}
