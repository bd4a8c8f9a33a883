import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { CreateOrderBody } from '../../src/adapters/http/orders/order-codecs';
import { describeWithBrowser } from '../support/browser';
import { shopPage } from '../support/loopback-site';
import { anOrderPayload } from '../support/order-builder';
import { storedOf, trackerReady, trackerWorld, trackingOf, visit } from '../support/tracker-world';

const DIRECT = { tracking: { utmSource: '(direct)', utmMedium: '(none)', utmCampaign: '(none)' }, trackingExtras: {} };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `extras` without its capture times, which the tests check apart. */
const withoutTimes = (extras: Record<string, any>): Record<string, any> => {
  const { capturedAt, firstTouch, ...rest } = extras;
  expect(capturedAt).to.match(ISO);
  if (firstTouch === undefined) return rest;
  const { capturedAt: firstCapturedAt, ...first } = firstTouch;
  expect(firstCapturedAt).to.match(ISO);
  return { ...rest, firstTouch: first };
};

describeWithBrowser('tracking script: capture and persistence (decision 0014)', (browser) => {
  const world = trackerWorld(browser);

  beforeEach(() => {
    for (const path of ['/landing', '/product', '/cart']) world.shop.page(path, shopPage({ service: world.service.url }));
    world.shop.page('/short', shopPage({ service: world.service.url, data: { 'expiry-days': '2' } }));
  });

  it('captures every parameter of decision 0014 and nothing else, keeps it on pages without parameters, ready for the order payload', async () => {
    const page = await world.newPage();
    const query =
      'utm_source=google&utm_medium=cpc&utm_campaign=black-friday&utm_term=running%20shoes&utm_content=banner&utm_id=42' +
      '&fbclid=FB1&gclid=GC1&gbraid=GB1&wbraid=WB1&ttclid=TT1&msclkid=MS1&src=SRC1&sck=SCK1&email=ana%40example.com&ref=x';
    await visit(page, `${world.shop.origin}/landing?${query}`);
    const expected = {
      tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
      trackingExtras: {
        utmTerm: 'running shoes',
        utmContent: 'banner',
        utmId: '42',
        fbclid: 'FB1',
        gclid: 'GC1',
        gbraid: 'GB1',
        wbraid: 'WB1',
        ttclid: 'TT1',
        msclkid: 'MS1',
        src: 'SRC1',
        sck: 'SCK1',
        landingPath: '/landing',
      },
    };
    const onLanding = await trackingOf(page);
    expect(onLanding.tracking).to.deep.equal(expected.tracking);
    const { firstTouch, ...lastTouch } = withoutTimes(onLanding.trackingExtras);
    expect(lastTouch).to.deep.equal(expected.trackingExtras);
    expect(firstTouch).to.deep.equal({ ...expected.tracking, ...expected.trackingExtras });

    for (const path of ['/product', '/cart?color=blue']) {
      await visit(page, `${world.shop.origin}${path}`);
      expect(await trackingOf(page), path).to.deep.equal(onLanding);
    }
    await page.reload();
    await trackerReady(page);
    expect(await trackingOf(page), 'after a reload').to.deep.equal(onLanding);

    const stored = JSON.stringify(await storedOf(page));
    expect(stored).to.include('black-friday');
    expect(stored, 'no personal data: the other parameters are not kept').not.to.match(/ana|example\.com|ref/);
    const order = { ...anOrderPayload(), ...onLanding };
    expect(isRight(CreateOrderBody.decode(order)), 'accepted by the order API as it is').to.equal(true);
  });

  it("keeps the referrer's host, trims values, leaves empty ones out and cuts long ones to what the order API takes", async () => {
    const long = 'x'.repeat(300);
    world.checkout.page(
      '/ad',
      `<a id="go" href="${world.shop.origin}/landing?utm_source=%20partner%20&utm_medium=&utm_campaign=${long}&gclid=G">go</a>`,
    );
    const page = await world.newPage();
    await page.goto(`${world.checkout.origin}/ad`);
    await page.click('#go');
    await trackerReady(page);
    const { tracking, trackingExtras } = await trackingOf(page);
    expect(tracking).to.deep.equal({ utmSource: 'partner', utmMedium: '(not set)', utmCampaign: 'x'.repeat(255) });
    expect(trackingExtras.referrerHost).to.equal('localhost');
    expect(trackingExtras.gclid).to.equal('G');
    expect(isRight(CreateOrderBody.decode({ ...anOrderPayload(), tracking, trackingExtras }))).to.equal(true);
  });

  it('keeps the first touch and replaces the last one whenever a URL carries a captured parameter', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/landing?utm_source=newsletter&utm_medium=email&utm_campaign=spring`);
    await visit(page, `${world.shop.origin}/product`);
    await visit(page, `${world.shop.origin}/landing?utm_source=google&utm_medium=cpc&utm_campaign=summer&utm_term=hat`);
    let { tracking, trackingExtras } = await trackingOf(page);
    expect(tracking).to.deep.equal({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'summer' });
    expect(trackingExtras.utmTerm).to.equal('hat');
    expect(withoutTimes(trackingExtras).firstTouch).to.deep.equal({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring',
      landingPath: '/landing',
    });

    // A click id alone is a touch too: it replaces the whole last touch, utm_* included.
    await visit(page, `${world.shop.origin}/cart?fbclid=FB2`);
    await visit(page, `${world.shop.origin}/product`);
    ({ tracking, trackingExtras } = await trackingOf(page));
    expect(tracking).to.deep.equal({ utmSource: '(not set)', utmMedium: '(not set)', utmCampaign: '(not set)' });
    expect(withoutTimes(trackingExtras)).to.deep.equal({
      fbclid: 'FB2',
      landingPath: '/cart',
      firstTouch: { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring', landingPath: '/landing' },
    });
  });

  it('forgets touches after data-expiry-days (30 by default); the oldest touch still alive then counts as the first', async () => {
    const page = await world.newPage();
    await page.clock.install({ time: new Date('2026-03-01T12:00:00Z') });
    await visit(page, `${world.shop.origin}/landing?utm_source=a&utm_medium=m&utm_campaign=first`);
    await page.clock.setSystemTime(new Date('2026-03-21T12:00:00Z'));
    await visit(page, `${world.shop.origin}/landing?utm_source=b&utm_medium=m&utm_campaign=second`);

    await page.clock.setSystemTime(new Date('2026-03-31T11:59:00Z'));
    await visit(page, `${world.shop.origin}/product`);
    let { tracking, trackingExtras } = await trackingOf(page);
    expect(tracking.utmCampaign).to.equal('second');
    expect(trackingExtras.firstTouch.utmCampaign, 'the first touch lives 30 days').to.equal('first');
    expect(trackingExtras.firstTouch.capturedAt).to.match(/^2026-03-01T12:00:0\d\.\d{3}Z$/);

    await page.clock.setSystemTime(new Date('2026-03-31T12:01:00Z'));
    await visit(page, `${world.shop.origin}/product`);
    ({ tracking, trackingExtras } = await trackingOf(page));
    expect(tracking.utmCampaign).to.equal('second');
    expect(trackingExtras.firstTouch.utmCampaign, 'past 30 days, the second touch is the oldest alive').to.equal('second');

    await page.clock.setSystemTime(new Date('2026-04-20T12:01:00Z'));
    await visit(page, `${world.shop.origin}/product`);
    expect(await trackingOf(page)).to.deep.equal(DIRECT);

    await visit(page, `${world.shop.origin}/short?utm_source=c&utm_medium=m&utm_campaign=short`);
    await page.clock.setSystemTime(new Date('2026-04-22T12:00:00Z'));
    await visit(page, `${world.shop.origin}/short`);
    expect((await trackingOf(page)).tracking.utmCampaign, 'within data-expiry-days="2"').to.equal('short');
    await page.clock.setSystemTime(new Date('2026-04-22T12:02:00Z'));
    await visit(page, `${world.shop.origin}/short`);
    expect(await trackingOf(page), 'past data-expiry-days="2"').to.deep.equal(DIRECT);
  });

  it('reads what it cannot use as nothing: damaged storage, a touch dated ahead, unknown keys; the next touch writes over it', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/product`);
    const ahead = Date.now() + 3 * 86_400_000;
    const damaged = [
      'not json',
      'null',
      JSON.stringify({
        l: { v: { utm_source: 'future' }, p: '/', r: '', t: ahead },
        f: { v: { utm_source: 'future' }, p: '/', r: '', t: ahead },
      }),
      JSON.stringify({ l: { v: { utm_sourcex: 'x', utm_source: 42 }, p: '/', r: '', t: Date.now() } }),
    ];
    for (const value of damaged) {
      await page.evaluate(`localStorage.setItem('orders_tracker', ${JSON.stringify(value)})`);
      await visit(page, `${world.shop.origin}/product`);
      expect(await trackingOf(page), value).to.deep.equal(DIRECT);
    }
    await visit(page, `${world.shop.origin}/landing?utm_source=a&utm_medium=b&utm_campaign=c`);
    expect(await storedOf(page)).to.have.nested.property('f.v.utm_source', 'a');
  });

  it('answers (direct)/(none) and stores nothing for a visit without parameters', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/landing?color=blue&utm_sourc=typo`);
    await visit(page, `${world.shop.origin}/product`);
    expect(await trackingOf(page)).to.deep.equal(DIRECT);
    expect(await storedOf(page)).to.equal(null);
    expect(isRight(CreateOrderBody.decode({ ...anOrderPayload(), ...DIRECT }))).to.equal(true);
  });
});
