import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { createOrder, ORDERS, postOrder, readListItem, readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';

const UTC_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** POST /api/v1/orders and the order it stores (specification; decisions 0001, 0003, 0004). */
export const createOrderBehaviour = (storageFactory: StorageFactory): void => {
  describe('POST /api/v1/orders', () => {
    const h = useApi(storageFactory);

    it('answers 201 with Location and { order: { id, externalId, status, isTest } }', async () => {
      const res = await postOrder(h, { externalId: 'order-201', status: 'pending', isTest: true });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('location')).to.equal('/api/v1/orders/order-201');
      expect(res.headers.get('content-type')).to.match(/^application\/json\b/);
      expect(Object.keys(res.body)).to.deep.equal(['order']);
      expect(Object.keys(res.body.order)).to.have.members(['id', 'externalId', 'status', 'isTest']);
      expect(res.body.order).to.deep.include({ externalId: 'order-201', status: 'pending', isTest: true });
      expect(res.body.order.id).to.be.a('string').with.length.of.at.least(16);
    });

    it('percent-encodes the externalId in Location, and that Location reads the order back', async () => {
      const res = await postOrder(h, { externalId: 'a b/ç?#' });
      expect(res.status, res.text).to.equal(201);
      const location = res.headers.get('location') ?? '';
      expect(location).to.equal(`${ORDERS}/${encodeURIComponent('a b/ç?#')}`);
      const read = await h.api.request('GET', location, { token: h.token });
      expect(read.status, read.text).to.equal(200);
      expect(read.body.order.externalId).to.equal('a b/ç?#');
    });

    it('makes opaque ids that are neither counters nor the externalId', async () => {
      const ids = [];
      for (const externalId of ['o-1', 'o-2', 'o-3']) ids.push((await createOrder(h, { externalId })).id);
      expect(new Set(ids).size).to.equal(3);
      for (const id of ids) {
        expect(id).not.to.match(/^\d+$/);
        expect(id).not.to.include('o-');
      }
    });

    it('stores the order as a list item with every field of the specification', async () => {
      await createOrder(h, { externalId: 'shape-1', status: 'pending', isTest: false });
      const item = await readListItem(h, 'shape-1');
      expect(item.id).to.be.a('string');
      const { id: _id, ...rest } = item;
      expect(rest).to.deep.equal({
        externalId: 'shape-1',
        status: 'pending',
        isTest: false,
        platform: 'shopify',
        paymentMethod: 'credit_card',
        createdAt: '2026-01-02T03:04:05.000Z',
        amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000 },
        tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
      });
    });

    it('reads the whole order on its own: the list item, every amount, the products and the free-form objects', async () => {
      await createOrder(h, {
        externalId: 'detail-1',
        amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000, shippingCents: 500 },
        metadata: { note: 'gift', tags: ['a', 'b'] },
        customer: { email: 'c@example.com' },
      });
      const detail = await readOrder(h, 'detail-1');
      expect(detail).to.deep.include(await readListItem(h, 'detail-1').then(({ amounts: _, ...rest }) => rest));
      expect(detail.amounts).to.deep.equal({
        currency: 'BRL',
        grossCents: 10_000,
        netToSellerCents: 9_000,
        discountCents: 0,
        shippingCents: 500,
        taxesCents: 0,
        totalFeesCents: 0,
      });
      expect(detail.products).to.deep.equal([{ externalId: 'p-1', sku: 'SKU-1', name: 'T-shirt', quantity: 2, unitPriceCents: 5_000 }]);
      expect(detail.metadata).to.deep.equal({ note: 'gift', tags: ['a', 'b'] });
      expect(detail.customer).to.deep.equal({ email: 'c@example.com' });
      expect(detail).not.to.have.property('fees');
      expect(detail).not.to.have.property('trackingExtras');
      expect(detail.updatedAt).to.match(UTC_WITH_MS);
    });

    it('returns dates sent with an offset in UTC with milliseconds', async () => {
      await createOrder(h, { externalId: 'tz', createdAt: '2026-01-02T00:04:05-03:00' });
      expect((await readOrder(h, 'tz')).createdAt).to.equal('2026-01-02T03:04:05.000Z');
      await createOrder(h, { externalId: 'frac', createdAt: '2026-01-02T05:04:05.5+02:00' });
      expect((await readOrder(h, 'frac')).createdAt).to.equal('2026-01-02T03:04:05.500Z');
    });

    it('sets paidAt to createdAt for an order created paid without paidAt', async () => {
      await createOrder(h, { externalId: 'paid-1', status: 'paid', createdAt: '2026-01-02T00:04:05-03:00' });
      const item = await readOrder(h, 'paid-1');
      expect(item.paidAt).to.equal('2026-01-02T03:04:05.000Z');
      expect(item.paidAt).to.match(UTC_WITH_MS);
    });

    it('keeps the paidAt that was sent', async () => {
      await createOrder(h, { externalId: 'paid-2', status: 'paid', paidAt: '2026-01-03T10:00:00+01:00' });
      expect((await readOrder(h, 'paid-2')).paidAt).to.equal('2026-01-03T09:00:00.000Z');
    });

    it('has no paidAt on a pending order created without one', async () => {
      await createOrder(h, { externalId: 'pending-1', status: 'pending' });
      expect(await readOrder(h, 'pending-1')).not.to.have.property('paidAt');
    });

    it('sets refundedAt and chargedbackAt to createdAt in the same way', async () => {
      await createOrder(h, { externalId: 'refunded-1', status: 'refunded' });
      expect((await readOrder(h, 'refunded-1')).refundedAt).to.equal('2026-01-02T03:04:05.000Z');
      await createOrder(h, { externalId: 'cb-1', status: 'chargedback' });
      expect((await readOrder(h, 'cb-1')).chargedbackAt).to.equal('2026-01-02T03:04:05.000Z');
    });

    it('accepts every optional field of the specification', async () => {
      const res = await postOrder(h, {
        externalId: 'full',
        customer: { name: 'Ana', email: 'ana@example.com' },
        fees: { gateway: 120 },
        metadata: { source: 'checkout', tags: ['a', 'b'], nested: { ok: true, none: null } },
        trackingExtras: { utmContent: 'banner', utmTerm: 'shoes' },
        paidAt: '2026-01-02T03:05:00Z',
        refundedAt: '2026-01-03T03:05:00Z',
        chargedbackAt: '2026-01-04T03:05:00Z',
        amounts: {
          currency: 'USD',
          grossCents: 1,
          netToSellerCents: 0,
          discountCents: 0,
          shippingCents: 5,
          taxesCents: 7,
          totalFeesCents: 9,
        },
        products: [{ name: 'No ids', quantity: 1, unitPriceCents: 0 }],
      });
      expect(res.status, res.text).to.equal(201);
    });

    it('answers 409 DUPLICATE_EXTERNAL_ID for an externalId already used in the dashboard', async () => {
      await createOrder(h, { externalId: 'dup' });
      const again = await postOrder(h, { externalId: 'dup', status: 'paid' });
      expectProblem(again, 409, 'DUPLICATE_EXTERNAL_ID');
      const list = await h.api.request('GET', ORDERS, { token: h.token });
      expect(list.body.total).to.equal(1);
      expect((await readOrder(h, 'dup')).status).to.equal('pending');
    });

    it('lets exactly one of several concurrent creations with one externalId win', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => postOrder(h, { externalId: 'race', isTest: i % 2 === 0 })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([201, 409, 409, 409, 409, 409, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) expectProblem(res, 409, 'DUPLICATE_EXTERNAL_ID');
      const list = await h.api.request('GET', ORDERS, { token: h.token });
      expect(list.body.total).to.equal(1);
    });

    it('treats externalIds that differ only in case as different orders', async () => {
      await createOrder(h, { externalId: 'Case-1' });
      const res = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'case-1' }) });
      expect(res.status, res.text).to.equal(201);
    });
  });
};
