import { expect } from 'chai';
import { encodeTouch } from '../../../src/domain/touch';
import { readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { createSource, fixture, hotmartEvent, HOTTOK, logOf, postHotmart } from './source-deliveries';
import { TRANSITIONS } from './transitions';

const ORDER = 'hotmart:HP16015479281022';

/** Hotmart deliveries (webhook 2.0.0) over a real socket (decision 0021), as Hotmart sends them. */
export const hotmartBehaviour = (storageFactory: StorageFactory): void => {
  describe('Hotmart deliveries', () => {
    const h = useApi(storageFactory, { config: { transitions: TRANSITIONS } });

    it('records PURCHASE_APPROVED with its price, commissions, buyer and the compact touch of sck', async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      const sck = encodeTouch({ utmSource: 'facebook', utmMedium: 'paid social', utmCampaign: 'lançamento', utmContent: 'video 2' });
      const event = hotmartEvent('PURCHASE_APPROVED', {
        id: 'evt-approved',
        purchase: { origin: { sck, src: 'partner', xcod: 'user-9' } },
      });
      const res = await postHotmart(h, source.id, event);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({ received: true, outcome: 'created' });
      const order = await readOrder(h, ORDER);
      expect(order).to.include({
        status: 'paid',
        platform: 'hotmart',
        paymentMethod: 'credit_card',
        isTest: false,
        createdAt: new Date(1511783344000).toISOString(),
        paidAt: new Date(1511783346000).toISOString(),
      });
      expect(order.amounts).to.include({ currency: 'BRL', grossCents: 150000, netToSellerCents: 135050, totalFeesCents: 14950 });
      expect(order.products).to.deep.equal([{ externalId: '4774438', name: 'How to Make Clear Ice', quantity: 1, unitPriceCents: 150000 }]);
      expect(order.customer).to.deep.equal({
        email: 'testeComprador271101postman15@example.com',
        name: 'Teste Comprador',
        phone: '99999999900',
      });
      expect(order.tracking).to.deep.equal({
        utmSource: 'facebook',
        utmMedium: 'paid social',
        utmCampaign: 'lançamento',
        utmContent: 'video 2',
      });
      expect(order.trackingExtras).to.deep.equal({ src: 'partner', sck });
      const [line] = await logOf(h, source.id);
      expect(line).to.include({ eventId: 'evt-approved', topic: 'PURCHASE_APPROVED', outcome: 'created', externalId: ORDER });
    });

    it('reads a price sent as a JSON number without floating point, and refuses one finer than a cent', async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      const price = (value: number) => ({ price: { value, currency_value: 'BRL' } });
      await postHotmart(h, source.id, hotmartEvent('PURCHASE_APPROVED', { purchase: { ...price(149.9), transaction: 'HP1' } }));
      await postHotmart(h, source.id, hotmartEvent('PURCHASE_APPROVED', { purchase: { ...price(0.29), transaction: 'HP2' } }));
      expect((await readOrder(h, 'hotmart:HP1')).amounts).to.include({ grossCents: 14990, netToSellerCents: 14990 });
      expect((await readOrder(h, 'hotmart:HP2')).amounts.grossCents).to.equal(29);
      const res = await postHotmart(
        h,
        source.id,
        hotmartEvent('PURCHASE_APPROVED', { purchase: { ...price(0.1 + 0.2), transaction: 'HP3' } }),
      );
      expect(res.status).to.equal(200);
      expect(res.body.outcome).to.equal('refused');
      expect((await logOf(h, source.id))[0].reason).to.equal(
        "the purchase's price.value 0.30000000000000004 is not an amount with at most 2 fraction digits",
      );
    });

    it("takes src as the source when sck holds no compact touch, keeping a producer's own sck beside it", async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      await postHotmart(h, source.id, hotmartEvent('PURCHASE_APPROVED', { purchase: { origin: { src: 'instagram', sck: 'FB' } } }));
      const order = await readOrder(h, ORDER);
      expect(order.tracking).to.deep.equal({ utmSource: 'instagram', utmMedium: '(not set)', utmCampaign: '(not set)' });
      expect(order.trackingExtras).to.deep.equal({ src: 'instagram', sck: 'FB' });
    });

    it('follows a purchase from its billet to paid, refunded and charged back, ignoring what is older or repeated', async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      const send = async (event: string, second: number, id = `${event}-${second}`) =>
        (await postHotmart(h, source.id, hotmartEvent(event, { id, creation_date: 1795000000000 + second * 1000 }))).body.outcome;
      expect(await send('PURCHASE_BILLET_PRINTED', 0)).to.equal('created');
      expect((await readOrder(h, ORDER)).status).to.equal('pending');
      expect(await send('PURCHASE_APPROVED', 10)).to.equal('updated');
      expect(await send('PURCHASE_APPROVED', 10)).to.equal('ignored');
      expect(await send('PURCHASE_EXPIRED', 5)).to.equal('ignored');
      expect(await send('PURCHASE_COMPLETE', 20)).to.equal('ignored');
      expect(await send('PURCHASE_PROTEST', 30)).to.equal('ignored');
      expect(await send('PURCHASE_REFUNDED', 40)).to.equal('updated');
      expect(await readOrder(h, ORDER)).to.include({ status: 'refunded', refundedAt: new Date(1795000040000).toISOString() });
      expect(await send('PURCHASE_CHARGEBACK', 50)).to.equal('updated');
      expect(await readOrder(h, ORDER)).to.include({ status: 'chargedback', chargedbackAt: new Date(1795000050000).toISOString() });
      const reasons = (await logOf(h, source.id)).map((line) => line.reason).reverse();
      expect(reasons[2]).to.match(/^a retry of an event applied on \S+ \(updated\)$/);
      expect(reasons.slice(3, 6)).to.deep.equal([
        'older than the order: it is already paid, this event says refused (expired unpaid)',
        'nothing new: the order is already paid (complete: its warranty period is over)',
        'nothing new: the order is already paid (the buyer asked for a refund: the order stays paid until Hotmart refunds it or charges it back)',
      ]);
    });

    it("ignores Hotmart's test events (its documented example, of product id 0), cart abandonment and other families", async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      expect((await postHotmart(h, source.id, fixture('hotmart', 'purchase-approved'))).body.outcome).to.equal('ignored');
      expect((await postHotmart(h, source.id, hotmartEvent('PURCHASE_OUT_OF_SHOPPING_CART'))).body.outcome).to.equal('ignored');
      expect((await postHotmart(h, source.id, hotmartEvent('SUBSCRIPTION_CANCELLATION'))).body.outcome).to.equal('ignored');
      expectProblem(await h.api.request('GET', `/api/v1/orders/${ORDER}`, { token: h.token }), 404, 'NOT_FOUND');
      expect((await logOf(h, source.id)).map((line) => line.reason)).to.deep.equal([
        "Hotmart's SUBSCRIPTION_CANCELLATION does not concern orders",
        'a cart abandoned at the checkout is not an order',
        "Hotmart's test event (product id 0)",
      ]);
    });

    it('refuses a delivery of webhook version 1.0.0 with the way to choose 2.0.0', async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      const res = await postHotmart(h, source.id, { ...hotmartEvent('PURCHASE_APPROVED'), version: '1.0.0' });
      expect(res.body.outcome).to.equal('refused');
      expect((await logOf(h, source.id))[0].reason).to.equal("webhook version 1.0.0: choose version 2.0.0 in Hotmart's webhook settings");
    });

    it('answers 401 to a wrong or missing hottok, storing nothing but a refused line', async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      expectProblem(await postHotmart(h, source.id, hotmartEvent('PURCHASE_APPROVED'), { hottok: `${HOTTOK}x` }), 401, 'INVALID_SIGNATURE');
      const without = await h.api.request('POST', `/in/v1/${source.id}`, {
        rawBody: JSON.stringify(hotmartEvent('PURCHASE_APPROVED')),
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(without, 401, 'INVALID_SIGNATURE');
      const wrongInBody = await postHotmart(h, source.id, hotmartEvent('PURCHASE_APPROVED'), { hottok: 'x', header: false });
      expectProblem(wrongInBody, 401, 'INVALID_SIGNATURE');
      const notJson = await h.api.request('POST', `/in/v1/${source.id}`, { rawBody: `hottok=${HOTTOK}`, headers: {} });
      expectProblem(notJson, 401, 'INVALID_SIGNATURE');
      expectProblem(await h.api.request('GET', `/api/v1/orders/${ORDER}`, { token: h.token }), 404, 'NOT_FOUND');
      expect((await logOf(h, source.id)).map((line) => line.reason)).to.deep.equal([
        'bad signature: no hottok: neither an X-HOTMART-HOTTOK header nor a "hottok" in the body',
        'bad signature: the body’s hottok is not the hottok of this source',
        'bad signature: no hottok: neither an X-HOTMART-HOTTOK header nor a "hottok" in the body',
        'bad signature: X-HOTMART-HOTTOK is not the hottok of this source',
      ]);
    });

    it('takes the hottok of the body when the header is absent, and the header’s over the body’s when both are there', async () => {
      const source = await createSource(h, 'hotmart', HOTTOK);
      const bodyOnly = await postHotmart(h, source.id, hotmartEvent('PURCHASE_APPROVED', { id: 'evt-body' }), { header: false });
      expect(bodyOnly.status, bodyOnly.text).to.equal(200);
      expect(bodyOnly.body.outcome).to.equal('created');
      const wrongHeader = await h.api.request('POST', `/in/v1/${source.id}`, {
        rawBody: JSON.stringify({ ...hotmartEvent('PURCHASE_COMPLETE'), hottok: HOTTOK }),
        headers: { 'content-type': 'application/json', 'x-hotmart-hottok': 'not the hottok' },
      });
      expectProblem(wrongHeader, 401, 'INVALID_SIGNATURE');
      const rightHeader = await h.api.request('POST', `/in/v1/${source.id}`, {
        rawBody: JSON.stringify({ ...hotmartEvent('PURCHASE_COMPLETE'), hottok: 'not the hottok' }),
        headers: { 'content-type': 'application/json', 'x-hotmart-hottok': HOTTOK },
      });
      expect(rightHeader.status, rightHeader.text).to.equal(200);
      expect((await readOrder(h, ORDER)).status).to.equal('paid');
    });
  });
};
