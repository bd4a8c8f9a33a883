import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { describeWithBrowser } from '../support/browser';
import { shopPage } from '../support/loopback-site';
import { storedOf, trackerReady, trackerWorld, trackingOf, visit } from '../support/tracker-world';

const CAMPAIGN = 'utm_source=google&utm_medium=cpc&utm_campaign=bf';
const DIRECT = { tracking: { utmSource: '(direct)', utmMedium: '(none)', utmCampaign: '(none)' }, trackingExtras: {} };
/** Global Privacy Control on, as a browser or an extension that sends it sets it. */
const PRIVACY_CONTROL = "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });";

describeWithBrowser('tracking script: consent, Global Privacy Control and no requests of its own (decision 0014)', (browser) => {
  const world = trackerWorld(browser);
  const checkoutLink = (): string => `<a id="checkout" href="${world.checkout.origin}/checkout">buy</a>`;

  /** The link's href once the visitor goes for it (mousedown and contextmenu of a right-click). */
  const checkoutHref = async (page: Page): Promise<string | null> => {
    await page.click('#checkout', { button: 'right' });
    return page.getAttribute('#checkout', 'href');
  };

  beforeEach(() => {
    world.checkout.page('/checkout', '<p>checkout</p>');
    const required = { consent: 'required' };
    world.shop.page('/consent/page', shopPage({ service: world.service.url, data: required, body: checkoutLink() }));
    world.shop.page(
      '/consent/granted',
      shopPage({ service: world.service.url, data: required, before: "window.OrdersTracker = [['consent', true]];" }),
    );
    world.shop.page('/page', shopPage({ service: world.service.url, body: checkoutLink() }));
  });

  it('with data-consent="required", stores nothing until consent(true), which stores the current page; consent(false) clears', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/consent/page?${CAMPAIGN}`);
    expect(await storedOf(page), 'nothing stored before consent').to.equal(null);
    expect((await trackingOf(page)).tracking, "the page's own parameters still count").to.deep.equal({
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'bf',
    });
    expect(await checkoutHref(page), 'and still reach checkout links').to.equal(`${world.checkout.origin}/checkout?${CAMPAIGN}`);
    await visit(page, `${world.shop.origin}/consent/page`);
    expect(await trackingOf(page), 'the next page knows nothing').to.deep.equal(DIRECT);
    expect(await checkoutHref(page)).to.equal(`${world.checkout.origin}/checkout`);

    await visit(page, `${world.shop.origin}/consent/page?${CAMPAIGN}`);
    await page.evaluate('OrdersTracker.consent(true)');
    expect(await storedOf(page), 'consent(true) stores the current page').to.have.nested.property('l.v.utm_campaign', 'bf');
    await visit(page, `${world.shop.origin}/consent/granted`);
    expect((await trackingOf(page)).tracking, 'a page that grants consent (queued before the script) reads it back').to.deep.equal({
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'bf',
    });
    await visit(page, `${world.shop.origin}/consent/page`);
    expect(await trackingOf(page), 'a page that has not granted it does not read it').to.deep.equal(DIRECT);
    expect(await storedOf(page), 'nor touch it').not.to.equal(null);

    await visit(page, `${world.shop.origin}/consent/granted`);
    await page.evaluate('OrdersTracker.consent(false)');
    expect(await storedOf(page), 'consent(false) clears').to.equal(null);
    expect(await trackingOf(page)).to.deep.equal(DIRECT);
    await visit(page, `${world.shop.origin}/consent/page?utm_source=x&utm_medium=y&utm_campaign=z`);
    await page.evaluate('OrdersTracker.consent(false)');
    expect((await trackingOf(page)).tracking.utmSource, 'the current URL still counts after consent(false)').to.equal('x');
    expect(await storedOf(page)).to.equal(null);
  });

  it('with Global Privacy Control on, stores nothing (and drops what an earlier visit stored), whatever consent says', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/page?${CAMPAIGN}`);
    expect(await storedOf(page), 'stored without the signal').not.to.equal(null);

    await world.context.addInitScript(PRIVACY_CONTROL);
    await visit(page, `${world.shop.origin}/page`);
    expect(await page.evaluate('navigator.globalPrivacyControl')).to.equal(true);
    expect(await storedOf(page), 'what was stored is gone').to.equal(null);
    expect(await trackingOf(page)).to.deep.equal(DIRECT);

    await visit(page, `${world.shop.origin}/page?utm_source=news&utm_medium=email&utm_campaign=gpc`);
    await page.evaluate('OrdersTracker.consent(true)');
    expect(await storedOf(page), 'consent(true) does not override the signal').to.equal(null);
    expect((await trackingOf(page)).tracking.utmCampaign, "the page's own parameters still count").to.equal('gpc');
    expect(await checkoutHref(page)).to.equal(`${world.checkout.origin}/checkout?utm_source=news&utm_medium=email&utm_campaign=gpc`);
    await visit(page, `${world.shop.origin}/page`);
    expect(await trackingOf(page)).to.deep.equal(DIRECT);
  });

  it('makes no request of its own and sets no cookie: the only requests are the pages and the script itself', async () => {
    world.shop.page(
      '/tour',
      shopPage({
        service: world.service.url,
        body: `${checkoutLink()}<form method="post" action="${world.checkout.origin}/checkout"><input name="item" value="1"><button>pay</button></form>`,
      }),
    );
    world.checkout.page('/checkout', shopPage({ service: world.service.url }));
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/tour?${CAMPAIGN}&gclid=G`);
    await page.evaluate(
      'OrdersTracker.get(); OrdersTracker.decorate("https://x.test/"); OrdersTracker.consent(true); OrdersTracker.consent(false)',
    );
    await visit(page, `${world.shop.origin}/tour`);
    await page.click('#checkout', { button: 'right' });
    await page.click('#checkout');
    await trackerReady(page);
    await visit(page, `${world.shop.origin}/tour?${CAMPAIGN}`);
    await page.click('form button');
    await page.waitForURL(`${world.checkout.origin}/checkout`);
    await trackerReady(page);
    await page.goto('about:blank');

    const script = `${world.service.url}/tracker.js`;
    const others = world.requests.filter(
      (request) => request.resourceType !== 'document' && !(request.method === 'GET' && request.url === script),
    );
    expect(others, 'requests other than pages and the script').to.deep.equal([]);
    expect(world.requests.filter((request) => request.url === script).length).to.be.at.least(2);
    const documents = world.requests
      .filter((request) => request.resourceType === 'document')
      .map((request) => new URL(request.url).pathname);
    expect(documents).to.deep.equal(['/tour', '/tour', '/checkout', '/tour', '/checkout']);
    expect(await world.context.cookies(), 'no cookies').to.deep.equal([]);
  });
});
