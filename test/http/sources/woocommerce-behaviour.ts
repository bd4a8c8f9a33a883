import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { createSource, fixture, logOf, postWooCommerce, WOOCOMMERCE_SECRET, WOOCOMMERCE_SHOP } from './source-deliveries';
import { TRANSITIONS } from './transitions';

/** The documented order's key, from the site of postWooCommerce. */
const KEY = `woocommerce:${WOOCOMMERCE_SHOP}:727`;

/** A copy of the documented order with other fields. */
const order = (changes: Record<string, unknown> = {}) => ({ ...fixture('woocommerce', 'order'), ...changes });

/** WooCommerce deliveries over a real socket (decision 0021), as WC_Webhook::deliver sends them. */
export const wooCommerceBehaviour = (storageFactory: StorageFactory): void => {
  describe('WooCommerce deliveries', () => {
    const h = useApi(storageFactory, { config: { transitions: TRANSITIONS } });

    it("records order.created from the REST API's order with its lines, customer and WooCommerce's own attribution", async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const res = await postWooCommerce(h, source.id, 'order.created', order(), { deliveryId: 'a1b2c3' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ received: true, outcome: 'created' });
      const created = await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:727`);
      expect(created).to.include({
        status: 'paid',
        platform: 'woocommerce',
        paymentMethod: 'bank_transfer',
        isTest: false,
        createdAt: '2017-03-22T19:28:02.000Z',
        paidAt: '2017-03-22T19:28:08.000Z',
      });
      expect(created.amounts).to.include({
        currency: 'USD',
        grossCents: 2935,
        netToSellerCents: 2935,
        shippingCents: 1000,
        taxesCents: 135,
      });
      expect(created.products).to.deep.equal([
        { externalId: '93', name: 'Woo Single #1', quantity: 2, unitPriceCents: 300 },
        { externalId: '22', sku: 'Bar3', name: 'Ship Your Idea – Color: Black, Size: M Test', quantity: 1, unitPriceCents: 1200 },
      ]);
      expect(created.customer).to.deep.equal({ email: 'john.doe@example.com', name: 'John Doe', phone: '(555) 555-5555' });
      expect(created.tracking).to.deep.equal({
        utmSource: 'facebook',
        utmMedium: 'paid social',
        utmCampaign: 'spring-sale',
        utmContent: 'carousel',
      });
      const [line] = await logOf(h, source.id);
      expect(line).to.include({
        eventId: 'a1b2c3:727:processing',
        topic: 'order.created',
        outcome: 'created',
        externalId: `woocommerce:${WOOCOMMERCE_SHOP}:727`,
      });
    });

    it('maps the statuses: pending and on-hold wait, a dated payment is paid, refunded refunds, and a partial refund keeps it paid', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const at = (second: number) => `2017-03-22T19:3${second}:00`;
      const post = (status: string, second: number, extra: Record<string, unknown> = {}) =>
        postWooCommerce(h, source.id, 'order.updated', order({ status, date_modified_gmt: at(second), date_paid_gmt: null, ...extra }));
      expect((await post('pending', 0)).body.outcome).to.equal('created');
      expect((await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:727`)).status).to.equal('pending');
      expect((await post('on-hold', 1)).body.outcome).to.equal('ignored');
      expect((await post('processing', 2, { date_paid_gmt: at(2) })).body.outcome).to.equal('updated');
      expect(await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:727`)).to.include({ status: 'paid', paidAt: '2017-03-22T19:32:00.000Z' });
      const partial = await post('completed', 3, { date_paid_gmt: at(2), refunds: [{ id: 726, reason: '', total: '-10.00' }] });
      expect(partial.body.outcome).to.equal('ignored');
      expect((await post('refunded', 4)).body.outcome).to.equal('updated');
      expect(await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:727`)).to.include({
        status: 'refunded',
        refundedAt: '2017-03-22T19:34:00.000Z',
      });
      const log = await logOf(h, source.id);
      expect(log[1].reason).to.equal(
        'nothing new: the order is already paid (partially refunded (10.00 of 29.35 USD): the order stays paid)',
      );
    });

    it('records a cash-on-delivery order as pending while processing, and paid once WooCommerce dates the payment', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      // WC_Gateway_COD puts the order in processing and makes completed its paid status: date_paid stays null until then.
      const cod = order({ payment_method: 'cod', payment_method_title: 'Cash on delivery', date_paid: null, date_paid_gmt: null });
      expect((await postWooCommerce(h, source.id, 'order.created', cod)).body.outcome).to.equal('created');
      expect(await readOrder(h, KEY)).to.include({ status: 'pending', paymentMethod: 'cash' });
      expect((await logOf(h, source.id))[0].reason).to.equal(
        'recorded as pending (status processing without date_paid_gmt: WooCommerce has recorded no payment yet)',
      );
      const delivered = { ...cod, status: 'completed', date_modified_gmt: '2017-03-25T12:00:00', date_paid: '2017-03-25T09:00:00' };
      const paid = await postWooCommerce(h, source.id, 'order.updated', { ...delivered, date_paid_gmt: '2017-03-25T12:00:00' });
      expect(paid.body.outcome).to.equal('updated');
      expect(await readOrder(h, KEY)).to.include({ status: 'paid', paidAt: '2017-03-25T12:00:00.000Z' });
      const report = await h.api.request(
        'GET',
        '/api/v1/reports/breakdown?from=2017-03-01T00:00:00Z&to=2017-04-01T00:00:00Z&by=utmSource',
        { token: h.token },
      );
      expect(report.body.rows[0]).to.deep.include({ paid: 1, paidGrossCents: 2935 });
    });

    it('keeps each shop’s orders apart: shop 2’s refund of its #727 leaves shop 1’s #727 paid', async () => {
      const one = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const two = await createSource(h, 'woocommerce', 'the second shop secret');
      const other = { site: 'https://loja-dois.example/loja/', secret: 'the second shop secret' };
      await postWooCommerce(h, one.id, 'order.created', order());
      const theirs = order({ total: '99.00', date_created_gmt: '2017-04-02T10:00:00', date_modified_gmt: '2017-04-02T10:00:00' });
      expect((await postWooCommerce(h, two.id, 'order.created', theirs, other)).body.outcome).to.equal('created');
      const refund = { ...theirs, status: 'refunded', date_modified_gmt: '2017-04-03T10:00:00' };
      expect((await postWooCommerce(h, two.id, 'order.updated', refund, other)).body.outcome).to.equal('updated');
      expect(await readOrder(h, KEY)).to.include({ status: 'paid', version: 1 });
      expect(await readOrder(h, 'woocommerce:loja-dois.example/loja:727')).to.include({ status: 'refunded' });
      expect((await logOf(h, two.id))[0].externalId).to.equal('woocommerce:loja-dois.example/loja:727');
    });

    it('keeps the key of a shop through a new secret and a source made again for it, over http or https', async () => {
      const first = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      await postWooCommerce(h, first.id, 'order.created', order({ status: 'on-hold', date_paid_gmt: null }));
      await h.api.request('PUT', `/api/v1/sources/${first.id}/secret`, { token: h.token, body: { secret: 'renewed' } });
      const paid = order({ date_modified_gmt: '2017-03-23T10:00:00' });
      expect((await postWooCommerce(h, first.id, 'order.updated', paid, { secret: 'renewed' })).body.outcome).to.equal('updated');
      expect((await h.api.request('DELETE', `/api/v1/sources/${first.id}`, { token: h.token })).status).to.equal(204);
      const again = await createSource(h, 'woocommerce', 'renewed');
      const refunded = order({ status: 'refunded', date_modified_gmt: '2017-03-24T10:00:00' });
      const res = await postWooCommerce(h, again.id, 'order.updated', refunded, { secret: 'renewed', site: 'http://SHOP.example' });
      expect(res.body.outcome).to.equal('updated');
      const listed = await h.api.request('GET', '/api/v1/orders', { token: h.token });
      expect(listed.body.orders.map((o: { externalId: string; status: string }) => [o.externalId, o.status])).to.deep.equal([
        [KEY, 'refunded'],
      ]);
    });

    it('keeps finding an order recorded under its key without the shop, and only the one created at that instant', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const earlier = await h.api.request('POST', '/api/v1/orders', {
        token: h.token,
        body: {
          externalId: 'woocommerce:727',
          platform: 'woocommerce',
          paymentMethod: 'bank_transfer',
          status: 'paid',
          isTest: false,
          createdAt: '2017-03-22T19:28:02Z',
          paidAt: '2017-03-22T19:28:08Z',
          amounts: { currency: 'USD', grossCents: 2935, netToSellerCents: 2935 },
          products: [{ name: 'Woo Single #1', quantity: 2, unitPriceCents: 300 }],
          tracking: { utmSource: 'facebook', utmMedium: 'paid social', utmCampaign: 'spring-sale' },
        },
      });
      expect(earlier.status, earlier.text).to.equal(201);
      const refunded = order({ status: 'refunded', date_modified_gmt: '2017-03-24T10:00:00' });
      const res = await postWooCommerce(h, source.id, 'order.updated', refunded);
      expect(res.body.outcome).to.equal('updated');
      expect(await readOrder(h, 'woocommerce:727')).to.include({ status: 'refunded', version: 2 });
      expect((await logOf(h, source.id))[0].externalId).to.equal('woocommerce:727');
      const another = order({ date_created_gmt: '2018-01-01T00:00:00', date_modified_gmt: '2018-01-01T00:00:00' });
      expect((await postWooCommerce(h, source.id, 'order.created', another, { site: 'https://other.example/' })).body.outcome).to.equal(
        'created',
      );
      expect(await readOrder(h, 'woocommerce:other.example:727')).to.include({ status: 'paid' });
      expect(await readOrder(h, 'woocommerce:727')).to.include({ status: 'refunded', version: 2 });
    });

    it('refuses, naming the setting to change, a webhook on the legacy API format or WP REST API v1, and one without its site', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const legacy = fixture('woocommerce', 'legacy-v3-order');
      expect((await postWooCommerce(h, source.id, 'order.created', legacy)).body.outcome).to.equal('refused');
      const { date_created_gmt: _created, date_modified_gmt: _modified, date_paid_gmt: _paid, ...v1 } = order();
      expect((await postWooCommerce(h, source.id, 'order.created', v1)).body.outcome).to.equal('refused');
      const noSite = await h.api.request('POST', `/in/v1/${source.id}`, {
        rawBody: JSON.stringify(order()),
        headers: {
          'x-wc-webhook-topic': 'order.created',
          'x-wc-webhook-signature': createHmac('sha256', WOOCOMMERCE_SECRET).update(JSON.stringify(order())).digest('base64'),
        },
      });
      expect(noSite.status, noSite.text).to.equal(200);
      expect(noSite.body.outcome).to.equal('refused');
      const setting =
        'set the webhook’s API version to WP REST API Integration v3 (WooCommerce → Settings → Advanced → Webhooks → the webhook)';
      expect((await logOf(h, source.id)).map((line) => line.reason)).to.deep.equal([
        'X-WC-Webhook-Source is missing or not the site’s address: WooCommerce sends it with every webhook, and a relay between WooCommerce and this service must pass it on as it is',
        `the webhook sends the order without date_created_gmt, as WP REST API Integration v1 does: ${setting}`,
        `the webhook sends the legacy API’s format ({ "order": … }): ${setting}`,
      ]);
      expectProblem(await h.api.request('GET', `/api/v1/orders/${KEY}`, { token: h.token }), 404, 'NOT_FOUND');
    });

    it('records failed and cancelled orders as refused, and reads a status a plugin added by whether the order was paid', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      await postWooCommerce(h, source.id, 'order.created', order({ id: 801, status: 'failed', date_paid_gmt: null }));
      await postWooCommerce(h, source.id, 'order.created', order({ id: 802, status: 'cancelled', date_paid_gmt: null }));
      await postWooCommerce(h, source.id, 'order.created', order({ id: 803, status: 'shipped' }));
      await postWooCommerce(h, source.id, 'order.created', order({ id: 804, status: 'awaiting-pickup', date_paid_gmt: null }));
      expect((await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:801`)).status).to.equal('refused');
      expect((await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:802`)).status).to.equal('refused');
      expect((await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:803`)).status).to.equal('paid');
      expect((await readOrder(h, `woocommerce:${WOOCOMMERCE_SHOP}:804`)).status).to.equal('pending');
      expect((await logOf(h, source.id))[1].reason).to.equal('recorded as paid (status shipped read as paid (it has date_paid_gmt))');
    });

    it('answers the ping of a saved webhook, unsigned, with 200 and ignores it, as it does other topics, a trashed and a deleted order', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const ping = await h.api.request('POST', `/in/v1/${source.id}`, {
        rawBody: 'webhook_id=12',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(ping.status, ping.text).to.equal(200);
      expect(ping.body.outcome).to.equal('ignored');
      expect((await postWooCommerce(h, source.id, 'product.updated', { id: 93 })).body.outcome).to.equal('ignored');
      expect((await postWooCommerce(h, source.id, 'order.deleted', { id: 727 })).body.outcome).to.equal('ignored');
      expect((await postWooCommerce(h, source.id, 'order.updated', order({ status: 'trash' }))).body.outcome).to.equal('ignored');
      expectProblem(await h.api.request('GET', `/api/v1/orders/woocommerce:${WOOCOMMERCE_SHOP}:727`, { token: h.token }), 404, 'NOT_FOUND');
      const log = await logOf(h, source.id);
      expect(log.map((line) => line.reason)).to.deep.equal([
        'the order was moved to the trash: it stays as it is here',
        'order.deleted carries only the order id: the order stays as it is here',
        "WooCommerce's product.updated does not concern orders",
        "WooCommerce's ping when the webhook was saved (webhook_id=12)",
      ]);
      expect(log[3]).to.include({ topic: '(ping)', eventId: null });
    });

    it('answers 401 to a wrong or missing signature, a signed body that merely looks like a ping included', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      expectProblem(await postWooCommerce(h, source.id, 'order.created', order(), { secret: 'another' }), 401, 'INVALID_SIGNATURE');
      const unsigned = await h.api.request('POST', `/in/v1/${source.id}`, {
        rawBody: JSON.stringify(order()),
        headers: { 'content-type': 'application/json', 'x-wc-webhook-topic': 'order.created' },
      });
      expectProblem(unsigned, 401, 'INVALID_SIGNATURE');
      const forged = await h.api.request('POST', `/in/v1/${source.id}`, {
        rawBody: 'webhook_id=12',
        headers: { 'x-wc-webhook-signature': 'bm90IGEgc2lnbmF0dXJl' },
      });
      expectProblem(forged, 401, 'INVALID_SIGNATURE');
      expect((await logOf(h, source.id)).map((line) => line.reason)).to.deep.equal([
        'bad signature: X-WC-Webhook-Signature does not match the secret',
        'bad signature: no X-WC-Webhook-Signature header',
        'bad signature: X-WC-Webhook-Signature does not match the secret',
      ]);
    });

    it('keys the HMAC with the secret as WordPress decodes it (wp_specialchars_decode), as WooCommerce does', async () => {
      const source = await createSource(h, 'woocommerce', 'k&amp;y &#039;x&quot;');
      const res = await postWooCommerce(h, source.id, 'order.created', order(), { secret: 'k&y \'x"' });
      expect(res.status, res.text).to.equal(200);
    });

    it('tells apart two orders delivered in the same second (one delivery id), and skips a repeated delivery', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      // WooCommerce's delivery id hashes the webhook id and the second: two orders can share it.
      expect((await postWooCommerce(h, source.id, 'order.created', order(), { deliveryId: 'same' })).body.outcome).to.equal('created');
      expect((await postWooCommerce(h, source.id, 'order.created', order({ id: 728 }), { deliveryId: 'same' })).body.outcome).to.equal(
        'created',
      );
      const again = await postWooCommerce(h, source.id, 'order.created', order({ id: 728 }), { deliveryId: 'same' });
      expect(again.body.outcome).to.equal('ignored');
      expect((await logOf(h, source.id))[0].reason).to.match(/^a retry of an event applied on /);
    });

    it('refuses an order whose total is finer than a cent, answering 200', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const res = await postWooCommerce(h, source.id, 'order.created', order({ total: '29.355' }));
      expect(res.status).to.equal(200);
      expect(res.body.outcome).to.equal('refused');
      expect((await logOf(h, source.id))[0].reason).to.equal('the order has no total (a decimal amount)');
    });
  });
};
