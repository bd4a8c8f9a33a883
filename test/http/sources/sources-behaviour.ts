import { expect } from 'chai';
import { readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { createWebhook } from '../behaviour/webhook-support';
import { hotmartBehaviour } from './hotmart-behaviour';
import { shopifyBehaviour } from './shopify-behaviour';
import {
  createSource,
  fixture,
  logOf,
  postShopify,
  postStripe,
  SHOPIFY_SECRET,
  SHOPIFY_SHOP,
  STRIPE_SECRET,
  stripeEvent,
} from './source-deliveries';
import { TRANSITIONS } from './transitions';
import { wooCommerceBehaviour } from './woocommerce-behaviour';

/** Sources over a real socket (decision 0021): the platforms' deliveries become orders through the order use cases. */
export const sourcesBehaviour = (storageFactory: StorageFactory): void => {
  describe('sources (decision 0021)', () => {
    describe('the API', () => {
      const h = useApi(storageFactory);

      it('creates a source with its url under PUBLIC_BASE_URL, never shows its secret, renames, replaces the secret, lists and deletes it', async () => {
        const created = await h.api.request('POST', '/api/v1/sources', {
          token: h.token,
          body: { platform: 'stripe', name: 'Payments', secret: STRIPE_SECRET },
        });
        expect(created.status, created.text).to.equal(201);
        const source = created.body.source;
        expect(source.id).to.match(/^src_[0-9A-Za-z]{22}$/);
        expect(source.url).to.equal(`${h.api.url}/in/v1/${source.id}`);
        expect(created.headers.get('location')).to.equal(`/api/v1/sources/${source.id}`);
        expect(created.text).not.to.contain(STRIPE_SECRET);
        const renamed = await h.api.request('PATCH', `/api/v1/sources/${source.id}`, { token: h.token, body: { name: 'Stripe' } });
        expect(renamed.body.source.name).to.equal('Stripe');
        const replaced = await h.api.request('PUT', `/api/v1/sources/${source.id}/secret`, {
          token: h.token,
          body: { secret: 'whsec_new' },
        });
        expect(replaced.status).to.equal(200);
        expect(replaced.text).not.to.contain('whsec_new');
        const listed = await h.api.request('GET', '/api/v1/sources', { token: h.token });
        expect(listed.body.sources.map((s: { id: string }) => s.id)).to.deep.equal([source.id]);
        expect(listed.text).not.to.contain('whsec');
        expect((await h.api.request('DELETE', `/api/v1/sources/${source.id}`, { token: h.token })).status).to.equal(204);
        expectProblem(await h.api.request('GET', `/api/v1/sources/${source.id}`, { token: h.token }), 404, 'NOT_FOUND');
        expectProblem(await postStripe(h, source.id, stripeEvent('payment_intent.succeeded')), 404, 'NOT_FOUND');
      });

      it('refuses an unknown platform, a missing secret and unknown fields, every problem at once', async () => {
        const res = await h.api.request('POST', '/api/v1/sources', { token: h.token, body: { platform: 'paypal', name: '', extra: 1 } });
        const problem = expectProblem(res, 400, 'VALIDATION_FAILED');
        expect(problem.details.map((d: { path: string }) => d.path).sort()).to.deep.equal(['extra', 'name', 'platform', 'secret']);
      });

      it("does not show another dashboard's source, and answers its url 404 to nobody but its platform", async () => {
        const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
        const other = await h.api.newDashboard('Other');
        expectProblem(await h.api.request('GET', `/api/v1/sources/${source.id}`, { token: other.token }), 404, 'NOT_FOUND');
        expectProblem(await h.api.request('DELETE', `/api/v1/sources/${source.id}`, { token: other.token }), 404, 'NOT_FOUND');
        expect((await h.api.request('GET', '/api/v1/sources', { token: other.token })).body.sources).to.deep.equal([]);
      });
    });

    describe('Stripe deliveries', () => {
      const h = useApi(storageFactory, { config: { transitions: TRANSITIONS } });

      it('records a paid Checkout Session as a paid order with its amounts, customer and tracking from metadata', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        const res = await postStripe(h, source.id, stripeEvent('checkout.session.completed'));
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal({ received: true, outcome: 'created' });
        const order = await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa');
        expect(order).to.include({ status: 'paid', platform: 'stripe', paymentMethod: 'credit_card', isTest: true });
        expect(order.amounts).to.include({ currency: 'BRL', grossCents: 15990 });
        expect(order.tracking).to.deep.equal({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' });
        expect(order.customer).to.deep.equal({ email: 'ana@example.com', name: 'Ana Souza' });
        expect(order.paidAt).to.equal(new Date(1795254000 * 1000).toISOString());
        const [delivery] = await logOf(h, source.id);
        expect(delivery).to.include({ eventId: 'evt_1NG8Du2eZvKYlo2CUI79vXWy', topic: 'checkout.session.completed', outcome: 'created' });
        expect(delivery.externalId).to.equal('stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa');
      });

      it('reads the compact touch of client_reference_id when metadata has no utm_*', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        const event = stripeEvent('checkout.session.completed', {
          object: { metadata: {}, client_reference_id: 't1-facebook-paid_20social-ver_C3_A3o--' },
        });
        await postStripe(h, source.id, event);
        const order = await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa');
        expect(order.tracking).to.deep.equal({ utmSource: 'facebook', utmMedium: 'paid social', utmCampaign: 'verão' });
      });

      it('records an order without tracking with (not set), never refusing it', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        await postStripe(h, source.id, stripeEvent('payment_intent.succeeded'));
        const order = await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa');
        expect(order.tracking).to.deep.equal({ utmSource: '(not set)', utmMedium: '(not set)', utmCampaign: '(not set)' });
      });

      it('turns a zero-decimal amount (JPY, whole yen) into the cents the API counts', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        await postStripe(h, source.id, stripeEvent('payment_intent.succeeded', { object: { amount: 1500, currency: 'jpy' } }));
        expect((await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa')).amounts).to.include({ currency: 'JPY', grossCents: 150000 });
      });

      it('refunds the order on a whole refund, keeps it paid on a partial one, and marks it chargedback on a dispute', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        await postStripe(h, source.id, stripeEvent('payment_intent.succeeded'));
        const partial = stripeEvent('charge.refunded', { id: 'evt_partial', object: { refunded: false, amount_refunded: 5000 } });
        expect((await postStripe(h, source.id, partial)).body.outcome).to.equal('ignored');
        expect((await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa')).status).to.equal('paid');
        expect((await postStripe(h, source.id, stripeEvent('charge.refunded'))).body.outcome).to.equal('updated');
        const refunded = await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa');
        expect(refunded).to.include({ status: 'refunded', refundedAt: new Date(1795340400 * 1000).toISOString() });
        expect((await postStripe(h, source.id, stripeEvent('charge.dispute.created'))).body.outcome).to.equal('updated');
        expect((await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa')).status).to.equal('chargedback');
        const log = await logOf(h, source.id);
        expect(log.map((d) => d.outcome)).to.deep.equal(['updated', 'updated', 'ignored', 'created']);
        expect(log[2].reason).to.contain('partial refund');
      });

      it('applies a retried event once, and never moves an order back for an older event', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        await postStripe(h, source.id, stripeEvent('payment_intent.succeeded'));
        const again = await postStripe(h, source.id, stripeEvent('payment_intent.succeeded'));
        expect(again.body.outcome).to.equal('ignored');
        const failedEarlier = await postStripe(h, source.id, stripeEvent('payment_intent.payment_failed'));
        expect(failedEarlier.body.outcome).to.equal('ignored');
        const order = await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa');
        expect(order).to.include({ status: 'paid', version: 1 });
        const [older, retry] = await logOf(h, source.id);
        expect(retry.reason).to.match(/^a retry of an event applied on/);
        expect(older.reason).to.contain('older than the order: it is already paid, this event says refused');
      });

      it('moves a refused order to paid when a later payment succeeds', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        await postStripe(h, source.id, stripeEvent('payment_intent.payment_failed'));
        expect((await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa')).status).to.equal('refused');
        expect((await postStripe(h, source.id, stripeEvent('payment_intent.succeeded'))).body.outcome).to.equal('updated');
        expect((await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa')).status).to.equal('paid');
      });

      it('answers 401 to a wrong, missing or stale signature, storing nothing but a refused line', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        const event = stripeEvent('payment_intent.succeeded');
        expectProblem(await postStripe(h, source.id, event, { secret: 'whsec_wrong' }), 401, 'INVALID_SIGNATURE');
        expectProblem(await postStripe(h, source.id, event, { secondsAgo: 301 }), 401, 'INVALID_SIGNATURE');
        const unsigned = await h.api.request('POST', `/in/v1/${source.id}`, {
          rawBody: JSON.stringify(event),
          headers: { 'content-type': 'application/json' },
        });
        expectProblem(unsigned, 401, 'INVALID_SIGNATURE');
        expectProblem(
          await h.api.request('GET', '/api/v1/orders/stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa', { token: h.token }),
          404,
          'NOT_FOUND',
        );
        const log = await logOf(h, source.id);
        expect(log.map((d) => d.outcome)).to.deep.equal(['refused', 'refused', 'refused']);
        expect(log.map((d) => d.reason)).to.deep.equal([
          'bad signature: no Stripe-Signature header',
          "bad signature: the signature's timestamp is more than 5 minutes from the service's clock",
          'bad signature: no v1 signature matches the secret',
        ]);
        for (const line of log) expect(line).to.include({ eventId: null, topic: null, externalId: null });
      });

      it('accepts any of several v1 signatures, as Stripe sends while a secret rolls', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        const payload = JSON.stringify(stripeEvent('payment_intent.succeeded'));
        const t = Math.floor(Date.now() / 1000);
        const { createHmac } = await import('node:crypto');
        const sign = (secret: string) => createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex');
        const header = `t=${t},v1=${sign('whsec_old')},v1=${sign(STRIPE_SECRET)},v0=${sign('x')}`;
        const res = await h.api.request('POST', `/in/v1/${source.id}`, { rawBody: payload, headers: { 'stripe-signature': header } });
        expect(res.status, res.text).to.equal(200);
      });

      it('records a boleto Checkout Session as pending until Stripe says its payment succeeded, and one whose boleto failed as refused', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        const boleto = { payment_status: 'unpaid', payment_method_types: ['boleto'] };
        await postStripe(h, source.id, stripeEvent('checkout.session.completed', { id: 'evt_completed', object: boleto }));
        expect(await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa')).to.include({ status: 'pending', paymentMethod: 'boleto' });
        const succeeded = stripeEvent('checkout.session.completed', {
          id: 'evt_succeeded',
          type: 'checkout.session.async_payment_succeeded',
          created: 1795340000,
          object: { ...boleto, payment_status: 'paid' },
        });
        expect((await postStripe(h, source.id, succeeded)).body.outcome).to.equal('updated');
        expect(await readOrder(h, 'stripe:pi_3MtwBwLkdIwHu7ix28a3tqPa')).to.include({
          status: 'paid',
          paidAt: new Date(1795340000 * 1000).toISOString(),
        });
        const failed = stripeEvent('checkout.session.completed', {
          id: 'evt_failed',
          type: 'checkout.session.async_payment_failed',
          object: { ...boleto, payment_intent: 'pi_boleto_failed' },
        });
        expect((await postStripe(h, source.id, failed)).body.outcome).to.equal('created');
        expect((await readOrder(h, 'stripe:pi_boleto_failed')).status).to.equal('refused');
      });

      it('refuses a thin event, naming the payload style to choose, and a body that is not JSON', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        expect((await postStripe(h, source.id, fixture('stripe', 'thin-event'))).body.outcome).to.equal('refused');
        const [line] = await logOf(h, source.id);
        expect(line).to.include({
          eventId: 'evt_test_65R9Ijk8d5S0bG6nYnh16RQIK6Mc3lS0hMBAchqv7SD3aP',
          topic: 'v1.payment_intent.succeeded',
          reason:
            'a thin event carries no payment, only a reference to it: in Stripe’s Workbench (Webhooks), create the event destination again with the Snapshot payload style',
        });
        expect((await postStripe(h, source.id, '{"id": "evt_1", "type": ')).body.outcome).to.equal('refused');
        expect((await logOf(h, source.id))[0].reason).to.equal('the body is not JSON');
      });

      it('answers 404 for an unknown source, storing nothing', async () => {
        expectProblem(await postStripe(h, 'src_0000000000000000000000', stripeEvent('payment_intent.succeeded')), 404, 'NOT_FOUND');
      });

      it('answers 200 to events that do not concern orders, and a refused line to one that cannot become an order', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        expect(
          (await postStripe(h, source.id, stripeEvent('payment_intent.succeeded', { id: 'evt_c', type: 'customer.created' }))).body.outcome,
        ).to.equal('ignored');
        const noAmount = stripeEvent('payment_intent.succeeded', { id: 'evt_n', object: { amount: null } });
        const res = await postStripe(h, source.id, noAmount);
        expect(res.status).to.equal(200);
        expect(res.body.outcome).to.equal('refused');
        const [refused, ignored] = await logOf(h, source.id);
        expect(refused.reason).to.equal('the PaymentIntent has no amount');
        expect(ignored.reason).to.equal("Stripe's customer.created does not concern orders");
      });

      it('logs a refused transition with the way to allow it, and answers 200', async () => {
        const source = await createSource(h, 'stripe', STRIPE_SECRET);
        await postStripe(h, source.id, stripeEvent('payment_intent.succeeded'));
        await postStripe(h, source.id, stripeEvent('charge.dispute.created'));
        const refund = await postStripe(h, source.id, stripeEvent('charge.refunded', { created: 1795500000 }));
        expect(refund.status).to.equal(200);
        expect(refund.body.outcome).to.equal('refused');
        const [line] = await logOf(h, source.id);
        expect(line.reason).to.equal(
          'the transition table does not allow chargedback → refunded: add "refunded" to the list of "chargedback" in ORDER_TRANSITIONS_FILE',
        );
      });
    });

    describe('what a source order sets going', () => {
      const h = useApi(storageFactory, { config: { transitions: TRANSITIONS } });
      let receiver: WebhookReceiver | undefined;
      afterEach(async () => {
        await receiver?.stop();
        receiver = undefined;
      });

      it('sends the same webhooks as an API order and appears in a report by its campaign', async () => {
        receiver = await WebhookReceiver.start();
        const endpoint = await createWebhook(h, { url: receiver.url() });
        const source = await createSource(h, 'shopify', SHOPIFY_SECRET);
        await postShopify(h, source.id, 'orders/create', fixture('shopify', 'orders-create'));
        const events = receiver.verified(endpoint.secret, await receiver.waitFor(2)).sort((a, b) => a.type.localeCompare(b.type));
        expect(events.map((event) => event.type)).to.deep.equal(['order.created', 'order.paid']);
        expect(events[0].data.order).to.deep.equal(await readOrder(h, `shopify:${SHOPIFY_SHOP}:450789469`));
        const report = await h.api.request(
          'GET',
          '/api/v1/reports/breakdown?from=2026-11-01T00:00:00Z&to=2026-11-30T00:00:00Z&by=utmSource',
          {
            token: h.token,
          },
        );
        expect(report.status, report.text).to.equal(200);
        expect(report.body.rows).to.have.length(1);
        expect(report.body.rows[0]).to.deep.include({ key: { utmSource: 'facebook' }, currency: 'USD', paid: 1, paidGrossCents: 40994 });
      });
    });

    shopifyBehaviour(storageFactory);
    wooCommerceBehaviour(storageFactory);
    hotmartBehaviour(storageFactory);
  });
};
