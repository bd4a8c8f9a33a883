import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { compose } from '../../src/bootstrap/composition';
import { describeWithBrowser } from '../support/browser';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';

const OWNER = { email: 'owner@compare.example', password: 'owner password 123' };

describeWithBrowser("the Overview's cards against the previous period (decision 0022)", (browser: () => Browser) => {
  let api: TestApi;
  let context: BrowserContext;
  let page: Page;
  let token: string;

  before(async function () {
    this.timeout(60_000);
    const storage = inMemoryStorage();
    api = await TestApi.start({}, { storage });
    const made = await api.newDashboard('Compare shop');
    token = made.token;
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    expect((await useCases.createOwner.execute(made.dashboardId, OWNER.email, OWNER.password))._tag).to.equal('Right');
    const now = Date.now();
    // Two paid orders of 100.00 in the last 7 days, one of 80.00 in the 7 days before, and no refund in either.
    const orders = [
      { id: 'now-1', daysAgo: 1, cents: 10_000 },
      { id: 'now-2', daysAgo: 2, cents: 10_000 },
      { id: 'before-1', daysAgo: 10, cents: 8_000 },
    ];
    for (const { id, daysAgo, cents } of orders) {
      const createdAt = new Date(now - daysAgo * 86_400_000).toISOString();
      const body = anOrderPayload({
        externalId: id,
        status: 'paid',
        paidAt: createdAt,
        createdAt,
        amounts: { currency: 'BRL', grossCents: cents, netToSellerCents: cents },
      });
      expect((await api.request('POST', '/api/v1/orders', { token: made.token, body })).status).to.equal(201);
    }
    context = await browser().newContext({ viewport: { width: 375, height: 900 } });
    page = await context.newPage();
    await page.goto(`${api.url}/console/sign-in`);
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await Promise.all([page.waitForURL(/\/console\/overview/), page.click('button[type=submit]')]);
  });

  after(async () => {
    await context?.close();
    await api?.stop();
  });

  it('shows each card’s change in words with a sign, and nothing where the previous figure was 0', async () => {
    await page.goto(`${api.url}/console/overview?period=7`);
    const card = (metric: string) => page.locator(`dl[data-currency="BRL"] div:has(dd[data-metric="${metric}"])`);
    // allTextContents does not wait: a card without its change fails at once.
    expect(await card('orders').locator('dd.change').allTextContents()).to.deep.equal(['▲ +100.0% vs previous 7 days']);
    expect(await card('paidGrossCents').locator('dd.change').allTextContents()).to.deep.equal(['▲ +150.0% vs previous 7 days']);
    expect(await card('approvalRate').locator('dd.change').allTextContents()).to.deep.equal(['No change vs previous 7 days']);
    expect(await card('refundedCents').locator('dd.change').count()).to.equal(0);
    expect(await card('spendCents').locator('dd.change').count()).to.equal(0);
  });

  it('names the previous period by the chosen one’s length', async () => {
    await page.goto(`${api.url}/console/overview?period=30`);
    // The 30 days hold all three orders; the 30 before hold none, so no card compares.
    expect(await page.locator('dd.change').count()).to.equal(0);
    await page.goto(`${api.url}/console/overview?period=custom&from=2026-01-01&to=2026-01-10`);
    expect(await page.locator('dd.change').count()).to.equal(0);
  });

  it('shows the Products page in words, each figure with its change, the product column kept in view', async () => {
    await page.goto(`${api.url}/console/products?period=7`);
    expect(await page.locator('thead th').allTextContents()).to.include.members([
      'Product',
      'Paid units',
      'Paid revenue',
      'Units without a cost',
    ]);
    const units = page.locator('tbody tr').first().locator('td[data-metric="paidUnits"]');
    // Two orders of two T-shirts now, one of two before.
    expect((await units.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).to.deep.equal(['4 ▲ +100.0%']);
    expect(await page.evaluate("getComputedStyle(document.querySelector('tbody th[scope=row]')).position")).to.equal('sticky');
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(375);
  });

  it('lists product costs and takes an owner’s CSV whole or not at all, then redirects', async () => {
    const upload = async (text: string) => {
      await page.goto(`${api.url}/console/costs`);
      await page.setInputFiles('#file', { name: 'costs.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
      await Promise.all([page.waitForLoadState('load'), page.click('form[enctype] button[type=submit]')]);
      await page.waitForLoadState('load');
    };
    await upload('product,currency,unit_cost,from\np-1,BRL,12.50,2026-01-01\np-2,BRL,not-a-number,2026-01-01\n');
    expect(await page.locator('[role=alert]').textContent()).to.contain('Nothing was imported');
    const costs = page.getByRole('region', { name: 'Product costs' }).locator('tbody tr');
    expect(await costs.count()).to.equal(0);
    await upload('product,currency,unit_cost,from\np-1,BRL,12.50,2026-01-01\n');
    expect(new URL(page.url()).pathname).to.equal('/console/costs');
    expect(await costs.allTextContents()).to.have.length(1);
    expect((await costs.first().textContent())?.replace(/\s+/g, ' ')).to.contain('p-1');
  });

  it('sets the tax rate in Settings, and refuses one over 100', async () => {
    await page.goto(`${api.url}/console/settings`);
    await page.fill('#taxRate', '12.5');
    await Promise.all([page.waitForURL(/notice=saved/), page.click('form[action="/console/settings"] button[type=submit]')]);
    expect(await page.inputValue('#taxRate')).to.equal('12.5');
    await page.fill('#taxRate', '101');
    // The browser's own check would stop the form; the service's is the one tested.
    await page.evaluate("document.querySelector('#taxRate').removeAttribute('pattern')");
    await Promise.all([page.waitForLoadState('load'), page.click('form[action="/console/settings"] button[type=submit]')]);
    await page.waitForLoadState('load');
    expect(await page.locator('[role=alert]').textContent()).to.contain('tax rate from 0 to 100');
    await page.goto(`${api.url}/console/settings`);
    expect(await page.inputValue('#taxRate')).to.equal('12.5');
  });

  it('shows each Reports cell with its change, a campaign sold only before ranked as the report ranks it, in words within 375 px', async () => {
    // A campaign of one paid order of 50.00 nine days ago: in the previous 7 days only.
    const createdAt = new Date(Date.now() - 9 * 86_400_000).toISOString();
    const body = anOrderPayload({
      externalId: 'before-spring',
      status: 'paid',
      paidAt: createdAt,
      createdAt,
      amounts: { currency: 'BRL', grossCents: 5_000, netToSellerCents: 5_000 },
      products: [{ externalId: 'p-2', name: 'Mug', quantity: 1, unitPriceCents: 5_000 }],
      tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring' },
    });
    expect((await api.request('POST', '/api/v1/orders', { token, body })).status).to.equal(201);
    await page.goto(`${api.url}/console/reports?period=7&by1=utmCampaign`);
    const cell = async (campaign: string, metric: string) =>
      (await page.locator(`tbody tr:has(th:text-is("${campaign}")) td[data-metric="${metric}"]`).allTextContents()).map((t) =>
        t.replace(/\s+/g, ' ').trim(),
      );
    expect(await page.locator('tbody th[scope=row]').allTextContents()).to.deep.equal(['black-friday', 'spring']);
    expect(await cell('black-friday', 'orders')).to.deep.equal(['2 ▲ +100.0%']);
    expect(await cell('black-friday', 'paidGrossCents')).to.deep.equal(['R$200.00 ▲ +150.0%']);
    expect(await cell('spring', 'orders')).to.deep.equal(['0 ▼ −100.0%']);
    // The Overview's Top campaigns: this period's campaigns with their changes, not the previous period's only.
    await page.goto(`${api.url}/console/overview?period=7`);
    const top = page.locator('div[aria-label="Top campaigns"]');
    expect(await top.locator('tbody td:nth-child(2)').allTextContents()).to.deep.equal(['black-friday']);
    expect((await top.locator('td[data-metric="orders"]').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())).to.deep.equal([
      '2 ▲ +100.0%',
    ]);
    await page.goto(`${api.url}/console/reports?period=7&by1=utmCampaign`);
    expect(await cell('spring', 'spendCents')).to.deep.equal(['R$0.00']);
    expect(await page.locator('p.muted:has-text("Under each figure")').textContent()).to.contain('vs previous 7 days');
    const heads = (await page.locator('thead th').allTextContents()).map((h) => h.trim());
    expect(heads.filter((h) => /\b[a-z]+[A-Z]|Cents\b/.test(h))).to.deep.equal([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(375);
    // The CSV keeps the API's columns and this period's rows, without the comparison.
    const csv = await page.evaluate(async () => (await fetch('/console/reports.csv?period=7&by1=utmCampaign')).text());
    expect(csv.split('\r\n')[0]).to.match(/^utmCampaign,currency,orders,/);
    expect(csv).not.to.contain('spring');
  });
});
