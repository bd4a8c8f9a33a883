import { expect } from 'chai';
import { describeWithBrowser } from '../support/browser';
import { shopPage } from '../support/loopback-site';
import { trackerReady, trackerWorld, visit } from '../support/tracker-world';
import { createSource, hotmartEvent, HOTTOK, postHotmart, postStripe, STRIPE_SECRET, stripeEvent } from '../http/sources/source-deliveries';

/** A date-time as the report's query takes it, to the second. */
const instant = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The loop (decision 0014, decision 0021): a visitor lands from a campaign, the script decorates the Hotmart and
 * Stripe Payment Links of the shop, the browser follows them (the checkouts are answered inside the
 * browser, nothing leaves the machine), each platform's delivery carries what the link carried,
 * signed as the platform signs, and the report shows both orders under the visitor's campaign.
 */
describeWithBrowser('tracking script: decorated links carried through a source into a report (decision 0021)', (browser) => {
  const world = trackerWorld(browser);

  it("brings the landing campaign through Hotmart's sck and Stripe's client_reference_id into the breakdown", async function () {
    this.timeout(60_000);
    const { token } = await world.service.newDashboard('Sources in Chromium');
    const client = { api: world.service, token };
    const hotmart = await createSource(client, 'hotmart', HOTTOK);
    const stripe = await createSource(client, 'stripe', STRIPE_SECRET);
    const opened: string[] = [];
    await world.context.route(/^https:\/\/(pay\.hotmart\.com|buy\.stripe\.com)\//, (route) => {
      opened.push(route.request().url());
      return route.fulfill({ contentType: 'text/html', body: '<p>checkout</p>' });
    });
    const { service, shop } = world;
    shop.page('/landing', shopPage({ service: service.url, body: '<a id="product" href="/product">product</a>' }));
    shop.page(
      '/product',
      shopPage({
        service: service.url,
        body:
          '<a id="hotmart" href="https://pay.hotmart.com/A1B2C3?off=x8y9">Buy on Hotmart</a> ' +
          '<a id="stripe" href="https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr">Pay with Stripe</a>',
      }),
    );

    const page = await world.newPage();
    await visit(page, `${shop.origin}/landing?utm_source=instagram&utm_medium=paid%20social&utm_campaign=black%20friday%20%C3%A7%C3%A3o`);
    await page.click('#product');
    await trackerReady(page);
    await Promise.all([page.waitForURL(/^https:\/\/pay\.hotmart\.com\//), page.click('#hotmart')]);
    const sck = new URL(page.url()).searchParams.get('sck');
    await page.goBack();
    await trackerReady(page);
    await Promise.all([page.waitForURL(/^https:\/\/buy\.stripe\.com\//), page.click('#stripe')]);
    const reference = new URL(page.url()).searchParams.get('client_reference_id');
    expect(opened).to.deep.equal([
      `https://pay.hotmart.com/A1B2C3?off=x8y9&sck=${sck}`,
      `https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr?client_reference_id=${reference}`,
    ]);
    expect(sck).to.equal('t1-instagram-paid_20social-black_20friday_20_C3_A7_C3_A3o--');
    expect(reference).to.equal(sck);

    // Hotmart approves the purchase made through that link; Stripe completes the Payment Link's Session.
    const now = Date.now();
    const approved = hotmartEvent('PURCHASE_APPROVED', {
      creation_date: now,
      purchase: { transaction: 'HP-CHROMIUM-1', order_date: now - 60_000, approved_date: now, origin: { sck } },
    });
    const fromHotmart = await postHotmart(client, hotmart.id, approved);
    expect(fromHotmart.body, fromHotmart.text).to.deep.equal({ received: true, outcome: 'created' });
    const seconds = Math.floor(now / 1000);
    // A live event: test-mode orders stay out of reports by default.
    const session = {
      ...stripeEvent('checkout.session.completed', {
        created: seconds,
        object: { client_reference_id: reference, metadata: {}, created: seconds },
      }),
      livemode: true,
    };
    const fromStripe = await postStripe(client, stripe.id, session);
    expect(fromStripe.body, fromStripe.text).to.deep.equal({ received: true, outcome: 'created' });

    const report = await service.request(
      'GET',
      `/api/v1/reports/breakdown?from=${instant(now - 86_400_000)}&to=${instant(now + 86_400_000)}&by=utmSource,utmMedium,utmCampaign`,
      { token },
    );
    expect(report.status, report.text).to.equal(200);
    expect(report.body.rows).to.have.length(1);
    expect(report.body.rows[0]).to.deep.include({
      key: { utmSource: 'instagram', utmMedium: 'paid social', utmCampaign: 'black friday ção' },
      currency: 'BRL',
      orders: 2,
      paid: 2,
      paidGrossCents: 150000 + 15990,
    });
  });
});
