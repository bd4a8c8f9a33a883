import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import { ObjectId, type Document } from 'mongodb';
import { CorruptDocumentError } from '../../../src/adapters/mongodb/bson-codecs';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import type { Storage } from '../../../src/application/ports/storage';
import { expectProblem } from '../../http/problem-assertions';
import { memoryLogger } from '../../support/memory-log';
import { describeWithMongo } from '../../support/mongo-server';
import { anOrder, anOrderPayload } from '../../support/order-builder';
import { TestApi } from '../../support/test-api';
import { rejectionOf } from '../../support/failures';

const SECRET_VALUE = 'corrupt-value-that-must-not-be-logged';

/**
 * Each way a stored order can go wrong, the field the log must name, the update that breaks it, and
 * whether a listing reads that field (the summary's fields) and so must fail on it too.
 */
const CORRUPTIONS: { field: string; update: Document; listed: boolean }[] = [
  { field: 'amounts.grossCents', update: { $set: { 'amounts.grossCents': SECRET_VALUE } }, listed: true },
  { field: 'amounts.netToSellerCents', update: { $set: { 'amounts.netToSellerCents': 10.5 } }, listed: true },
  { field: 'createdAt', update: { $set: { createdAt: SECRET_VALUE } }, listed: true },
  { field: 'paidAt', update: { $set: { paidAt: null } }, listed: true },
  { field: 'status', update: { $set: { status: SECRET_VALUE } }, listed: true },
  { field: 'products.0.quantity', update: { $set: { 'products.0.quantity': 0 } }, listed: false },
  { field: 'metadata', update: { $set: { metadata: `{${SECRET_VALUE}` } }, listed: false },
  { field: 'customer', update: { $set: { customer: { since: new Date(), note: SECRET_VALUE } } }, listed: false },
  { field: 'fees', update: { $set: { fees: [SECRET_VALUE] } }, listed: false },
  { field: 'version', update: { $unset: { version: '' } }, listed: false },
  { field: 'tracking.utmSource', update: { $set: { 'tracking.utmSource': 42 } }, listed: true },
];

describeWithMongo('MongoDB corrupt documents', (mongo) => {
  let storage: Storage;
  let logs: string[];
  const raw = (collection: string) => mongo.client.db(mongo.dbName).collection<Document>(collection);

  beforeEach(async () => {
    await mongo.empty();
    const log = memoryLogger();
    logs = log.lines;
    storage = await mongo.connect(log.logger);
  });
  afterEach(() => storage.health.close());

  const corruptLogLines = (): Record<string, unknown>[] =>
    logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry['msg'] === 'corrupt document in MongoDB');

  for (const { field, update, listed } of CORRUPTIONS) {
    it(`rejects an order whose ${field} is corrupt with CorruptDocumentError, and logs the id and field only${listed ? '' : '; a listing, which does not read it, lists the order'}`, async () => {
      await storage.orders.insert(
        anOrder()
          .inDashboard('dsh_c')
          .with({ id: 'ord_corrupt', externalId: 'c-1', metadata: { a: 1 } })
          .paid()
          .build(),
        [],
      );
      await raw(COLLECTIONS.orders).updateOne({ _id: 'ord_corrupt' as never }, update);

      const failure = await rejectionOf(storage.orders.findByExternalId('dsh_c', 'c-1'));
      expect(failure).to.be.instanceOf(CorruptDocumentError);
      expect(failure.message).to.equal(`orders document ord_corrupt is corrupt at ${field}`);
      if (listed) expect(await rejectionOf(storage.orders.list('dsh_c', { page: 1, pageSize: 20 }))).to.be.instanceOf(CorruptDocumentError);
      else
        expect((await storage.orders.list('dsh_c', { page: 1, pageSize: 20 })).orders.map((order) => order.id)).to.deep.equal([
          'ord_corrupt',
        ]);
      expect(corruptLogLines()).to.have.lengthOf(listed ? 2 : 1);

      expect(corruptLogLines()[0]).to.include({ level: 'error', collection: 'orders', documentId: 'ord_corrupt', field });
      expect(logs.join('\n')).not.to.include(SECRET_VALUE);
    });
  }

  /** Each way a stored event can go wrong, and the field the log must name. */
  const OUTBOX_CORRUPTIONS: { field: string; update: Document }[] = [
    { field: 'outbox', update: { $set: { outbox: SECRET_VALUE } } },
    { field: 'outbox.0.type', update: { $set: { 'outbox.0.type': SECRET_VALUE } } },
    { field: 'outbox.1.occurredAt', update: { $set: { 'outbox.1.occurredAt': SECRET_VALUE } } },
    { field: 'outbox.0.previousStatus', update: { $set: { 'outbox.0.previousStatus': SECRET_VALUE } } },
    { field: 'outbox.1.order.amounts.grossCents', update: { $set: { 'outbox.1.order.amounts.grossCents': 10.5 } } },
    { field: 'outbox.0.order.id', update: { $unset: { 'outbox.0.order.id': '' } } },
    { field: 'outbox.0.order.metadata', update: { $set: { 'outbox.0.order.metadata': `{${SECRET_VALUE}` } } },
  ];

  for (const { field, update } of OUTBOX_CORRUPTIONS) {
    it(`rejects an outbox whose ${field} is corrupt with CorruptDocumentError, and still reads the order`, async () => {
      const order = anOrder()
        .inDashboard('dsh_c')
        .with({ id: 'ord_corrupt', externalId: 'c-1', metadata: { a: 1 } })
        .paid()
        .build();
      const event = { id: 'evt_c', occurredAt: new Date(), order } as const;
      await storage.orders.insert(order, [
        { ...event, type: 'order.created' },
        { ...event, id: 'evt_p', type: 'order.paid' },
      ]);
      await raw(COLLECTIONS.orders).updateOne({ _id: 'ord_corrupt' as never }, update);

      const failure = await rejectionOf(storage.orders.outboxOf('dsh_c', 'c-1'));
      expect(failure).to.be.instanceOf(CorruptDocumentError);
      expect(failure.message).to.equal(`orders document ord_corrupt is corrupt at ${field}`);
      expect(corruptLogLines()[0]).to.include({ level: 'error', collection: 'orders', documentId: 'ord_corrupt', field });
      expect(logs.join('\n')).not.to.include(SECRET_VALUE);
      expect(await storage.orders.findByExternalId('dsh_c', 'c-1')).to.deep.equal(O.some(order));
    });
  }

  it('names a document whose _id is not a string by that id', async () => {
    const id = new ObjectId();
    await raw(COLLECTIONS.dashboards).insertOne({ _id: id, name: 'Foreign', createdAt: new Date() });
    const failure = await rejectionOf(storage.dashboards.list());
    expect(failure).to.be.instanceOf(CorruptDocumentError);
    expect(failure.message).to.equal(`dashboards document ${id.toHexString()} is corrupt at _id`);
  });

  it('rejects a corrupt dashboard and a corrupt token the same way', async () => {
    await storage.dashboards.insert({ id: 'dsh_c', name: 'Shop', timezone: 'UTC', taxRate: 0, createdAt: new Date() });
    await raw(COLLECTIONS.dashboards).updateOne({ _id: 'dsh_c' as never }, { $set: { name: 7 } });
    expect((await rejectionOf(storage.dashboards.findById('dsh_c'))).message).to.equal('dashboards document dsh_c is corrupt at name');

    await storage.tokens.insert({
      id: 'tok_c',
      dashboardId: 'dsh_c',
      hash: 'f'.repeat(64),
      scopes: ['orders:read'],
      createdAt: new Date(),
    });
    await raw(COLLECTIONS.tokens).updateOne({ _id: 'tok_c' as never }, { $set: { revokedAt: SECRET_VALUE } });
    const failure = await rejectionOf(storage.tokens.findByHash('f'.repeat(64)));
    expect(failure.message).to.equal('tokens document tok_c is corrupt at revokedAt');
    expect(logs.join('\n')).not.to.include(SECRET_VALUE);
  });

  it('fails only the request that read it: 500 INTERNAL_ERROR, a log line, and the service keeps serving', async () => {
    const log = memoryLogger();
    const api = await TestApi.start({}, { storage: await mongo.connect(log.logger), logger: log.logger });
    try {
      const { token } = await api.newDashboard();
      const created = await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'broken' }) });
      expect(created.status, created.text).to.equal(201);
      await raw(COLLECTIONS.orders).updateOne({ externalId: 'broken' }, { $set: { 'amounts.grossCents': SECRET_VALUE } });

      const listed = await api.request('GET', '/api/v1/orders', { token });
      expectProblem(listed, 500, 'INTERNAL_ERROR');
      expect(listed.text).not.to.include(SECRET_VALUE);
      expectProblem(await api.request('GET', '/api/v1/orders/broken', { token }), 500, 'INTERNAL_ERROR');

      const entries = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.find((entry) => entry['msg'] === 'corrupt document in MongoDB')).to.include({
        collection: 'orders',
        documentId: created.body.order.id,
        field: 'amounts.grossCents',
      });
      expect(log.lines.join('\n')).not.to.include(SECRET_VALUE);

      expect((await api.request('GET', '/healthz')).status).to.equal(200);
      const other = await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'fine' }) });
      expect(other.status, other.text).to.equal(201);
    } finally {
      await api.stop();
    }
  });
});
