import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { compose } from '../../src/bootstrap/composition';
import { describeWithBrowser } from '../support/browser';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';

const OWNER = { email: 'owner@costs.example', password: 'owner password 123' };
const DAY = 86_400_000;
/** Where the screenshots go, for a person to look at after the run (gitignored). */
const SCREENSHOTS = join(process.cwd(), '.build', 'screenshots');

interface Line {
  readonly externalId?: string;
  readonly sku?: string;
  readonly name: string;
  readonly quantity: number;
}

/** The shop: the jogger sold through the API by its SKU and through a checkout under its own id, a cap known by its id alone. */
const ORDERS: readonly { id: string; status: 'paid' | 'refused'; daysAgo: number; currency: string; lines: Line[] }[] = [
  { id: 'api-1', status: 'paid', daysAgo: 3, currency: 'BRL', lines: [{ sku: 'JOG-SLM', name: 'Calça Jogger', quantity: 2 }] },
  {
    id: 'shop-1',
    status: 'paid',
    daysAgo: 2,
    currency: 'BRL',
    lines: [{ externalId: '7003', sku: 'JOG-SLM', name: 'Calça Jogger Slim', quantity: 1 }],
  },
  { id: 'shop-2', status: 'paid', daysAgo: 1, currency: 'BRL', lines: [{ externalId: '7004', name: 'Boné', quantity: 3 }] },
  { id: 'tee', status: 'paid', daysAgo: 1, currency: 'BRL', lines: [{ sku: 'TEE-M', name: 'Camiseta', quantity: 1 }] },
  { id: 'usd', status: 'paid', daysAgo: 4, currency: 'USD', lines: [{ sku: 'JOG-SLM', name: 'Jogger', quantity: 1 }] },
  { id: 'refused', status: 'refused', daysAgo: 1, currency: 'BRL', lines: [{ sku: 'CAP-X', name: 'Refused cap', quantity: 5 }] },
  { id: 'old', status: 'paid', daysAgo: 45, currency: 'BRL', lines: [{ sku: 'OLD-1', name: 'Sold long ago', quantity: 1 }] },
];
/** The only cost: TEE-M in reais, from long before. */
const COSTED = new Set(['TEE-M BRL']);

/**
 * The products sold without a cost in the last `days` days, worked out here from the orders: a line is
 * its SKU, else its externalId; its paid units without a cost, by product and currency, named by the
 * latest order; the most units first, then by product and currency.
 */
const direct = (days: number) => {
  const rows = new Map<string, { product: string; currency: string; name: string; units: number; at: number }>();
  for (const order of ORDERS) {
    if (order.status !== 'paid' || order.daysAgo >= days) continue;
    for (const line of order.lines) {
      const product = line.sku ?? line.externalId!;
      const id = `${product} ${order.currency}`;
      if (COSTED.has(id)) continue;
      const row = rows.get(id) ?? { product, currency: order.currency, name: line.name, units: 0, at: Infinity };
      if (order.daysAgo < row.at) [row.name, row.at] = [line.name, order.daysAgo];
      row.units += line.quantity;
      rows.set(id, row);
    }
  }
  return [...rows.values()]
    .sort((a, b) => b.units - a.units || (a.product < b.product ? -1 : a.product > b.product ? 1 : a.currency < b.currency ? -1 : 1))
    .map((row) => [`${row.name} ${row.product}`, row.currency, String(row.units)]);
};

describeWithBrowser("the Costs page's products sold without a cost, and their CSV", (browser: () => Browser) => {
  let api: TestApi;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  const firstDay = new Date(Date.now() - 29 * DAY).toISOString().slice(0, 10);

  before(async function () {
    this.timeout(60_000);
    mkdirSync(SCREENSHOTS, { recursive: true });
    const storage = inMemoryStorage();
    api = await TestApi.start({}, { storage });
    const made = await api.newDashboard('Costs shop');
    token = made.token;
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    expect((await useCases.createOwner.execute(made.dashboardId, OWNER.email, OWNER.password))._tag).to.equal('Right');
    const now = Date.now();
    for (const order of ORDERS) {
      const createdAt = new Date(now - order.daysAgo * DAY + 60_000).toISOString();
      const body = anOrderPayload({
        externalId: order.id,
        status: order.status,
        ...(order.status === 'paid' ? { paidAt: createdAt } : {}),
        createdAt,
        amounts: { currency: order.currency, grossCents: 10_000, netToSellerCents: 9_000 },
        products: order.lines.map((line) => ({ ...line, unitPriceCents: 2_000 })),
      });
      const res = await api.request('POST', '/api/v1/orders', { token, body });
      expect(res.status, res.text).to.equal(201);
    }
    const cost = { product: 'TEE-M', currency: 'BRL', unitCostCents: 900, from: '2020-01-01' };
    expect((await api.request('PUT', '/api/v1/product-costs', { token, body: { entries: [cost] } })).status).to.equal(200);
    context = await browser().newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
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

  const listed = async (): Promise<string[][]> =>
    page
      .locator('section[aria-labelledby=uncosted] tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim().replace(/\s+/g, ' '))),
      );

  for (const width of [1280, 375]) {
    it(`lists them at ${width} px as the orders give them, one row per SKU, nothing wider than the screen`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${api.url}/console/costs`);
      await page.screenshot({ path: join(SCREENSHOTS, `${width}-costs-uncosted.png`), fullPage: true });
      expect(await listed()).to.deep.equal(direct(30));
      expect(await listed()).to.deep.equal([
        ['Boné 7004', 'BRL', '3'],
        ['Calça Jogger Slim JOG-SLM', 'BRL', '3'],
        ['Jogger JOG-SLM', 'USD', '1'],
      ]);
      expect(await page.locator('section[aria-labelledby=uncosted] p.summary').textContent()).to.match(
        /7 units of 2 products sold in this period had no cost/,
      );
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(width);
      const link = await page.locator('a[download][href^="/console/costs/uncosted.csv"]').boundingBox();
      expect(link, 'the CSV link is on the screen').to.not.equal(null);
      expect(link!.x + link!.width).to.be.at.most(width);
      // The period of the page's form is the list's: seven days hold two of the three rows.
      await page.goto(`${api.url}/console/costs?period=7`);
      expect(await listed()).to.deep.equal(direct(7));
      await page.goto(`${api.url}/console/costs?period=custom&from=2020-01-01&to=2020-01-31`);
      expect(await page.locator('section[aria-labelledby=uncosted] p.summary').textContent()).to.contain(
        'Every unit sold in this period has a cost.',
      );
    });
  }

  it('offers them as a CSV in the columns the upload takes, which, filled in and uploaded back, costs them all', async function () {
    this.timeout(30_000);
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto(`${api.url}/console/costs`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a[download][href^="/console/costs/uncosted.csv"]')]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).to.equal(
      ['product,currency,unit_cost,from', `7004,BRL,,${firstDay}`, `JOG-SLM,BRL,,${firstDay}`, `JOG-SLM,USD,,${firstDay}`, ''].join('\r\n'),
    );
    const filled = csv.replace(/,,/g, ',12.50,');
    await page.setInputFiles('#file', { name: 'costs.csv', mimeType: 'text/csv', buffer: Buffer.from(filled) });
    await Promise.all([page.waitForURL(/\/console\/costs$/), page.click('form[enctype] button[type=submit]')]);
    expect(await page.locator('[role=status], .notice').first().textContent()).to.contain('3 costs stored.');
    expect(await page.locator('section[aria-labelledby=uncosted] p.summary').textContent()).to.contain(
      'Every unit sold in this period has a cost.',
    );
    // Every unit of the jogger, through the API and the checkout alike, now costs 12.50.
    const from = new Date(Date.now() - 30 * DAY).toISOString();
    const report = await api.request('GET', `/api/v1/reports/products?from=${from}&to=${new Date().toISOString()}&sort=units`, { token });
    const jogger = report.body.rows.find(
      (row: { product: string; currency: string }) => row.product === 'JOG-SLM' && row.currency === 'BRL',
    );
    expect([jogger.units, jogger.productCostCents, jogger.uncostedUnits]).to.deep.equal([3, 3_750, 0]);
    expect(report.body.uncosted).to.deep.equal({ units: 0, products: 0 });
  });
});
