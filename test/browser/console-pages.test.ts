import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { compose } from '../../src/bootstrap/composition';
import { describeWithBrowser } from '../support/browser';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';
import { WebhookReceiver } from '../support/webhook-receiver';

const OWNER = { email: 'owner@shop.example', password: 'owner password 123' };
/** Where the screenshots go: one per page and width, for a person to look at after the run (gitignored). */
const SCREENSHOTS = join(process.cwd(), '.build', 'screenshots');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** A name and a URL longer than any screen, with no place to break them: what made pages 396 and 661 px wide. */
const LONG = 'a-campaign-name-that-goes-on-and-on-without-any-space-to-break-it-at-all-2026';
const LONG_URL = `https://shop.example/products/${'very-long-path-segment-'.repeat(6)}?ref=${'x'.repeat(60)}`;

/**
 * What a person reads as a heading or a label: an API name there (`paidGrossCents`, `utmSource`,
 * `isTest`) is camel case or ends in Cents. `code` inside them names the API on purpose and is left out.
 */
const API_NAMES_SHOWN = `[...document.querySelectorAll('h1, h2, h3, th, dt, label, legend, summary, option, caption, button')]
  .map((e) => { const c = e.cloneNode(true); c.querySelectorAll('code').forEach((x) => x.remove()); return c.textContent.trim(); })
  .filter((t) => /\\b[a-z]+[A-Z][A-Za-z]*\\b|Cents\\b|: (true|false|all)\\b/.test(t))`;

describeWithBrowser('every console page with data in it, at 1280 and 375 px (decision 0022)', (browser: () => Browser) => {
  let api: TestApi;
  let token: string;
  let context: BrowserContext;
  let page: Page;
  /** What the CSP refused, on any page: `securitypolicyviolation` events and Chromium's console messages. */
  let violations: string[];

  const submit = async (selector: string): Promise<void> => {
    const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.click(selector);
    await navigated;
    await page.waitForLoadState('load');
  };

  before(async function () {
    this.timeout(120_000);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const storage = inMemoryStorage();
    api = await TestApi.start({}, { storage });
    const made = await api.newDashboard('Console shop');
    token = made.token;
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    expect((await useCases.createOwner.execute(made.dashboardId, OWNER.email, OWNER.password))._tag).to.equal('Right');
    const now = Date.now();
    for (let i = 0; i < 12; i += 1) {
      const createdAt = new Date(now - (i % 6) * 86_400_000).toISOString();
      const body = anOrderPayload({
        externalId: `order-${i}-${LONG}`,
        status: i % 4 === 0 ? 'refused' : 'paid',
        ...(i % 4 === 0 ? {} : { paidAt: createdAt }),
        createdAt,
        amounts: { currency: 'BRL', grossCents: 10_000 + i * 1_234, netToSellerCents: 9_000 },
        tracking: { utmSource: i % 2 === 0 ? 'google' : 'facebook', utmMedium: 'cpc', utmCampaign: i % 3 === 0 ? LONG : 'black-friday' },
      });
      expect((await api.request('POST', '/api/v1/orders', { token, body })).status).to.equal(201);
    }
    context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    violations = [];
    await context.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP refused ' + e.violatedDirective + ': ' + e.sourceFile + ':' + e.lineNumber))",
    );
    page.on('console', (message) => {
      if (/Content Security Policy|CSP refused/.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    // Signs in, and makes through the console's own forms what the pages show: spend, a link, a webhook, a token.
    await page.goto(`${api.url}/console/sign-in`);
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await submit('button[type=submit]');
    await page.goto(`${api.url}/console/spend`);
    const day = new Date(now).toISOString().slice(0, 10);
    // Spend on a day without orders: that day's profit is below zero.
    const spentOnly = new Date(now - 6 * 86_400_000).toISOString().slice(0, 10);
    await page.setInputFiles('#file', {
      name: 'spend.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount\n${day},google,cpc,black-friday,,BRL,50.00\n${day},google,cpc,${LONG},,BRL,20.00\n${spentOnly},facebook,cpc,black-friday,,BRL,30.00\n`,
      ),
    });
    await submit('form[enctype] button[type=submit]');
    await page.goto(`${api.url}/console/links`);
    await page.fill('#destinationUrl', LONG_URL);
    await page.fill('#utmSource', 'facebook');
    await page.fill('#utmMedium', 'paid social');
    await page.fill('#utmCampaign', LONG);
    await submit('button[value=save]');
    await page.goto(`${api.url}/console/webhooks`);
    await page.fill('#url', `http://127.0.0.1:9/${'hooks/'.repeat(20)}${LONG}`);
    await submit('form[action="/console/webhooks"] button[type=submit]');
    await page.goto(`${api.url}/console/tokens`);
    await page.fill('#name', LONG);
    await page.check('#scope-orders-write');
    await submit('form[action="/console/tokens"] button[type=submit]');
  });

  after(async () => {
    await context?.close();
    await api?.stop();
  });

  /** Every page, as an owner sees them once the dashboard has data; the endpoint's page is found from the list. */
  const pages = async (): Promise<string[]> => {
    await page.goto(`${api.url}/console/webhooks`);
    const endpoint = await page.locator('table a[href^="/console/webhooks/"]').first().getAttribute('href');
    return [
      '/console/overview',
      '/console/overview?period=custom&from=2026-01-01&to=2026-01-31',
      '/console/orders',
      `/console/orders/${encodeURIComponent(`order-1-${LONG}`)}`,
      '/console/reports',
      '/console/reports?by1=utmCampaign&by2=utmSource&by3=platform&col=' +
        'orders&col=paidGrossCents&col=grossCents&col=paidNetCents&col=refundedCents&col=spendCents&col=roas&col=cpaCents&col=approvalRate',
      '/console/products',
      '/console/spend',
      '/console/costs',
      '/console/links',
      '/console/webhooks',
      endpoint!,
      '/console/tokens',
      '/console/sources',
      '/console/members',
      '/console/settings',
      '/console/password',
    ];
  };

  for (const width of [1280, 375]) {
    it(`shows every page at ${width} px with words for names, no CSP refusal, no serious axe finding, nothing wider than the screen`, async function () {
      this.timeout(180_000);
      await page.setViewportSize({ width, height: 900 });
      // Every page's findings are gathered, then compared with none at once: one run names every fault.
      const found: string[] = [];
      for (const path of await pages()) {
        violations = [];
        const response = await page.goto(api.url + path);
        expect(response?.status(), path).to.equal(200);
        const names = await page.evaluate<string[]>(API_NAMES_SHOWN);
        if (names.length > 0) found.push(`${path}: API names shown: ${names.join(', ')}`);
        await page.evaluate(AXE);
        const axe = await page.evaluate<string[]>(
          `axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
        );
        found.push(...axe.map((v) => `${path}: axe-core: ${v}`));
        const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
        if (wide > width) found.push(`${path}: ${wide} px wide`);
        const name = path
          .replace(/whk_\w+/, 'endpoint')
          .replace(/^\/console\//, '')
          .replace(/[^a-z0-9]+/gi, '-')
          .slice(0, 60);
        await page.screenshot({ path: join(SCREENSHOTS, `${width}-${name}.png`), fullPage: true });
        found.push(...violations);
      }
      expect(found).to.deep.equal([]);
    });
  }

  for (const width of [1280, 375]) {
    it(`takes a Brazilian spreadsheet's costs at ${width} px, and lists a refused file's problems by line and column within the screen`, async function () {
      this.timeout(60_000);
      await page.setViewportSize({ width, height: 900 });
      const upload = async (name: string, content: string): Promise<void> => {
        await page.goto(`${api.url}/console/costs`);
        await page.setInputFiles('#file', { name, mimeType: 'text/csv', buffer: Buffer.from(content) });
        await submit('form[enctype] button[type=submit]');
      };
      await upload('custos.csv', `sku;custo\nJOG-SLM;12,50\n${LONG};R$ 3,00\n`);
      const alert = page.locator('[role=alert]');
      expect(await alert.innerText()).to.include('Line 1: the header lacks currency and from.');
      expect(await alert.innerText()).to.include('such as JOG-SLM;BRL;12,50;2026-03-01');
      await upload('custos.csv', `SKU;Moeda;Custo;Desde\nJOG-SLM;BRL;12,505;01/03/2026\n${LONG};BRL;R$ 3,00;2026-03-01\n`);
      expect(await page.locator('[role=alert] li').allInnerTexts()).to.deep.equal([
        'Line 2, column unit_cost: expected an amount in units of the currency, with at most 2 decimals and no thousands separator, up to 100000000000, such as 12,50; found "12,505"',
        'Line 2, column from: expected a day written YYYY-MM-DD, such as 2026-03-01; found "01/03/2026"',
        'Line 3, column unit_cost: expected an amount in units of the currency, with at most 2 decimals and no thousands separator, up to 100000000000, such as 12,50; found "R$ 3,00"',
      ]);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth'), 'the refused page').to.be.at.most(width);
      await page.evaluate(AXE);
      expect(
        await page.evaluate<string[]>(
          `axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))`,
        ),
      ).to.deep.equal([]);
      await page.screenshot({ path: join(SCREENSHOTS, `${width}-costs-refused.png`), fullPage: true });
      await upload('custos.csv', `\uFEFFSKU;Moeda;Custo;Desde;Nome\r\nJOG-SLM;BRL;12,50;2026-03-01;Calça Jogger\r\n`);
      expect(await page.locator('[role=status]').innerText()).to.equal('1 cost stored. Columns not read: Nome.');
      expect(await page.getByRole('region', { name: 'Product costs' }).locator('tbody').innerText()).to.include('JOG-SLM');
      expect(await page.evaluate<number>('document.documentElement.scrollWidth'), 'the page after the upload').to.be.at.most(width);
    });
  }

  it('answers every form with a redirect: a reload asks with GET, posts nothing again, and shows a secret no more', async function () {
    this.timeout(60_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    const forms: { readonly name: string; readonly fill: () => Promise<void>; readonly button: string; readonly shown: string }[] = [
      {
        name: 'a token',
        fill: async () => {
          await page.goto(`${api.url}/console/tokens`);
          await page.fill('#name', 'reloaded');
          await page.check('#scope-orders-read');
        },
        button: 'form[action="/console/tokens"] button[type=submit]',
        shown: '#shown-secret',
      },
      {
        name: 'a webhook endpoint',
        fill: async () => {
          await page.goto(`${api.url}/console/webhooks`);
          await page.fill('#url', 'http://127.0.0.1:9/reloaded');
        },
        button: 'form[action="/console/webhooks"] button[type=submit]',
        shown: '#shown-secret',
      },
      {
        name: 'a new signing secret',
        fill: async () => {
          await page.goto(`${api.url}/console/webhooks`);
          await page.click('table a[href^="/console/webhooks/"]');
          await page.waitForLoadState('load');
        },
        button: 'form[action$="/rotate"] button[type=submit]',
        shown: '#shown-secret',
      },
      {
        name: 'an invitation',
        fill: async () => {
          await page.goto(`${api.url}/console/members`);
          await page.fill('#email', 'reloaded@shop.example');
        },
        button: 'form[action="/console/members"] button[type=submit]',
        shown: '#shown-secret',
      },
      {
        name: 'a link',
        fill: async () => {
          await page.goto(`${api.url}/console/links`);
          await page.fill('#destinationUrl', 'https://shop.example/reloaded');
          await page.fill('#utmSource', 'google');
          await page.fill('#utmMedium', 'cpc');
          await page.fill('#utmCampaign', 'reloaded');
        },
        button: 'button[value=save]',
        shown: '[role=status]',
      },
      {
        name: 'a spend upload',
        fill: async () => {
          await page.goto(`${api.url}/console/spend`);
          await page.setInputFiles('#file', {
            name: 'spend.csv',
            mimeType: 'text/csv',
            buffer: Buffer.from(
              'date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount\n2026-01-02,google,cpc,reloaded,,BRL,1.00\n',
            ),
          });
        },
        button: 'form[enctype] button[type=submit]',
        shown: '[role=status]',
      },
    ];
    for (const form of forms) {
      await form.fill();
      const posts: string[] = [];
      const onRequest = (request: { method(): string; url(): string }) => {
        if (request.method() === 'POST') posts.push(request.url());
      };
      page.on('request', onRequest);
      await submit(form.button);
      expect(await page.locator(form.shown).count(), `${form.name}: shown after the form`).to.equal(1);
      const reloaded = await page.reload();
      page.off('request', onRequest);
      expect(reloaded?.request().method(), `${form.name}: the reload`).to.equal('GET');
      expect(posts, `${form.name}: posts`).to.have.length(1);
      expect(await page.locator(form.shown).count(), `${form.name}: shown after a reload`).to.equal(0);
    }
  });

  it('applies From and To filled while the period still says “Last 30 days”', async function () {
    this.timeout(30_000);
    await page.goto(`${api.url}/console/reports`);
    expect(await page.locator('#period').inputValue()).to.equal('30');
    await page.fill('#from', '2026-01-01');
    await page.fill('#to', '2026-01-31');
    await submit('form.filters button[type=submit]');
    expect(await page.locator('#period').inputValue()).to.equal('custom');
    expect((await page.locator('#period-range').textContent())!.trim()).to.equal('Jan 1, 2026 to Jan 31, 2026, UTC time');
    expect(await page.locator('#period-range').getAttribute('data-from')).to.equal('2026-01-01T00:00:00.000Z');
  });

  it('draws the daily chart with labelled values, gridlines, a tooltip per bar, and text at least 10 px high at 375 px', async function () {
    this.timeout(30_000);
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto(`${api.url}/console/overview?period=7`);
    const titles = await page.locator('svg.chart[data-metric="paidGrossCents"] rect.bar title').allTextContents();
    expect(titles).to.have.length(7);
    for (const t of titles) expect(t).to.match(/^[A-Z][a-z]{2} \d{1,2}, \d{4}: R\$[\d,]+\.\d{2}$/);
    const axis = await page.locator('svg.chart[data-metric="paidGrossCents"] text.value').allTextContents();
    expect(axis[0]).to.equal('R$0');
    expect(axis.length).to.be.at.least(3);
    expect(await page.locator('svg.chart[data-metric="paidGrossCents"] line.grid').count()).to.equal(axis.length);
    const smallest = await page.evaluate<number>(
      `Math.min(...[...document.querySelectorAll('svg.chart text')].map((t) => t.getBoundingClientRect().height))`,
    );
    expect(smallest, 'the height of the chart’s smallest text, in px').to.be.at.least(10);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  for (const width of [375, 1280]) {
    it(`draws ad spend and profit by day at ${width} px, a day's loss below the zero line, text at least 10 px high`, async function () {
      this.timeout(30_000);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${api.url}/console/overview?period=7`);
      for (const metric of ['paidGrossCents', 'spendCents', 'profitCents'])
        expect(await page.locator(`svg.chart[data-metric="${metric}"] rect.bar`).count(), metric).to.equal(7);
      // The day with spend and no order: the only loss, drawn down from the zero line.
      const profit = page.locator('svg.chart[data-metric="profitCents"]');
      const losses = profit.locator('rect.bar.negative');
      expect(await losses.locator('title').allTextContents()).to.have.length(1);
      expect(await losses.locator('title').textContent()).to.match(/: [-−]R\$30\.00$/);
      const [bar, zero] = await Promise.all([losses.boundingBox(), profit.locator('line.zero').boundingBox()]);
      expect(bar!.y, 'the loss starts at the zero line').to.be.closeTo(zero!.y + zero!.height / 2, 1);
      expect(bar!.height).to.be.greaterThan(10);
      const labels = await profit.locator('text.value').allTextContents();
      expect(
        labels.some((l) => /^[-−]R\$/.test(l)),
        labels.join(' '),
      ).to.equal(true);
      expect(labels).to.include('R$0');
      const smallest = await page.evaluate<number>(
        `Math.min(...[...document.querySelectorAll('svg.chart text')].map((t) => t.getBoundingClientRect().height))`,
      );
      expect(smallest, 'the height of the charts’ smallest text, in px').to.be.at.least(10);
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(width);
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  }

  it('shows an empty dashboard the ways orders arrive, with an example the API takes as it is', async function () {
    this.timeout(30_000);
    const storage = inMemoryStorage();
    const empty = await TestApi.start({}, { storage });
    const other = await browser().newContext();
    try {
      const made = await empty.newDashboard('Empty shop');
      const { useCases } = compose({
        storage,
        transitions: {},
        rateLimit: { max: 1000, windowSeconds: 60 },
        idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
      });
      await useCases.createOwner.execute(made.dashboardId, OWNER.email, OWNER.password);
      const fresh = await other.newPage();
      await fresh.goto(`${empty.url}/console/sign-in`);
      await fresh.fill('#email', OWNER.email);
      await fresh.fill('#password', OWNER.password);
      await Promise.all([fresh.waitForURL(/\/console\/overview/), fresh.click('button[type=submit]')]);
      expect(await fresh.locator('h2#start').textContent()).to.equal('How orders arrive');
      expect(await fresh.locator('.ways a[href="/console/sources"]').count()).to.equal(1);
      expect(await fresh.locator('.ways a[href="/console/tokens"]').count()).to.equal(1);
      const example = (await fresh.locator('.ways pre code').first().textContent())!;
      const body = JSON.parse(/-d '([\s\S]+)'$/.exec(example)![1]) as Record<string, unknown>;
      const posted = await empty.request('POST', '/api/v1/orders', { token: made.token, body });
      expect(posted.status, posted.text).to.equal(201);
      await fresh.reload();
      expect(await fresh.locator('h2#start').count()).to.equal(0);
    } finally {
      await other.close();
      await empty.stop();
    }
  });

  it('shows in the webhook delivery log what each delivery sent, escaped', async function () {
    this.timeout(30_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${api.url}/console/webhooks`);
    await page.click('table a[href^="/console/webhooks/"]');
    await page.waitForLoadState('load');
    await submit('button:text("Send a test event")');
    const sent = page.locator('tr[data-delivery] details.body code').first();
    const text = (await sent.textContent())!;
    expect(JSON.parse(text)).to.have.property('type', 'webhook.test');
    expect(await page.locator('tr[data-delivery] details.body code *').count()).to.equal(0);
  });

  it("shows in the webhook delivery log the receiver's reply as text, wrapped within 375 px, no script run and nothing refused", async function () {
    this.timeout(30_000);
    const reply = `<script>document.title = 'ran'</script><img src=x onerror="document.title='ran'"> ${'no-space-to-break-at-'.repeat(40)}`;
    const receiver = await WebhookReceiver.start(() => ({ status: 500, headers: { 'content-type': 'text/html' }, body: reply }));
    try {
      await page.setViewportSize({ width: 375, height: 900 });
      await page.goto(`${api.url}/console/webhooks`);
      await page.fill('#url', receiver.url('/replies-with-markup'));
      await submit('form[action="/console/webhooks"] button[type=submit]');
      await page.click('table a[href*="/console/webhooks/"]:text("replies-with-markup")');
      await page.waitForLoadState('load');
      await submit('button:text("Send a test event")');
      await receiver.waitFor(1);
      const replies = page.locator('tr[data-delivery] li[data-attempt] details.reply code');
      // The attempt is recorded once the worker has its answer: the page is read again until it shows.
      for (let tries = 0; tries < 100 && (await replies.count()) === 0; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await page.reload();
      }
      violations = [];
      await page.reload();
      const title = await page.title();
      expect(await replies.first().textContent()).to.equal(reply);
      expect(await page.locator('tr[data-delivery] details.reply code *').count()).to.equal(0);
      await page.locator('tr[data-delivery] details.reply summary').first().click();
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(375);
      const code = await replies.first().boundingBox();
      expect(code!.x + code!.width, 'the reply’s right edge, in px').to.be.at.most(375);
      expect(await page.title()).to.equal(title);
      expect(violations).to.deep.equal([]);
    } finally {
      await receiver.stop();
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('keeps ROAS and CPA in view at 1280 px: the default report fits its box', async function () {
    this.timeout(30_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${api.url}/console/reports`);
    const heads = await page.locator('table thead th').allTextContents();
    expect(heads.map((h) => h.trim())).to.include.members(['ROAS', 'CPA', 'Paid revenue', 'Ad spend']);
    const fits = await page.evaluate<boolean>(
      `(() => { const s = document.querySelector('.scroll'); return s.scrollWidth <= s.clientWidth; })()`,
    );
    expect(fits).to.equal(true);
    const filter = await page.locator('#isTest option').allTextContents();
    expect(filter).to.deep.equal(['Leave out test orders', 'Only test orders', 'Include test orders']);
  });

  it('exports the CSV with the API’s names as its header', async () => {
    const csv = await page.evaluate(async () => (await fetch('/console/reports.csv?by1=utmSource')).text());
    expect(csv.split('\r\n')[0]).to.equal(
      'utmSource,currency,orders,pending,paid,refused,refunded,chargedback,grossCents,paidGrossCents,paidNetCents,refundedCents,chargedbackCents,approvalRate,averageOrderCents,spendCents,roas,cpaCents,productCostCents,uncostedUnits,taxCents,contributionCents,profitCents,marginRate,roi',
    );
  });

  it('answers /favicon.ico with a small icon', async () => {
    const res = await fetch(`${api.url}/favicon.ico`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^image\//);
  });
});
