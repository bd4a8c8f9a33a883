import { expect } from 'chai';
import { readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { createSource, fixture, logOf, postShopify, SHOPIFY_SECRET } from './source-deliveries';
import { TRANSITIONS } from './transitions';

/** Shopify deliveries over a real socket (DECISIONS D21), as Shopify sends them. */
export const shopifyBehaviour = (storageFactory: StorageFactory): void => {
  describe('Shopify deliveries', () => {
    const h = useApi(storageFactory, { config: { transitions: TRANSITIONS } });

    it('records orders/create from decimal text with its line items and the landing page tracking', async () => {
      const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
      const res = await postShopify(h, source.id, 'orders/create', fixture('shopify', 'orders-create'));
      expect(res.body.outcome, res.text).to.equal('created');
      const order = await readOrder(h, 'shopify:450789469');
      expect(order).to.include({ status: 'paid', platform: 'shopify', paymentMethod: 'credit_card', isTest: false });
      expect(order.amounts).to.include({ currency: 'USD', grossCents: 40994, taxesCents: 1194 });
      expect(order.products).to.deep.equal([
        { externalId: '632910392', sku: 'IPOD2008GREEN', name: 'IPod Nano - 8gb', quantity: 1, unitPriceCents: 19900 },
        { externalId: '632910392', sku: 'IPOD2008RED', name: 'IPod Nano - 8gb', quantity: 1, unitPriceCents: 19900 },
      ]);
      expect(order.tracking).to.deep.equal({
        utmSource: 'facebook',
        utmMedium: 'paid social',
        utmCampaign: 'launch',
        utmContent: 'video-1',
      });
      expect(order.createdAt).to.equal('2026-11-20T17:03:00.000Z');
    });

    it('goes pending → paid → refunded, whatever topic carries the change, and ignores the topics that are not orders', async () => {
      const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
      const order = fixture('shopify', 'orders-create');
      await postShopify(h, source.id, 'orders/create', { ...order, financial_status: 'pending' });
      expect((await readOrder(h, 'shopify:450789469')).status).to.equal('pending');
      const paid = await postShopify(h, source.id, 'orders/paid', { ...order, updated_at: '2026-11-20T14:05:00-03:00' });
      expect(paid.body.outcome).to.equal('updated');
      const refund = await postShopify(h, source.id, 'refunds/create', fixture('shopify', 'refunds-create'));
      expect(refund.body.outcome).to.equal('updated');
      expect((await readOrder(h, 'shopify:450789469')).status).to.equal('refunded');
      expect((await postShopify(h, source.id, 'products/update', { id: 1 })).body.outcome).to.equal('ignored');
      expect((await postShopify(h, source.id, 'orders/create', order, { headers: { 'x-shopify-test': 'true' } })).body.outcome).to.equal(
        'ignored',
      );
    });

    it('ignores an orders/updated older than what the order reflects, and a retried delivery', async () => {
      const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
      const order = fixture('shopify', 'orders-create');
      await postShopify(h, source.id, 'orders/paid', order, { eventId: 'e-1' });
      const stale = await postShopify(h, source.id, 'orders/updated', {
        ...order,
        financial_status: 'pending',
        updated_at: '2026-11-20T14:03:01-03:00',
      });
      expect(stale.body.outcome).to.equal('ignored');
      expect((await postShopify(h, source.id, 'orders/paid', order, { eventId: 'e-1' })).body.outcome).to.equal('ignored');
      expect(await readOrder(h, 'shopify:450789469')).to.include({ status: 'paid', version: 1 });
    });

    it('refuses a wrong HMAC with 401 and an order without total_price with a refused line', async () => {
      const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
      const order = fixture('shopify', 'orders-create');
      expectProblem(await postShopify(h, source.id, 'orders/create', order, { secret: 'wrong' }), 401, 'INVALID_SIGNATURE');
      const { total_price: _total, ...withoutTotal } = order;
      const res = await postShopify(h, source.id, 'orders/create', withoutTotal);
      expect(res.body.outcome).to.equal('refused');
      expect((await logOf(h, source.id))[0].reason).to.equal('the order has no total_price (a decimal amount)');
    });
  });
};
