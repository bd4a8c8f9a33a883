import { expect } from 'chai';
import { readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { createSource, fixture, fixtureText, logOf, postShopify, SHOPIFY_SECRET, SHOPIFY_SHOP } from './source-deliveries';
import { TRANSITIONS } from './transitions';

const ORDER = `shopify:${SHOPIFY_SHOP}:450789469`;

/** Shopify deliveries over a real socket (decision 0021), as Shopify sends them. */
export const shopifyBehaviour = (storageFactory: StorageFactory): void => {
  describe('Shopify deliveries', () => {
    const h = useApi(storageFactory, { config: { transitions: TRANSITIONS } });

    it('records orders/create from decimal text with its line items and the landing page tracking', async () => {
      const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
      const res = await postShopify(h, source.id, 'orders/create', fixture('shopify', 'orders-create'));
      expect(res.body.outcome, res.text).to.equal('created');
      const order = await readOrder(h, ORDER);
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
      expect((await readOrder(h, ORDER)).status).to.equal('pending');
      const paid = await postShopify(h, source.id, 'orders/paid', { ...order, updated_at: '2026-11-20T14:05:00-03:00' });
      expect(paid.body.outcome).to.equal('updated');
      const refund = await postShopify(h, source.id, 'refunds/create', fixture('shopify', 'refunds-create'));
      expect(refund.body.outcome).to.equal('updated');
      expect((await readOrder(h, ORDER)).status).to.equal('refunded');
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
      expect(await readOrder(h, ORDER)).to.include({ status: 'paid', version: 1 });
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

    it('keeps every digit of the 18-digit ids of Shopify’s test notification, and reads its voided, cancelled order as refused', async () => {
      const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
      // The product id of Shopify's earlier example of the same notification, past 2^53 too.
      const body = fixtureText('shopify', 'test-notification-orders-create').replace(
        '"product_id": 632910392,',
        '"product_id": 788032119674292922,',
      );
      expect((await postShopify(h, source.id, 'orders/create', body, { headers: { 'x-shopify-test': 'true' } })).body.outcome).to.equal(
        'ignored',
      );
      const res = await postShopify(h, source.id, 'orders/create', body);
      expect(res.body.outcome, res.text).to.equal('created');
      const key = `shopify:${SHOPIFY_SHOP}:820982911946154508`;
      const order = await readOrder(h, key);
      expect(order).to.include({ externalId: key, status: 'refused', isTest: true, paymentMethod: 'credit_card' });
      expect(order.amounts).to.include({ currency: 'USD', grossCents: 40300, discountCents: 500, shippingCents: 1000 });
      expect(order.products.map((p: { externalId: string }) => p.externalId)).to.deep.equal(['788032119674292922', '632910392']);
      const paid = body
        .replace('"financial_status": "voided"', '"financial_status": "paid"')
        .replace('"cancelled_at": "2022-04-06T08:09:03-04:00"', '"cancelled_at": null')
        .replace('"updated_at": "2022-04-06T08:09:03-04:00"', '"updated_at": "2022-04-06T09:00:00-04:00"');
      expect((await postShopify(h, source.id, 'orders/paid', paid)).body.outcome).to.equal('updated');
      const refund = fixtureText('shopify', 'refunds-create').replace(/"order_id": 450789469/g, '"order_id": 820982911946154508');
      expect((await postShopify(h, source.id, 'refunds/create', refund)).body.outcome).to.equal('updated');
      expect(await readOrder(h, key)).to.include({ status: 'refunded' });
      expect((await logOf(h, source.id)).map((line) => line.externalId)).to.deep.equal([key, key, key, null]);
    });

    it('keeps two shops’ orders apart even when Shopify’s examples give them one id, and finds an order recorded without the shop', async () => {
      const one = await createSource(h, 'shopify', SHOPIFY_SECRET);
      const two = await createSource(h, 'shopify', 'the other shop secret');
      const order = fixture('shopify', 'orders-create');
      const earlier = await h.api.request('POST', '/api/v1/orders', {
        token: h.token,
        body: {
          externalId: 'shopify:450789469',
          platform: 'shopify',
          paymentMethod: 'credit_card',
          status: 'paid',
          isTest: false,
          createdAt: '2026-11-20T17:03:00Z',
          amounts: { currency: 'USD', grossCents: 40994, netToSellerCents: 40994 },
          products: [{ name: 'IPod Nano - 8gb', quantity: 2, unitPriceCents: 19900 }],
          tracking: { utmSource: 'facebook', utmMedium: 'paid social', utmCampaign: 'launch' },
        },
      });
      expect(earlier.status, earlier.text).to.equal(201);
      const other = { shop: 'another-shop.myshopify.com', secret: 'the other shop secret' };
      expect(
        (await postShopify(h, two.id, 'orders/create', { ...order, created_at: '2026-11-21T09:00:00-03:00' }, other)).body.outcome,
      ).to.equal('created');
      expect((await postShopify(h, one.id, 'refunds/create', fixture('shopify', 'refunds-create'))).body.outcome).to.equal('updated');
      expect(await readOrder(h, 'shopify:450789469')).to.include({ status: 'refunded' });
      expect(await readOrder(h, 'shopify:another-shop.myshopify.com:450789469')).to.include({ status: 'paid', version: 1 });
      expect((await logOf(h, one.id))[0].externalId).to.equal('shopify:450789469');
    });

    it('refuses, naming what to change, a webhook made with the XML format and a delivery that does not name its shop', async () => {
      const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
      const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<order><id type="integer">450789469</id></order>';
      expect((await postShopify(h, source.id, 'orders/create', xml)).body.outcome).to.equal('refused');
      expect((await postShopify(h, source.id, 'orders/create', fixture('shopify', 'orders-create'), { shop: '' })).body.outcome).to.equal(
        'refused',
      );
      expect((await logOf(h, source.id)).map((line) => line.reason)).to.deep.equal([
        'X-Shopify-Shop-Domain is missing or not a shop’s domain (<name>.myshopify.com): Shopify sends it with every webhook, and a relay between Shopify and this service must pass it on as it is',
        'the webhook sends XML: in Shopify admin (Settings → Notifications → Webhooks) delete it and create it again with the format JSON',
      ]);
    });
  });
};
