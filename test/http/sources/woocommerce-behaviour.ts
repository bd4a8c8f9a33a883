import { expect } from 'chai';
import { readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { createSource, fixture, logOf, postWooCommerce, WOOCOMMERCE_SECRET } from './source-deliveries';
import { TRANSITIONS } from './transitions';

/** A copy of the documented order with other fields. */
const order = (changes: Record<string, unknown> = {}) => ({ ...fixture('woocommerce', 'order'), ...changes });

/** WooCommerce deliveries over a real socket (DECISIONS D21), as WC_Webhook::deliver sends them. */
export const wooCommerceBehaviour = (storageFactory: StorageFactory): void => {
  describe('WooCommerce deliveries', () => {
    const h = useApi(storageFactory, { config: { transitions: TRANSITIONS } });

    it("records order.created from the REST API's order with its lines, customer and WooCommerce's own attribution", async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const res = await postWooCommerce(h, source.id, 'order.created', order(), { deliveryId: 'a1b2c3' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ received: true, outcome: 'created' });
      const created = await readOrder(h, 'woocommerce:727');
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
        externalId: 'woocommerce:727',
      });
    });

    it('maps the statuses: on-hold waits, processing and completed are paid, refunded refunds, and a partial refund keeps it paid', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      const at = (second: number) => `2017-03-22T19:3${second}:00`;
      const post = (status: string, second: number, extra: Record<string, unknown> = {}) =>
        postWooCommerce(h, source.id, 'order.updated', order({ status, date_modified_gmt: at(second), date_paid_gmt: null, ...extra }));
      expect((await post('pending', 0)).body.outcome).to.equal('created');
      expect((await readOrder(h, 'woocommerce:727')).status).to.equal('pending');
      expect((await post('on-hold', 1)).body.outcome).to.equal('ignored');
      expect((await post('processing', 2, { date_paid_gmt: at(2) })).body.outcome).to.equal('updated');
      expect(await readOrder(h, 'woocommerce:727')).to.include({ status: 'paid', paidAt: '2017-03-22T19:32:00.000Z' });
      const partial = await post('completed', 3, { refunds: [{ id: 726, reason: '', total: '-10.00' }] });
      expect(partial.body.outcome).to.equal('ignored');
      expect((await post('refunded', 4)).body.outcome).to.equal('updated');
      expect(await readOrder(h, 'woocommerce:727')).to.include({ status: 'refunded', refundedAt: '2017-03-22T19:34:00.000Z' });
      const log = await logOf(h, source.id);
      expect(log[1].reason).to.equal(
        'nothing new: the order is already paid (partially refunded (10.00 of 29.35 USD): the order stays paid)',
      );
    });

    it('records failed and cancelled orders as refused, and reads a status a plugin added by whether the order was paid', async () => {
      const source = await createSource(h, 'woocommerce', WOOCOMMERCE_SECRET);
      await postWooCommerce(h, source.id, 'order.created', order({ id: 801, status: 'failed', date_paid_gmt: null }));
      await postWooCommerce(h, source.id, 'order.created', order({ id: 802, status: 'cancelled', date_paid_gmt: null }));
      await postWooCommerce(h, source.id, 'order.created', order({ id: 803, status: 'shipped' }));
      await postWooCommerce(h, source.id, 'order.created', order({ id: 804, status: 'awaiting-pickup', date_paid_gmt: null }));
      expect((await readOrder(h, 'woocommerce:801')).status).to.equal('refused');
      expect((await readOrder(h, 'woocommerce:802')).status).to.equal('refused');
      expect((await readOrder(h, 'woocommerce:803')).status).to.equal('paid');
      expect((await readOrder(h, 'woocommerce:804')).status).to.equal('pending');
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
      expectProblem(await h.api.request('GET', '/api/v1/orders/woocommerce:727', { token: h.token }), 404, 'NOT_FOUND');
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
