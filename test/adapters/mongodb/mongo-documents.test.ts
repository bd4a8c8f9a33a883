import { expect } from 'chai';
import { Long, type Document } from 'mongodb';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import type { Storage } from '../../../src/application/ports/storage';
import { MAX_CENTS } from '../../../src/domain/money';
import { anOrder } from '../../support/order-builder';
import { describeWithMongo } from '../../support/mongo-server';
import { SCOPES } from '../../../src/domain/scope';

const CENTS_FIELDS = ['grossCents', 'netToSellerCents', 'discountCents', 'shippingCents', 'taxesCents', 'totalFeesCents'];

describeWithMongo('MongoDB documents as stored', (mongo) => {
  let storage: Storage;
  const raw = (collection: string) => mongo.client.db(mongo.dbName).collection<Document>(collection);

  before(async () => {
    storage = await mongo.connect();
  });
  beforeEach(() => mongo.empty());

  const order = anOrder()
    .inDashboard('dsh_doc')
    .with({
      id: 'ord_doc',
      externalId: 'doc-1',
      amounts: {
        currency: 'BRL',
        grossCents: MAX_CENTS,
        netToSellerCents: 2 ** 31,
        discountCents: 0,
        shippingCents: 1,
        taxesCents: 2 ** 31 - 1,
        totalFeesCents: 12_345,
      },
      products: [
        { name: 'Big', quantity: 1, unitPriceCents: MAX_CENTS },
        { name: 'Small', quantity: 2, unitPriceCents: 5 },
      ],
      metadata: { nested: [[1, 2], [3]], n: 1.5 },
    })
    .paid('2026-01-02T03:10:00.123Z')
    .build();

  it('stores every amount as a BSON int64, small or large, never as a double', async () => {
    await storage.orders.insert(order, []);
    const stored = await raw(COLLECTIONS.orders).findOne({ _id: 'ord_doc' as never }, { promoteLongs: false });
    for (const field of CENTS_FIELDS) {
      expect(stored?.['amounts'][field], field).to.be.instanceOf(Long);
      expect((stored?.['amounts'][field] as Long).toNumber(), field).to.equal((order.amounts as unknown as Record<string, number>)[field]);
    }
    for (const product of stored?.['products'] as Document[]) expect(product['unitPriceCents']).to.be.instanceOf(Long);
  });

  it('lets the server itself see the amounts as longs ($type), so other readers get integers too', async () => {
    await storage.orders.insert(order, []);
    const orders = raw(COLLECTIONS.orders);
    for (const field of CENTS_FIELDS) {
      expect(await orders.countDocuments({ [`amounts.${field}`]: { $type: 'long' } }), field).to.equal(1);
      expect(await orders.countDocuments({ [`amounts.${field}`]: { $type: 'double' } }), field).to.equal(0);
    }
  });

  it('keeps amounts as integers through a replace too', async () => {
    await storage.orders.insert(order, []);
    expect(await storage.orders.replace({ ...order, amounts: { ...order.amounts, grossCents: 3_000_000_000 }, version: 2 }, [])).to.equal(
      true,
    );
    expect(await raw(COLLECTIONS.orders).countDocuments({ 'amounts.grossCents': { $type: 'long' } })).to.equal(1);
  });

  it('stores dates as BSON dates, the order id as _id, and no field the order does not have', async () => {
    await storage.orders.insert(order, []);
    const orders = raw(COLLECTIONS.orders);
    expect(await orders.countDocuments({ createdAt: { $type: 'date' }, paidAt: { $type: 'date' }, updatedAt: { $type: 'date' } })).to.equal(
      1,
    );
    const stored = await orders.findOne({ externalId: 'doc-1' });
    expect(stored?.['_id']).to.equal('ord_doc');
    expect(stored).not.to.have.any.keys('id', 'refundedAt', 'chargedbackAt', 'customer', 'fees', 'trackingExtras');
    expect((stored?.['paidAt'] as Date).toISOString()).to.equal('2026-01-02T03:10:00.123Z');
  });

  it('stores free-form objects as native sub-documents: arrays inside arrays, numbers as numbers, nulls as null', async () => {
    const free = {
      ...order,
      customer: { name: 'Zoë', tags: ['a', null], address: { lines: [[1, 'x'], []] } },
      fees: { big: 2 ** 40, n: -0.25 },
    };
    await storage.orders.insert(free, []);
    const orders = raw(COLLECTIONS.orders);
    const stored = await orders.findOne({ _id: 'ord_doc' as never });
    expect(stored?.['metadata']).to.deep.equal({ nested: [[1, 2], [3]], n: 1.5 });
    expect(stored?.['customer']).to.deep.equal(free.customer);
    expect(stored?.['fees']).to.deep.equal(free.fees);
    expect(
      await orders.countDocuments({
        metadata: { $type: 'object' },
        'customer.address.lines': { $type: 'array' },
        'fees.big': { $type: 'double' },
      }),
    ).to.equal(1);
  });

  it('keeps the outbox in the order document: events as sub-documents, each order encoded like the order itself', async () => {
    const created = { id: 'evt_1', type: 'order.created', occurredAt: new Date('2026-01-02T03:04:05.001Z'), order } as const;
    await storage.orders.insert(order, [created]);
    const next = { ...order, metadata: { n: 2 }, version: 2 };
    const updated = { id: 'evt_2', type: 'order.updated', occurredAt: new Date('2026-01-02T03:04:06.002Z'), order: next } as const;
    expect(await storage.orders.replace(next, [updated])).to.equal(true);

    const stored = await raw(COLLECTIONS.orders).findOne({ _id: 'ord_doc' as never }, { promoteLongs: false });
    const outbox = stored?.['outbox'] as Document[];
    expect(outbox.map((event) => Object.keys(event))).to.deep.equal([
      ['id', 'type', 'occurredAt', 'order'],
      ['id', 'type', 'occurredAt', 'order'],
    ]);
    expect(outbox[1]['occurredAt']).to.be.instanceOf(Date);
    const { _id, reportDirty, ...fields } = (await raw(COLLECTIONS.orders).findOne(
      { _id: 'ord_doc' as never },
      { projection: { outbox: 0 }, promoteLongs: false },
    ))!;
    expect(reportDirty, "the reports' mark is the document's, not the order's").to.equal(true);
    expect(outbox[1]['order']).to.deep.equal({ id: _id, ...fields });
    expect(outbox[0]['order']).not.to.have.property('_id');
    expect(outbox[0]['order']['amounts']['grossCents']).to.be.instanceOf(Long);
    expect(outbox[0]['order']['paidAt']).to.be.instanceOf(Date);
    expect(outbox[0]['order']['metadata']).to.deep.equal({ nested: [[1, 2], [3]], n: 1.5 });
    expect(await raw(COLLECTIONS.orders).countDocuments({})).to.equal(1);
  });

  it('reads an order stored without an outbox field as having an empty outbox, and appends to it', async () => {
    await storage.orders.insert(order, []);
    await raw(COLLECTIONS.orders).updateOne({ _id: 'ord_doc' as never }, { $unset: { outbox: '' } });
    expect(await storage.orders.outboxOf('dsh_doc', 'doc-1')).to.deep.equal([]);
    const next = { ...order, version: 2, metadata: { n: 2 } };
    const updated = { id: 'evt_2', type: 'order.updated', occurredAt: new Date('2026-01-02T03:04:06.002Z'), order: next } as const;
    expect(await storage.orders.replace(next, [updated])).to.equal(true);
    expect(await storage.orders.outboxOf('dsh_doc', 'doc-1')).to.deep.equal([updated]);
  });

  it('gives a token stored before scopes every scope, in the document itself, when a service connects (decision 0017)', async () => {
    await raw(COLLECTIONS.tokens).insertOne({
      _id: 'tok_old' as never,
      dashboardId: 'dsh_doc',
      hash: 'd'.repeat(64),
      createdAt: new Date(1000),
    });
    await mongo.connect();
    expect((await raw(COLLECTIONS.tokens).findOne({ _id: 'tok_old' as never }))?.['scopes']).to.deep.equal([...SCOPES]);
    const found = await storage.tokens.findByHash('d'.repeat(64));
    expect(found._tag === 'Some' && found.value.scopes).to.deep.equal([...SCOPES]);
  });

  it('stores a token as its hash only, with a BSON date', async () => {
    await storage.tokens.insert({
      id: 'tok_doc',
      dashboardId: 'dsh_doc',
      hash: 'a'.repeat(64),
      scopes: ['orders:write'],
      createdAt: new Date('2026-01-01T00:00:00.001Z'),
    });
    const stored = await raw(COLLECTIONS.tokens).findOne({ _id: 'tok_doc' as never });
    expect(Object.keys(stored ?? {})).to.have.members(['_id', 'dashboardId', 'hash', 'scopes', 'createdAt']);
    expect(stored?.['scopes']).to.deep.equal(['orders:write']);
    expect(stored?.['createdAt']).to.be.instanceOf(Date);
  });
});
