import * as O from 'fp-ts/Option';
import type { Db } from 'mongodb';
import type { Logger } from '../../../application/ports/logger';
import type { WebhookEndpointRepository } from '../../../application/ports/webhook-endpoint-repository';
import type { WebhookEndpoint } from '../../../domain/webhook';
import { guarded, insertUnlessDuplicate } from '../mongo-errors';
import { MongoCollection } from '../mongo-collection';
import {
  endpointDocumentCodec,
  endpointFromDocument,
  endpointToDocument,
  OPTIONAL_ENDPOINT_FIELDS,
  type EndpointDocument,
} from './webhook-documents';

/**
 * Endpoints in `webhook_endpoints`, one document each. The limit per dashboard rests on a unique
 * index, not on a count: each endpoint holds one of the dashboard's `limit` slots (0 to limit - 1)
 * under the unique (dashboardId, slot) index, so however many inserts race, at most `limit` can be
 * stored. An insert that loses its slot to a racing one reads the slots again and tries a free one.
 */
export class MongoWebhookEndpointRepository implements WebhookEndpointRepository {
  private readonly endpoints: MongoCollection<EndpointDocument>;

  constructor(db: Db, logger: Logger) {
    this.endpoints = new MongoCollection(db, 'webhookEndpoints', logger);
  }

  async insert(endpoint: WebhookEndpoint, limit: number): Promise<boolean> {
    const document = endpointToDocument(endpoint);
    // Each lost round is a slot taken by a racing insert: after `limit` of them there is none left.
    for (let round = 0; round <= limit; round++) {
      const taken = await guarded(() =>
        this.endpoints.documents.find({ dashboardId: endpoint.dashboardId }, { projection: { slot: 1 } }).toArray(),
      );
      const used = new Set(taken.map((found) => found['slot']));
      const slot = Array.from({ length: limit }, (_, i) => i).find((candidate) => !used.has(candidate));
      if (slot === undefined) return false;
      if (await insertUnlessDuplicate(this.endpoints.documents, { ...document, slot })) return true;
    }
    return false;
  }

  async find(dashboardId: string, id: string): Promise<O.Option<WebhookEndpoint>> {
    const found = await guarded(() => this.endpoints.documents.findOne({ _id: id, dashboardId }));
    return found === null ? O.none : O.some(this.decode(found));
  }

  /** Through the slot index (by dashboard), sorted here: a dashboard has at most 20. */
  async listByDashboard(dashboardId: string): Promise<readonly WebhookEndpoint[]> {
    const documents = await guarded(() => this.endpoints.documents.find({ dashboardId }).toArray());
    return documents
      .map((document) => this.decode(document))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Compare-and-set in one update filtered on the version read; the slot is left as it is. */
  async replace(endpoint: WebhookEndpoint): Promise<boolean> {
    const { _id, ...fields } = endpointToDocument(endpoint);
    const absent = OPTIONAL_ENDPOINT_FIELDS.filter((field) => !(field in fields));
    const result = await guarded(() =>
      this.endpoints.documents.updateOne(
        { _id, dashboardId: endpoint.dashboardId, version: endpoint.version - 1 },
        { $set: fields, ...(absent.length === 0 ? {} : { $unset: Object.fromEntries(absent.map((field) => [field, ''])) }) },
      ),
    );
    return result.matchedCount === 1;
  }

  async delete(dashboardId: string, id: string): Promise<boolean> {
    const result = await guarded(() => this.endpoints.documents.deleteOne({ _id: id, dashboardId }));
    return result.deletedCount === 1;
  }

  private decode(document: unknown): WebhookEndpoint {
    return endpointFromDocument(this.endpoints.decode(endpointDocumentCodec, document));
  }
}
