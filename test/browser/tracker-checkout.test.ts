import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { describeWithBrowser } from '../support/browser';
import { shopPage } from '../support/loopback-site';
import { trackerWorld, visit } from '../support/tracker-world';

const CAMPAIGN = 'utm_source=google&utm_medium=cpc&utm_campaign=bf&gclid=GC&fbclid=FB';
/** The same parameters as the script appends them: in the order of decision 0014's list. */
const APPENDED = 'utm_source=google&utm_medium=cpc&utm_campaign=bf&fbclid=FB&gclid=GC';

/** The form fields a checkout received, each with all its values. */
const fieldsOf = (body: string): Record<string, string[]> => {
  const params = new URLSearchParams(body);
  return Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.getAll(key)]));
};

describeWithBrowser('tracking script: links and forms to the checkout (decision 0014)', (browser) => {
  const world = trackerWorld(browser);
  const checkoutLink = (id: string, path: string): string => `<a id="${id}" href="${world.checkout.origin}${path}">${id}</a>`;

  beforeEach(() => {
    world.checkout.page('/checkout', '<p>checkout</p>');
    world.checkout.handle('/pay', () => ({ body: '<p>paid</p>' }));
    world.shop.handle('/contact', () => ({ body: '<p>sent</p>' }));
    world.shop.page('/product', shopPage({ service: world.service.url }));
  });

  /** Right-click: the browser's mousedown and contextmenu, after which "open in a new tab" reads the href. */
  const hrefAfterPointer = async (page: Page, selector: string): Promise<string | null> => {
    await page.click(selector, { button: 'right' });
    return page.getAttribute(selector, 'href');
  };

  it('appends the last touch to links to a checkout host or its subdomains, and to no other link', async () => {
    world.shop.page(
      '/links',
      shopPage({
        service: world.service.url,
        data: { 'checkout-hosts': 'localhost, pay.example.com' },
        body: [
          checkoutLink('checkout', '/checkout?item=1#top'),
          '<a id="same-site" href="/product">product</a>',
          '<a id="exact" href="https://pay.example.com/x">x</a>',
          '<a id="subdomain" href="https://www.pay.example.com/x">x</a>',
          '<a id="case-and-dot" href="https://PAY.Example.COM./x">x</a>',
          '<a id="prefix" href="https://evilpay.example.com/x">x</a>',
          '<a id="suffix" href="https://pay.example.com.evil.test/x">x</a>',
          '<a id="parent" href="https://example.com/x">x</a>',
          '<a id="in-path" href="https://evil.test/pay.example.com?to=pay.example.com">x</a>',
          '<a id="mail" href="mailto:sales@pay.example.com">x</a>',
        ].join(''),
      }),
    );
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/links?${CAMPAIGN}`);
    expect(await hrefAfterPointer(page, '#checkout')).to.equal(`${world.checkout.origin}/checkout?item=1&${APPENDED}#top`);
    expect(await hrefAfterPointer(page, '#exact')).to.equal(`https://pay.example.com/x?${APPENDED}`);
    expect(await hrefAfterPointer(page, '#subdomain')).to.equal(`https://www.pay.example.com/x?${APPENDED}`);
    expect(await hrefAfterPointer(page, '#case-and-dot')).to.equal(`https://pay.example.com./x?${APPENDED}`);
    for (const [id, href] of [
      ['same-site', '/product'],
      ['prefix', 'https://evilpay.example.com/x'],
      ['suffix', 'https://pay.example.com.evil.test/x'],
      ['parent', 'https://example.com/x'],
      ['in-path', 'https://evil.test/pay.example.com?to=pay.example.com'],
      ['mail', 'mailto:sales@pay.example.com'],
    ]) {
      expect(await hrefAfterPointer(page, `#${id}`), id).to.equal(href);
    }
  });

  it('decorates at click time, with the mouse or the keyboard, links added after load included', async () => {
    world.shop.page('/links', shopPage({ service: world.service.url, body: checkoutLink('checkout', '/checkout?item=1') }));
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/links?${CAMPAIGN}`);
    // Nothing is rewritten before the visitor goes for the link.
    expect(await page.getAttribute('#checkout', 'href')).to.equal(`${world.checkout.origin}/checkout?item=1`);
    await page.click('#checkout');
    expect(page.url()).to.equal(`${world.checkout.origin}/checkout?item=1&${APPENDED}`);

    await visit(page, `${world.shop.origin}/links`);
    await page.focus('#checkout');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${world.checkout.origin}/checkout?**`);
    expect(page.url(), 'Enter on a focused link').to.equal(`${world.checkout.origin}/checkout?item=1&${APPENDED}`);

    await visit(page, `${world.shop.origin}/links`);
    await page.evaluate('document.getElementById("checkout").click()');
    await page.waitForURL(`${world.checkout.origin}/checkout?**`);
    expect(page.url(), "a click from the shop's own script: no mouse, no focus").to.equal(
      `${world.checkout.origin}/checkout?item=1&${APPENDED}`,
    );

    await visit(page, `${world.shop.origin}/product`);
    await page.evaluate(
      `document.body.insertAdjacentHTML('beforeend', '<p><a id="later" href="${world.checkout.origin}/checkout?late=1"><span>buy</span></a></p>')`,
    );
    await page.click('#later span');
    expect(page.url(), 'a link added after load, clicked on its child').to.equal(`${world.checkout.origin}/checkout?late=1&${APPENDED}`);
  });

  it('never replaces a parameter the link has, keeps its own campaign whole, and leaves its encoding as it was', async () => {
    world.shop.page(
      '/links',
      shopPage({
        service: world.service.url,
        body: [
          checkoutLink('campaign', '/checkout?utm_source=partner&q=a%20b+c&empty='),
          checkoutLink('click-id', '/checkout?gclid=own&x=1'),
          checkoutLink('query-mark', '/checkout?'),
        ].join(''),
      }),
    );
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/links?${CAMPAIGN}`);
    expect(await hrefAfterPointer(page, '#campaign')).to.equal(
      `${world.checkout.origin}/checkout?utm_source=partner&q=a%20b+c&empty=&fbclid=FB&gclid=GC`,
    );
    expect(await hrefAfterPointer(page, '#click-id')).to.equal(
      `${world.checkout.origin}/checkout?gclid=own&x=1&utm_source=google&utm_medium=cpc&utm_campaign=bf&fbclid=FB`,
    );
    expect(await hrefAfterPointer(page, '#query-mark')).to.equal(`${world.checkout.origin}/checkout?${APPENDED}`);
    // A second pass adds nothing: each parameter is there once.
    expect(await hrefAfterPointer(page, '#campaign')).to.equal(
      `${world.checkout.origin}/checkout?utm_source=partner&q=a%20b+c&empty=&fbclid=FB&gclid=GC`,
    );
    await page.click('#query-mark');
    expect(page.url()).to.equal(`${world.checkout.origin}/checkout?${APPENDED}`);
  });

  it('OrdersTracker.decorate(url) adds the parameters to any URL, under the same rules; unchanged without a touch', async () => {
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/product?${CAMPAIGN}&utm_term=red%20shoes`);
    const decorate = (url: string): Promise<string> => page.evaluate(`OrdersTracker.decorate(${JSON.stringify(url)})`);
    expect(await decorate('https://other.test/a?b=1#f')).to.equal(
      'https://other.test/a?b=1&utm_source=google&utm_medium=cpc&utm_campaign=bf&utm_term=red%20shoes&fbclid=FB&gclid=GC#f',
    );
    expect(await decorate('/cart')).to.equal(
      `${world.shop.origin}/cart?utm_source=google&utm_medium=cpc&utm_campaign=bf&utm_term=red%20shoes&fbclid=FB&gclid=GC`,
    );
    expect(await decorate('https://other.test/?utm_campaign=own&fbclid=mine')).to.equal(
      'https://other.test/?utm_campaign=own&fbclid=mine&gclid=GC',
    );
    expect(await decorate('mailto:sales@other.test')).to.equal('mailto:sales@other.test');

    // The checkout's origin has storage of its own, with no touch in it.
    world.checkout.page('/plain', shopPage({ service: world.service.url }));
    const direct = await world.newPage();
    await visit(direct, `${world.checkout.origin}/plain`);
    expect(await direct.evaluate('OrdersTracker.decorate("https://other.test/a?b=1")')).to.equal('https://other.test/a?b=1');
  });

  it('gives forms sent to a checkout host hidden inputs, never beside a field or an action parameter of the same name', async () => {
    const action = (path: string): string => `${world.checkout.origin}${path}`;
    world.shop.page(
      '/forms',
      shopPage({
        service: world.service.url,
        body: [
          `<form id="post" method="post" action="${action('/pay')}"><input name="item" value="1"><input name="action" value="buy"><button>pay</button></form>`,
          `<form id="own" method="post" action="${action('/pay?gclid=in-action')}">`,
          '<input name="utm_campaign" value="mine"><input type="hidden" name="fbclid" value="own"><button>pay</button></form>',
          `<form id="get" action="${action('/pay')}"><input name="q" value="shoes"><button>search</button></form>`,
          '<form id="elsewhere" method="post" action="/contact"><input name="message" value="hi"><button>send</button></form>',
          `<form id="submitter" method="post" action="/contact"><input name="item" value="2"><button formaction="${action('/pay')}">pay</button></form>`,
        ].join(''),
      }),
    );
    const page = await world.newPage();
    const submit = async (form: string): Promise<{ url: string; fields: Record<string, string[]> }> => {
      await visit(page, `${world.shop.origin}/forms`);
      await page.click(`#${form} button`);
      await page.waitForURL((url) => url.pathname !== '/forms');
      const landed = new URL(page.url());
      const request = (landed.origin === world.checkout.origin ? world.checkout : world.shop).requestsTo(landed.pathname).at(-1)!;
      return { url: request.url, fields: fieldsOf(request.method === 'GET' ? new URL(request.url, 'http://x').search : request.body) };
    };
    await visit(page, `${world.shop.origin}/product?${CAMPAIGN}`);

    const tracked = { utm_source: ['google'], utm_medium: ['cpc'], utm_campaign: ['bf'], fbclid: ['FB'], gclid: ['GC'] };
    expect(await submit('post')).to.deep.equal({ url: '/pay', fields: { item: ['1'], action: ['buy'], ...tracked } });
    expect(await submit('own')).to.deep.equal({ url: '/pay?gclid=in-action', fields: { utm_campaign: ['mine'], fbclid: ['own'] } });
    expect(await submit('get')).to.deep.equal({ url: `/pay?q=shoes&${APPENDED}`, fields: { q: ['shoes'], ...tracked } });
    expect(await submit('elsewhere')).to.deep.equal({ url: '/contact', fields: { message: ['hi'] } });
    expect(await submit('submitter')).to.deep.equal({ url: '/pay', fields: { item: ['2'], ...tracked } });

    await visit(page, `${world.shop.origin}/forms`);
    await page.evaluate(
      `document.body.insertAdjacentHTML('beforeend', '<form id="later" method="post" action="${action('/pay')}"><input name="item" value="3"></form>');` +
        'document.getElementById("later").requestSubmit()',
    );
    await page.waitForURL(`${world.checkout.origin}/pay`);
    expect(fieldsOf(world.checkout.requestsTo('/pay').at(-1)!.body), 'a form added after load').to.deep.equal({ item: ['3'], ...tracked });

    // form.submit() fires no submit event: a form of the page got its inputs when the script ran, a
    // form added later when the visitor went into it.
    await visit(page, `${world.shop.origin}/forms`);
    await page.evaluate('document.getElementById("post").submit()');
    await page.waitForURL(`${world.checkout.origin}/pay`);
    expect(fieldsOf(world.checkout.requestsTo('/pay').at(-1)!.body), 'a form of the page sent by form.submit()').to.deep.equal({
      item: ['1'],
      action: ['buy'],
      ...tracked,
    });
    await visit(page, `${world.shop.origin}/forms`);
    await page.evaluate(
      `document.body.insertAdjacentHTML('beforeend', '<form id="scripted" method="post" action="${action('/pay')}"><input name="item" value="4"></form>')`,
    );
    await page.focus('#scripted input');
    await page.evaluate('document.getElementById("scripted").submit()');
    await page.waitForURL(`${world.checkout.origin}/pay`);
    expect(fieldsOf(world.checkout.requestsTo('/pay').at(-1)!.body), 'a form sent by form.submit()').to.deep.equal({
      item: ['4'],
      ...tracked,
    });
  });

  it('adds nothing to links and forms on a visit without parameters', async () => {
    world.shop.page(
      '/links',
      shopPage({
        service: world.service.url,
        body: `${checkoutLink('checkout', '/checkout?item=1')}<form method="post" action="${world.checkout.origin}/pay"><input name="item" value="1"><button>pay</button></form>`,
      }),
    );
    const page = await world.newPage();
    await visit(page, `${world.shop.origin}/links`);
    expect(await hrefAfterPointer(page, '#checkout')).to.equal(`${world.checkout.origin}/checkout?item=1`);
    await page.click('form button');
    await page.waitForURL(`${world.checkout.origin}/pay`);
    expect(fieldsOf(world.checkout.requestsTo('/pay').at(-1)!.body)).to.deep.equal({ item: ['1'] });
  });
});
