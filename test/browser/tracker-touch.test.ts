import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { decodeTouch, encodeTouch, type Touch } from '../../src/domain/touch';
import { describeWithBrowser } from '../support/browser';
import { shopPage } from '../support/loopback-site';
import { storedOf, trackerWorld, visit } from '../support/tracker-world';

const CAMPAIGN = 'utm_source=facebook&utm_medium=paid%20social&utm_campaign=ver%C3%A3o&sck=own-code';
const COMPACT = 't1-facebook-paid_20social-ver_C3_A3o--';
const PRIVACY_CONTROL = "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });";

/** The URL keys of the touch's fields, in the order of the compact form. */
const KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;
const FIELDS = ['utmSource', 'utmMedium', 'utmCampaign', 'utmContent', 'utmTerm'] as const;

/** A small seeded generator (mulberry32): the same random touches on every run. */
const random = (seed: number): (() => number) => {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** Characters of every kind the encoding treats apart: ASCII of each class, 2-, 3- and 4-byte UTF-8, lone surrogates. */
const POOL = [
  ...'aZ09 -_.~%+&=#/?:;@!"\'<>\\',
  'ç',
  'ã',
  'é',
  'ß',
  '中',
  '文',
  '€',
  '🎉',
  '👩‍💻',
  '\u0301',
  '\u0000',
  '\u007f',
  '\ud800',
  '\udfff',
  '\ufffd',
];

/** Random touches as UTF-16 code units (which survive the trip into the page exactly, lone surrogates included). */
const randomTouches = (count: number): Record<string, number[]>[] => {
  const next = random(20_261_125);
  const value = (): number[] => {
    const length = next() < 0.15 ? 100 + Math.floor(next() * 155) : 1 + Math.floor(next() * 40);
    // At most 255 code points, as the script keeps a captured value.
    const text = Array.from(Array.from({ length }, () => POOL[Math.floor(next() * POOL.length)]).join(''))
      .slice(0, 255)
      .join('');
    return Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
  };
  return Array.from({ length: count }, () => Object.fromEntries(KEYS.filter(() => next() < 0.6).map((key) => [key, value()])));
};

const textOf = (units: number[]): string => String.fromCharCode(...units);

describeWithBrowser('tracking script: the compact touch on Hotmart and Stripe links (decision 0021)', (browser) => {
  const world = trackerWorld(browser);

  /** The link's href once the visitor goes for it (mousedown and contextmenu of a right-click). */
  const hrefOf = async (page: Page, selector: string): Promise<string | null> => {
    await page.click(selector, { button: 'right' });
    return page.getAttribute(selector, 'href');
  };
  const links = [
    '<a id="pay" href="https://pay.hotmart.com/A1B2C3?off=x8y9">pay</a>',
    '<a id="go" href="https://go.hotmart.com/Q58388177J">go</a>',
    '<a id="www-go" href="http://www.go.hotmart.com/Q58388177J?src=FB">www go</a>',
    '<a id="own" href="https://pay.hotmart.com/A1B2C3?sck=mine">own</a>',
    '<a id="stripe" href="https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr#top">stripe</a>',
    '<a id="stripe-own" href="https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr?client_reference_id=cart_42">stripe own</a>',
    '<a id="elsewhere" href="https://evilhotmart.com/A1B2C3">elsewhere</a>',
    '<a id="lookalike" href="https://pay.hotmart.com.evil.test/A1B2C3">lookalike</a>',
  ].join('');

  beforeEach(() => {
    world.shop.page('/links', shopPage({ service: world.service.url, body: links }));
    world.shop.page('/listed', shopPage({ service: world.service.url, data: { 'checkout-hosts': 'pay.hotmart.com' }, body: links }));
    world.shop.page('/private', shopPage({ service: world.service.url, before: PRIVACY_CONTROL, body: links }));
    world.shop.page('/consent', shopPage({ service: world.service.url, data: { consent: 'required' }, body: links }));
  });

  it('writes the last touch into sck of Hotmart links and client_reference_id of Payment Links, never over their own', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/links?${CAMPAIGN}`);
    expect(await hrefOf(page, '#pay')).to.equal(`https://pay.hotmart.com/A1B2C3?off=x8y9&sck=${COMPACT}`);
    expect(await hrefOf(page, '#go')).to.equal(`https://go.hotmart.com/Q58388177J?sck=${COMPACT}`);
    expect(await hrefOf(page, '#www-go')).to.equal(`http://www.go.hotmart.com/Q58388177J?src=FB&sck=${COMPACT}`);
    expect(await hrefOf(page, '#own')).to.equal('https://pay.hotmart.com/A1B2C3?sck=mine');
    expect(await hrefOf(page, '#stripe')).to.equal(`https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr?client_reference_id=${COMPACT}#top`);
    expect(await hrefOf(page, '#stripe-own')).to.equal('https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr?client_reference_id=cart_42');
    expect(await hrefOf(page, '#elsewhere')).to.equal('https://evilhotmart.com/A1B2C3');
    expect(await hrefOf(page, '#lookalike')).to.equal('https://pay.hotmart.com.evil.test/A1B2C3');
    // The stored touch is read on a later page as well.
    await visit(page, `${world.shop.origin}/links`);
    expect(await hrefOf(page, '#go')).to.equal(`https://go.hotmart.com/Q58388177J?sck=${COMPACT}`);
  });

  it('on a Hotmart host the shop lists, adds the campaign parameters too, the compact touch taking the place of a captured sck', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/listed?${CAMPAIGN}`);
    expect(await hrefOf(page, '#pay')).to.equal(
      `https://pay.hotmart.com/A1B2C3?off=x8y9&sck=${COMPACT}&utm_source=facebook&utm_medium=paid%20social&utm_campaign=ver%C3%A3o`,
    );
    // A visit whose touch has no campaign fields passes its own sck on, as decision 0014 does for listed hosts.
    await visit(page, `${world.shop.origin}/listed?sck=own-code&gclid=G1`);
    expect(await hrefOf(page, '#pay')).to.equal('https://pay.hotmart.com/A1B2C3?off=x8y9&gclid=G1&sck=own-code');
    expect(await hrefOf(page, '#stripe'), 'a Payment Link is not listed: only its field').to.equal(
      'https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr#top',
    );
  });

  it('leaves the links as they are without a touch, and under GPC or before consent passes only the current page’s campaign', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/links`);
    expect(await hrefOf(page, '#pay')).to.equal('https://pay.hotmart.com/A1B2C3?off=x8y9');
    expect(await hrefOf(page, '#stripe')).to.equal('https://buy.stripe.com/test_eVa5nPg1j1wmfXq5kr#top');
    for (const path of ['/private', '/consent']) {
      await visit(page, `${world.shop.origin}${path}?${CAMPAIGN}`);
      expect(await hrefOf(page, '#pay'), path).to.equal(`https://pay.hotmart.com/A1B2C3?off=x8y9&sck=${COMPACT}`);
      expect(await storedOf(page), `${path}: nothing stored`).to.equal(null);
      await visit(page, `${world.shop.origin}${path}`);
      expect(await hrefOf(page, '#pay'), `${path}: the next page knows nothing`).to.equal('https://pay.hotmart.com/A1B2C3?off=x8y9');
    }
  });

  it('writes the same text as the sources read (src/domain/touch.ts) for 2,000 random touches, 200 characters at most', async function () {
    this.timeout(60_000);
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/links`);
    const cases = randomTouches(2_000);
    const written = await page.evaluate((touches: Record<string, number[]>[]) => {
      const tracker = (globalThis as unknown as { OrdersTracker: { decorate(url: string): string } }).OrdersTracker;
      return touches.map((units) => {
        const v = Object.fromEntries(Object.entries(units).map(([key, codes]) => [key, String.fromCharCode(...codes)]));
        localStorage.setItem('orders_tracker', JSON.stringify({ l: { v, p: '/', r: '', t: Date.now() } }));
        return [
          new URL(tracker.decorate('https://pay.hotmart.com/A1B2C3')).searchParams.get('sck'),
          new URL(tracker.decorate('https://buy.stripe.com/test_1')).searchParams.get('client_reference_id'),
        ];
      });
    }, cases);
    let shortened = 0;
    for (const [index, units] of cases.entries()) {
      const touch: Touch = Object.fromEntries(
        KEYS.flatMap((key, i) => (units[key] === undefined ? [] : [[FIELDS[i], textOf(units[key])]])),
      );
      const [sck, reference] = written[index];
      if (Object.keys(touch).length === 0) {
        expect([sck, reference], `case ${index}: no campaign fields, no touch`).to.deep.equal([null, null]);
        continue;
      }
      const expected = encodeTouch(touch);
      expect(sck, `case ${index}: ${JSON.stringify(units)}`).to.equal(expected);
      expect(reference, `case ${index}`).to.equal(expected);
      expect(expected)
        .to.match(/^t1(-[A-Za-z0-9_]*){5}$/)
        .and.have.length.at.most(200);
      // What the sources read back: the fields, well-formed, each the start of what was written.
      const read = decodeTouch(expected)!;
      for (const field of FIELDS) {
        const sent = touch[field]?.toWellFormed();
        if (read[field] !== sent) shortened += 1;
        expect(sent ?? '', `case ${index}: ${field}`).to.satisfy((text: string) => text.startsWith(read[field] ?? ''));
      }
    }
    expect(shortened, 'some touches were shortened to 200 characters').to.be.greaterThan(50);
  });
});
