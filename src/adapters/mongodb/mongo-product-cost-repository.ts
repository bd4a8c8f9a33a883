import type { Db, Filter } from 'mongodb';
import * as t from 'io-ts';
import type { Logger } from '../../application/ports/logger';
import type { ProductCostListQuery, ProductCostPage, ProductCostRepository } from '../../application/ports/product-cost-repository';
import type { ProductCostEntry } from '../../domain/product-cost';
import { bsonCents, int64 } from './bson-codecs';
import { guarded } from './mongo-errors';
import { MongoCollection } from './mongo-collection';

interface ProductCostDocument {
  readonly _id: string;
  readonly dashboardId: string;
  readonly product: string;
  readonly currency: string;
  readonly from: string;
  readonly unitCostCents: unknown;
}

const productCostDocumentCodec = t.type({
  _id: t.string,
  dashboardId: t.string,
  product: t.string,
  currency: t.string,
  from: t.string,
  unitCostCents: bsonCents,
});

/**
 * Product costs on MongoDB, one document per (dashboard, product, currency, from) under an `_id` made
 * of them. An upload is one unordered bulk of replacements by `_id`: each is idempotent, so a batch
 * cut off by a failure is finished by sending it again (there are no multi-document transactions). A
 * listing walks `product_costs_dashboard_product_currency_from` (or the index that leads with the
 * currency) from its cursor; MongoDB compares strings by their UTF-8 bytes, which is code point order.
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
          const replacement = { _id, dashboardId, ...entry, unitCostCents: int64(entry.unitCostCents) };
          return { replaceOne: { filter: { _id }, replacement, upsert: true } };
        }),
        { ordered: false },
      ),
    );
    return entries.length;
  }

  async list(dashboardId: string, query: ProductCostListQuery): Promise<ProductCostPage> {
    const { after } = query;
    const filter: Filter<ProductCostDocument> = {
      dashboardId,
      ...(query.product === undefined ? {} : { product: query.product }),
      ...(query.currency === undefined ? {} : { currency: query.currency }),
      ...(after === undefined
        ? {}
        : {
            $or: [
              { product: { $gt: after.product } },
              { product: after.product, currency: { $gt: after.currency } },
              { product: after.product, currency: after.currency, from: { $gt: after.from } },
            ],
          }),
    };
    const docs = await guarded(() =>
      this.costs.documents
        .find(filter)
        .sort({ product: 1, currency: 1, from: 1 })
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
