import { expect } from 'chai';
import type { Document } from 'mongodb';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import { SCHEMA_VERSION, SchemaVersionMismatchError } from '../../../src/adapters/mongodb/mongo-schema-version';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import { memoryLogger } from '../../support/memory-log';
import { describeWithMongo } from '../../support/mongo-server';
import { anOrderPayload } from '../../support/order-builder';
import { TestApi } from '../../support/test-api';

describeWithMongo('MongoDB collections and schema version', (mongo) => {
  const db = () => mongo.client.db(mongo.dbName);
  const meta = () => db().collection<Document>(COLLECTIONS.meta);

  beforeEach(() => db().dropDatabase());

  it('keeps everything in twenty-two collections: orders, dashboards, tokens, links, idempotency keys, rate-limit counters, webhook endpoints and deliveries, the events feed, meta, report cells and state, spend, product costs, the console users, memberships, invitations and sessions, sources with their delivery logs, ad accounts and the conversions sent to them', async () => {
    const api = await TestApi.start({}, { storage: await mongo.connect(), logger: memoryLogger().logger });
    try {
      const { token, tokenId } = await api.newDashboard();
      const keyed = { 'idempotency-key': 'k-1' };
      expect((await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'a' }) })).status).to.equal(201);
      expect(
        (await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'b' }), headers: keyed })).status,
      ).to.equal(201);
      expect((await api.request('PATCH', '/api/v1/orders/a', { token, body: { metadata: { n: 1 } }, headers: keyed })).status).to.equal(
        422,
      );
      expect((await api.request('PATCH', '/api/v1/orders/a', { token, body: { metadata: { n: 2 } } })).status).to.equal(200);
      expect((await api.request('GET', '/api/v1/orders', { token })).status).to.equal(200);
      const link = await api.request('POST', '/api/v1/links', {
        token,
        body: { destinationUrl: 'https://shop.example/', utmSource: 'a', utmMedium: 'b', utmCampaign: 'c' },
      });
      expect(link.status).to.equal(201);
      expect((await api.request('GET', `/l/${String(link.body.link.shortUrl).split('/').pop()}`)).status).to.equal(302);
      const source = await api.request('POST', '/api/v1/sources', { token, body: { platform: 'shopify', name: 's', secret: 'shpss_x' } });
      expect(source.status).to.equal(201);
      expect((await api.request('POST', `/in/v1/${source.body.source.id}`, { rawBody: '{}' })).status).to.equal(401);
      expect((await api.admin('POST', `/admin/v1/tokens/${tokenId}/revoke`)).status).to.equal(200);
      expect((await api.admin('POST', `/admin/v1/tokens/${tokenId}/revoke`)).status).to.equal(200);
    } finally {
      await api.stop();
    }
    const names = (await db().listCollections({}, { nameOnly: true }).toArray()).map((collection) => collection.name).sort();
    expect(names).to.deep.equal([
      'ad_accounts',
      'conversion_deliveries',
      'dashboards',
      'event_feed',
      'idempotency_keys',
      'invitations',
      'links',
      'memberships',
      'meta',
      'orders',
      'product_costs',
      'rate_limits',
      'report_cells',
      'report_state',
      'sessions',
      'source_deliveries',
      'sources',
      'spend',
      'tokens',
      'users',
      'webhook_deliveries',
      'webhook_endpoints',
    ]);
  });

  it(`records schema version ${SCHEMA_VERSION} in meta on a new database, and keeps that record when started again`, async () => {
    await mongo.connect();
    const first = await meta().find({}).toArray();
    expect(first).to.have.length(1);
    expect(first[0]).to.include({ _id: 'schema', version: SCHEMA_VERSION });
    expect(first[0]['recordedAt']).to.be.instanceOf(Date);
    await mongo.connect();
    expect(await meta().find({}).toArray()).to.deep.equal(first);
  });

  it('records one schema document when several instances start at once on a new database', async () => {
    await Promise.all(Array.from({ length: 5 }, () => mongo.connect()));
    expect(await meta().countDocuments({})).to.equal(1);
  });

  it('refuses to start on a database of another schema version, naming both versions', async () => {
    await meta().insertOne({ _id: 'schema' as never, version: SCHEMA_VERSION + 1, recordedAt: new Date() });
    const failure = await mongo.connect().catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(SchemaVersionMismatchError);
    expect(failure).not.to.be.instanceOf(StorageUnavailableError);
    expect((failure as Error).message)
      .to.include(`schema version ${SCHEMA_VERSION + 1}`)
      .and.include(`version ${SCHEMA_VERSION};`);
  });
});
