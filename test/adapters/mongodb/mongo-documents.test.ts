import { expect } from 'chai';
import { Long, type Document } from 'mongodb';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import type { Storage } from '../../../src/application/ports/storage';
import { MAX_CENTS } from '../../../src/domain/money';
import { anOrder } from '../../support/order-builder';
import { describeWithMongo } from '../../support/mongo-server';

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
      amounts: { currency: 'BRL', grossCents: MAX_CENTS, netToSellerCents: 2 ** 31, discountCents: 0, shippingCents: 1, taxesCents: 2 ** 31 - 1, totalFeesCents: 12_345 },
      products: [
        { name: 'Big', quantity: 1, unitPriceCents: MAX_CENTS },
        { name: 'Small', quantity: 2, unitPriceCents: 5 },
      ],
      metadata: { nested: [[1, 2], [3]], n: 1.5 },
    })
    .paid('2026-01-02T03:10:00.123Z')
    .build();

  it('stores every amount as a BSON int64, small or large, never as a double', async () => {
    await storage.orders.insert(order);
    const stored = await raw(COLLECTIONS.orders).findOne({ _id: 'ord_doc' as never }, { promoteLongs: false });
    for (const field of CENTS_FIELDS) {
      expect(stored?.['amounts'][field], field).to.be.instanceOf(Long);
      expect((stored?.['amounts'][field] as Long).toNumber(), field).to.equal((order.amounts as unknown as Record<string, number>)[field]);
    }
    for (const product of stored?.['products'] as Document[]) expect(product['unitPriceCents']).to.be.instanceOf(Long);
  });

  it('lets the server itself see the amounts as longs ($type), so other readers get integers too', async () => {
    await storage.orders.insert(order);
    const orders = raw(COLLECTIONS.orders);
    for (const field of CENTS_FIELDS) {
      expect(await orders.countDocuments({ [`amounts.${field}`]: { $type: 'long' } }), field).to.equal(1);
      expect(await orders.countDocuments({ [`amounts.${field}`]: { $type: 'double' } }), field).to.equal(0);
    }
  });

  it('keeps amounts as integers through a replace too', async () => {
    await storage.orders.insert(order);
    expect(await storage.orders.replace({ ...order, amounts: { ...order.amounts, grossCents: 3_000_000_000 }, version: 2 })).to.equal(true);
    expect(await raw(COLLECTIONS.orders).countDocuments({ 'amounts.grossCents': { $type: 'long' } })).to.equal(1);
  });

  it('stores dates as BSON dates, the order id as _id, and no field the order does not have', async () => {
    await storage.orders.insert(order);
    const orders = raw(COLLECTIONS.orders);
    expect(await orders.countDocuments({ createdAt: { $type: 'date' }, paidAt: { $type: 'date' }, updatedAt: { $type: 'date' } })).to.equal(1);
    const stored = await orders.findOne({ externalId: 'doc-1' });
    expect(stored?.['_id']).to.equal('ord_doc');
    expect(stored).not.to.have.any.keys('id', 'refundedAt', 'chargedbackAt', 'customer', 'fees', 'trackingExtras');
    expect((stored?.['paidAt'] as Date).toISOString()).to.equal('2026-01-02T03:10:00.123Z');
  });

  it('stores free-form objects as JSON text, so arrays inside arrays survive every server', async () => {
    await storage.orders.insert(order);
    const stored = await raw(COLLECTIONS.orders).findOne({ _id: 'ord_doc' as never });
    expect(JSON.parse(stored?.['metadata'] as string)).to.deep.equal({ nested: [[1, 2], [3]], n: 1.5 });
  });

  it('stores a token as its hash only, with a BSON date', async () => {
    await storage.tokens.insert({ id: 'tok_doc', dashboardId: 'dsh_doc', hash: 'a'.repeat(64), createdAt: new Date('2026-01-01T00:00:00.001Z') });
    const stored = await raw(COLLECTIONS.tokens).findOne({ _id: 'tok_doc' as never });
    expect(Object.keys(stored ?? {})).to.have.members(['_id', 'dashboardId', 'hash', 'createdAt']);
    expect(stored?.['createdAt']).to.be.instanceOf(Date);
  });
});
