import { expect } from 'chai';
import { describeWithBrowser } from '../support/browser';
import { shopPage } from '../support/loopback-site';
import { anOrderPayload } from '../support/order-builder';
import { trackerReady, trackerWorld, visit } from '../support/tracker-world';

/**
 * The attribution loop of decision 0014 end to end: a visitor lands on the shop from a campaign, browses, goes to
 * the checkout through a link the script decorated; the checkout page (which runs the script too)
 * sends `OrdersTracker.get()` with the payment to its own server, which creates the order with its API
 * token (a token never goes to a browser); the stored order carries the campaign.
 */
describeWithBrowser('tracking script: from a campaign to a stored order (decision 0014)', (browser) => {
  const world = trackerWorld(browser);

  it('brings the landing campaign through the checkout into the order', async () => {
    const { token } = await world.service.newDashboard('Attribution');
    const { service, shop, checkout } = world;
    shop.page('/landing', shopPage({ service: service.url, body: '<a id="product" href="/product">product</a>' }));
    shop.page('/product', shopPage({ service: service.url, body: `<a id="buy" href="${checkout.origin}/checkout?item=P-9">buy</a>` }));
    // The checkout page posts the tracker's answer to its own server with the payment.
    const pay = `fetch('/pay', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item: new URLSearchParams(location.search).get('item'), ...OrdersTracker.get() }) })
      .then((res) => res.json()).then((body) => { document.getElementById('result').textContent = body.externalId; });`;
    checkout.page(
      '/checkout',
      shopPage({ service: service.url, body: `<button id="pay" onclick="${pay.replace(/"/g, '&quot;')}">pay</button><p id="result"></p>` }),
    );
    // The checkout's server: it alone holds the token.
    checkout.handle('/pay', async (request) => {
      const { item, tracking, trackingExtras } = JSON.parse(request.body) as { item: string; tracking: unknown; trackingExtras: unknown };
      const created = await service.request('POST', '/api/v1/orders', {
        token,
        body: { ...anOrderPayload({ externalId: `web-${item}` }), tracking, trackingExtras },
      });
      return {
        status: created.status,
        type: 'application/json',
        body: JSON.stringify({ externalId: `web-${item}`, status: created.status }),
      };
    });

    const page = await world.newPage();
    await visit(page, `${shop.origin}/landing?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_content=hero&fbclid=FB7`);
    await page.click('#product');
    await trackerReady(page);
    await page.click('#buy');
    await trackerReady(page);
    expect(page.url()).to.equal(
      `${checkout.origin}/checkout?item=P-9&utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_content=hero&fbclid=FB7`,
    );
    const sent = await page.evaluate('OrdersTracker.get()');
    await page.click('#pay');
    await page.waitForFunction('document.getElementById("result").textContent !== ""');
    expect(await page.textContent('#result')).to.equal('web-P-9');

    const stored = await service.request('GET', '/api/v1/orders/web-P-9', { token });
    expect(stored.status).to.equal(200);
    expect(stored.body.order.tracking).to.deep.equal({ utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' });
    expect(stored.body.order.trackingExtras).to.deep.equal((sent as { trackingExtras: unknown }).trackingExtras);
    expect(stored.body.order.trackingExtras).to.include({
      utmContent: 'hero',
      fbclid: 'FB7',
      landingPath: '/checkout',
      referrerHost: '127.0.0.1',
    });
    expect(stored.body.order.trackingExtras.firstTouch).to.include({ utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' });
  });
});
