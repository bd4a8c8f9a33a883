import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeWithBrowser } from '../support/browser';
import { OWNER, startConsole } from '../support/console-world';
import { cheapScrypt } from '../support/held-hasher';
import { anOrderPayload } from '../support/order-builder';
import { seriousViolations } from '../support/page-checks';
import { temporarySqliteStorage } from '../support/sqlite-files';
import type { TestApi } from '../support/test-api';

const DAY = 86_400_000;
const TODAY = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const dayOf = (daysAgo: number): string => new Date(TODAY - daysAgo * DAY).toISOString().slice(0, 10);

/** What the shop sells; MUG and CAP have no cost, BAG costs more than it sells for. */
const PRODUCTS = {
  TSH: { priceCents: 5_000, costCents: 2_000 },
  BAG: { priceCents: 8_000, costCents: 9_000 },
  MUG: { priceCents: 3_000 },
  CAP: { priceCents: 2_500 },
} as const;
type Product = keyof typeof PRODUCTS;

/** Long names with hyphens and spaces, where they may break, and a part wider than a narrow column, which must not. */
const LONG = 'lookalike-buyers-of-the-whole-winter-collection';
const NEWSLETTER = 'weekly-newsletterforeverysubscriberofthestore';
const CAMPAIGNS = [
  { utmSource: 'google', utmCampaign: 'brand-search', currency: 'BRL', spendPerDay: 1_000 },
  { utmSource: 'facebook', utmCampaign: LONG, currency: 'BRL', spendPerDay: 5_000 },
  { utmSource: 'tiktok', utmCampaign: 'ugc tests for the spring catalogue', currency: 'BRL', spendPerDay: 9_000 },
  { utmSource: 'email', utmCampaign: NEWSLETTER, currency: 'BRL', spendPerDay: 0 },
  { utmSource: 'facebook', utmCampaign: 'us-launch', currency: 'USD', spendPerDay: 20_000 },
] as const;
/** Spend without any order: a campaign that lost all it spent. */
const SPENT_ONLY = { utmSource: 'meta', utmCampaign: 'nothing-sold', currency: 'BRL', amountCents: 3_000, daysAgo: 2 } as const;
/** A day long before the others with one profitable order and no spend: a period in which no campaign lost money. */
const QUIET_DAY = 20;

interface Line {
  readonly product: Product;
  readonly quantity: number;
}
interface Seeded {
  readonly externalId: string;
  readonly campaign: (typeof CAMPAIGNS)[number];
  readonly daysAgo: number;
  readonly status: 'paid' | 'refused' | 'pending';
  readonly lines: readonly Line[];
  readonly netCents: number;
}

/** 45 orders over the last 6 days: every campaign, paid, refused or pending, one or two products each. */
const ORDERS: readonly Seeded[] = Array.from({ length: 45 }, (_, i) => {
  const campaign = CAMPAIGNS[i % CAMPAIGNS.length];
  const names = Object.keys(PRODUCTS) as Product[];
  const lines: Line[] = [{ product: names[i % 4], quantity: 1 + (i % 3) }];
  if (i % 4 === 1) lines.push({ product: names[(i + 2) % 4], quantity: 1 });
  const gross = lines.reduce((sum, line) => sum + line.quantity * PRODUCTS[line.product].priceCents, 0);
  return {
    externalId: `profit-${i}`,
    campaign,
    daysAgo: 1 + (i % 6),
    status: i % 7 === 3 ? 'refused' : i % 11 === 5 ? 'pending' : 'paid',
    lines,
    netCents: gross - 300,
  };
});

/** A campaign's row, as a direct computation over the seeded orders and spend finds it (tax rate 0). */
interface Expected {
  readonly key: string;
  readonly currency: string;
  profitCents: number;
  uncostedUnits: number;
}

const keyOf = (c: { utmSource: string; utmCampaign: string }): string => `${c.utmSource} / ${c.utmCampaign}`;

const directRows = (): Expected[] => {
  const rows = new Map<string, Expected>();
  const rowOf = (c: { utmSource: string; utmCampaign: string; currency: string }) => {
    const id = `${keyOf(c)} ${c.currency}`;
    const row = rows.get(id) ?? { key: keyOf(c), currency: c.currency, profitCents: 0, uncostedUnits: 0 };
    rows.set(id, row);
    return row;
  };
  for (const c of CAMPAIGNS) rowOf(c).profitCents -= c.spendPerDay * 6;
  rowOf(SPENT_ONLY).profitCents -= SPENT_ONLY.amountCents;
  for (const order of ORDERS.filter((o) => o.status === 'paid')) {
    const row = rowOf(order.campaign);
    row.profitCents += order.netCents;
    for (const line of order.lines) {
      const product: { priceCents: number; costCents?: number } = PRODUCTS[line.product];
      if (product.costCents === undefined) row.uncostedUnits += line.quantity;
      else row.profitCents -= line.quantity * product.costCents;
    }
  }
  return [...rows.values()];
};

/** The units and products without a cost over the paid orders, per currency and over all. */
const directUncosted = (currency?: string): { units: number; products: number } => {
  const products = new Set<string>();
  let units = 0;
  for (const order of ORDERS.filter((o) => o.status === 'paid' && (currency === undefined || o.campaign.currency === currency)))
    for (const line of order.lines)
      if (!('costCents' in PRODUCTS[line.product])) {
        units += line.quantity;
        products.add(line.product);
      }
  return { units, products: products.size };
};

/** Ascending or descending by profit, a tie by key then currency: the ranking every store answers. */
const byProfit = (rows: readonly Expected[], order: 'asc' | 'desc'): string[] =>
  [...rows]
    .sort(
      (a, b) =>
        (order === 'asc' ? a.profitCents - b.profitCents : b.profitCents - a.profitCents) ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : a.currency < b.currency ? -1 : 1),
    )
    .map((row) => `${row.key} ${row.currency}`);

/** The browser's computed styles, which this test's types (Node's) do not know. */
interface Styles {
  getComputedStyle(element: unknown): { readonly color: string };
}

/** Cents from a figure as the console writes it: `-R$1,234.56`, `$7.00`. */
const centsOf = (text: string): number => {
  const found = /(-?)(?:R\$|\$)([\d,]+)\.(\d{2})/.exec(text);
  if (found === null) throw new Error(`no money in ${JSON.stringify(text)}`);
  return (found[1] === '-' ? -1 : 1) * (Number(found[2].replace(/,/g, '')) * 100 + Number(found[3]));
};

/**
 * The line breaks inside the texts of `selector` that are neither after a hyphen nor at a space, and
 * how many breaks there are in all: read from where the browser laid each character out.
 */
const BREAKS = `(selector) => {
  const bad = [];
  let breaks = 0;
  for (const cell of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      let top;
      for (let i = 0; i < text.length; i++) {
        if (/\\s/.test(text[i])) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (top !== undefined && rect.top > top + 1) {
          breaks++;
          if (!/[\\s-]/.test(text[i - 1])) bad.push(text.trim() + ' broken before ' + JSON.stringify(text.slice(i, i + 8)));
        }
        top = rect.top;
      }
    }
  }
  return { bad, breaks };
}`;

describeWithBrowser('losses, their order and an incomplete profit in the console, on SQLite', (browser: () => Browser) => {
  let api: TestApi;
  let token: string;
  let context: BrowserContext;
  let page: Page;

  const open = async (path: string): Promise<void> => {
    const response = await page.goto(api.url + path);
    expect(response?.status(), path).to.equal(200);
  };
  const clickAndLoad = async (selector: string): Promise<void> => {
    await Promise.all([page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame()), page.click(selector)]);
    await page.waitForLoadState('load');
  };
  /** The report's rows as `source / campaign currency`, top to bottom. */
  const reportKeys = async (): Promise<string[]> =>
    page
      .locator('table.report tbody tr')
      .evaluateAll((rows) =>
        rows.map(
          (row) => `${row.children[0].textContent!.trim()} / ${row.children[1].textContent!.trim()} ${row.children[2].textContent!.trim()}`,
        ),
      );

  before(async function () {
    this.timeout(120_000);
    ({ api, token } = await startConsole({}, cheapScrypt(), temporarySqliteStorage()));
    const post = async (body: Record<string, unknown>) => {
      const res = await api.request('POST', '/api/v1/orders', { token, body });
      expect(res.status, res.text).to.equal(201);
    };
    for (const order of ORDERS) {
      const createdAt = new Date(TODAY - order.daysAgo * DAY + 3_600_000).toISOString();
      const gross = order.lines.reduce((sum, line) => sum + line.quantity * PRODUCTS[line.product].priceCents, 0);
      await post(
        anOrderPayload({
          externalId: order.externalId,
          status: order.status,
          createdAt,
          ...(order.status === 'paid' ? { paidAt: createdAt } : {}),
          amounts: { currency: order.campaign.currency, grossCents: gross, netToSellerCents: order.netCents },
          products: order.lines.map((line) => ({
            externalId: line.product,
            sku: line.product,
            name: `The ${line.product}`,
            quantity: line.quantity,
            unitPriceCents: PRODUCTS[line.product].priceCents,
          })),
          tracking: { utmSource: order.campaign.utmSource, utmMedium: 'cpc', utmCampaign: order.campaign.utmCampaign },
        }),
      );
    }
    const quiet = new Date(TODAY - QUIET_DAY * DAY + 3_600_000).toISOString();
    await post(
      anOrderPayload({
        externalId: 'quiet-day',
        status: 'paid',
        paidAt: quiet,
        createdAt: quiet,
        products: [{ externalId: 'TSH', sku: 'TSH', name: 'The TSH', quantity: 1, unitPriceCents: 10_000 }],
        amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_700 },
        tracking: { utmSource: 'email', utmMedium: 'email', utmCampaign: NEWSLETTER },
      }),
    );
    const costs = Object.entries(PRODUCTS).flatMap(([product, p]) =>
      'costCents' in p
        ? ['BRL', 'USD'].map((currency) => ({ product, currency, unitCostCents: p.costCents, from: dayOf(QUIET_DAY + 10) }))
        : [],
    );
    const stored = await api.request('PUT', '/api/v1/product-costs', { token, body: { entries: costs } });
    expect(stored.status, stored.text).to.equal(200);
    const spendOf = (c: { utmSource: string; utmCampaign: string; currency: string }, daysAgo: number, amountCents: number) => ({
      date: dayOf(daysAgo),
      utmSource: c.utmSource,
      utmMedium: 'cpc',
      utmCampaign: c.utmCampaign,
      currency: c.currency,
      amountCents,
    });
    const spend = [
      ...CAMPAIGNS.filter((c) => c.spendPerDay > 0).flatMap((c) => [1, 2, 3, 4, 5, 6].map((daysAgo) => spendOf(c, daysAgo, c.spendPerDay))),
      spendOf(SPENT_ONLY, SPENT_ONLY.daysAgo, SPENT_ONLY.amountCents),
    ];
    const spent = await api.request('PUT', '/api/v1/spend', { token, body: { entries: spend } });
    expect(spent.status, spent.text).to.equal(200);
    context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await open('/console/sign-in');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await clickAndLoad('button[type=submit]');
  });

  after(async () => {
    await context?.close();
    await api?.stop();
  });

  it('finds in its seed what the tests below need: losses in both currencies, a spend-only loss, profits, units without a cost', () => {
    const rows = directRows();
    expect(rows.filter((row) => row.profitCents < 0).map((row) => `${row.key} ${row.currency}`)).to.have.members([
      `facebook / ${LONG} BRL`,
      'tiktok / ugc tests for the spring catalogue BRL',
      'facebook / us-launch USD',
      'meta / nothing-sold BRL',
    ]);
    expect(rows.filter((row) => row.profitCents > 0)).to.have.length(2);
    const total = (currency: string) => rows.filter((row) => row.currency === currency).reduce((sum, row) => sum + row.profitCents, 0);
    expect(total('BRL'), 'BRL made money').to.be.greaterThan(0);
    expect(total('USD'), 'USD lost money').to.be.lessThan(0);
    expect(directUncosted('BRL').products).to.equal(2);
    expect(directUncosted('USD').units).to.be.greaterThan(0);
  });

  for (const width of [1280, 375]) {
    it(`marks every negative profit, margin and ROI with its sign, the colour of losses and the word, and no other, at ${width} px`, async function () {
      this.timeout(60_000);
      await page.setViewportSize({ width, height: 900 });
      await open('/console/reports?period=7&col=paidGrossCents&col=spendCents&col=profitCents&col=marginRate&col=roi');
      const expected = new Map(directRows().map((row) => [`${row.key} ${row.currency}`, row.profitCents]));
      const keys = await reportKeys();
      expect(keys).to.have.members([...expected.keys()]);
      for (const [i, key] of keys.entries()) {
        const row = page.locator('table.report tbody tr').nth(i);
        const lost = expected.get(key)! < 0;
        for (const metric of ['profitCents', 'marginRate', 'roi']) {
          const cell = row.locator(`td[data-metric="${metric}"]`);
          const figure = (await cell.textContent())!.trim();
          const marks = cell.locator('.loss');
          // The spend-only campaign has no revenue: its margin is not defined, so nothing to mark.
          const defined = !(metric === 'marginRate' && key.startsWith('meta /'));
          expect(await marks.count(), `${key}: ${metric} ${figure}`).to.equal(lost && defined ? 1 : 0);
          if (!lost || !defined) continue;
          expect(await marks.textContent(), `${key}: ${metric}`).to.match(/^-\S+ loss$/);
          expect(await marks.locator('.loss-word').textContent()).to.equal('loss');
          expect(await marks.evaluate((e) => (globalThis as unknown as Styles).getComputedStyle(e).color)).to.equal('rgb(164, 14, 38)');
        }
        expect(centsOf((await row.locator('td[data-metric="profitCents"]').textContent())!), key).to.equal(expected.get(key));
      }
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(width);
      // The Overview's card of a currency that lost money, and the Products page's gross margin below cost.
      await open('/console/overview?period=7');
      expect(await page.locator('dl[data-currency="USD"] dd[data-metric="profitCents"] .loss').textContent()).to.match(/^-\$[\d,.]+ loss$/);
      expect(await page.locator('dl[data-currency="BRL"] dd[data-metric="profitCents"] .loss').count()).to.equal(0);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await open('/console/products?period=7');
      // BAG costs more than it sells for: below zero in each currency it was paid in.
      const paidBags = new Set(
        ORDERS.filter((o) => o.status === 'paid' && o.lines.some((l) => l.product === 'BAG')).map((o) => o.campaign.currency),
      );
      expect(await page.locator('tr[data-product="BAG"] td[data-metric="grossMarginCents"] .loss').count()).to.equal(paidBags.size);
      expect(await page.locator('tr[data-product="TSH"] td[data-metric="grossMarginCents"] .loss').count()).to.equal(0);
      expect(await seriousViolations(page)).to.deep.equal([]);
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  }

  it('sorts Reports by a metric highest first, then lowest first on a second click, in the URL, on the server', async function () {
    this.timeout(60_000);
    await open('/console/reports?period=7');
    await clickAndLoad('th[data-metric="profitCents"] a');
    expect(new URL(page.url()).searchParams.get('sort')).to.equal('profitCents');
    expect(new URL(page.url()).searchParams.get('order')).to.equal('desc');
    expect(await page.locator('th[data-metric="profitCents"]').getAttribute('aria-sort')).to.equal('descending');
    expect(await reportKeys()).to.deep.equal(byProfit(directRows(), 'desc'));
    await clickAndLoad('th[data-metric="profitCents"] a');
    expect(new URL(page.url()).searchParams.get('order')).to.equal('asc');
    expect(await page.locator('th[data-metric="profitCents"]').getAttribute('aria-sort')).to.equal('ascending');
    expect(await page.locator('#order').inputValue()).to.equal('asc');
    const ascending = byProfit(directRows(), 'asc');
    expect(await reportKeys()).to.deep.equal(ascending);
    // The link keeps the order: opened anew, the page and its CSV come sorted from the server.
    const link = page.url();
    await page.goto('about:blank');
    await page.goto(link);
    expect(await reportKeys()).to.deep.equal(ascending);
    const csv = await page.evaluate(async (query) => (await fetch(`/console/reports.csv?${query}`)).text(), new URL(link).search.slice(1));
    const lines = csv.trim().split('\r\n');
    const column = lines[0].split(',').indexOf('profitCents');
    const profits = lines.slice(1).map((line) => Number(line.split(',')[column]));
    expect(profits).to.deep.equal([...profits].sort((a, b) => a - b));
    expect(profits).to.have.length(ascending.length);
    // Another metric, lowest first: a campaign without spend has no ROAS and comes last either way.
    await open('/console/reports?period=7&sort=roas&order=asc');
    const keys = await reportKeys();
    expect(keys[keys.length - 1]).to.equal(`email / ${NEWSLETTER} BRL`);
    await open('/console/reports?period=7&sort=roas&order=desc');
    expect((await reportKeys()).at(-1)).to.equal(`email / ${NEWSLETTER} BRL`);
  });

  for (const width of [1280, 375]) {
    it(`lists on the Overview the campaigns that lost money, biggest loss first, or says none did, at ${width} px`, async function () {
      this.timeout(30_000);
      await page.setViewportSize({ width, height: 900 });
      await open('/console/overview?period=7');
      const losers = directRows()
        .filter((row) => row.profitCents < 0)
        .sort((a, b) => a.profitCents - b.profitCents);
      const table = page.locator('div[aria-label="Campaigns that lost money"] table');
      const rows = table.locator('tbody tr');
      expect(
        await rows.evaluateAll((trs) => trs.map((tr) => `${tr.children[0].textContent!.trim()} / ${tr.children[1].textContent!.trim()}`)),
      ).to.deep.equal(losers.map((row) => row.key));
      const profits = await table.locator('td[data-metric="profitCents"]').allTextContents();
      expect(profits.map(centsOf)).to.deep.equal(losers.map((row) => row.profitCents));
      expect(await table.locator('td[data-metric="profitCents"] .loss-word').count()).to.equal(losers.length);
      expect(await page.locator('[data-none-lost]').count()).to.equal(0);
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(width);
      await open(`/console/overview?period=custom&from=${dayOf(QUIET_DAY)}&to=${dayOf(QUIET_DAY)}`);
      expect(await page.locator('[data-none-lost]').textContent()).to.equal('No campaign lost money in this period.');
      expect(await page.locator('div[aria-label="Campaigns that lost money"]').count()).to.equal(0);
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  }

  it('shows Reports’ default columns, and one more, within the window at 1280 px, its names broken only at a hyphen or a space', async function () {
    this.timeout(30_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const query of [
      'period=7',
      'period=7&col=orders&col=paidGrossCents&col=spendCents&col=roas&col=profitCents&col=marginRate&col=cpaCents',
    ]) {
      await open(`/console/reports?${query}`);
      const region = await page.locator('div.scroll:has(table.report)').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
      expect(region.scroll, query).to.be.at.most(region.client);
      // The window's width, less the page's margins: not the narrower column of the other pages.
      expect(region.client, query).to.be.at.least(1280 - 2 * 16 - 1);
      expect(await page.locator('table.report thead th').count(), query).to.equal(query.split('&col=').length > 1 ? 10 : 9);
    }
    let breaks = 0;
    for (const width of [1280, 375])
      for (const query of ['period=7', 'period=7&by1=utmCampaign']) {
        await page.setViewportSize({ width, height: 900 });
        await open(`/console/reports?${query}`);
        const found = await page.evaluate<{ bad: string[]; breaks: number }>(
          `(${BREAKS})(${JSON.stringify('table.report tbody th, table.report td[data-dimension]')})`,
        );
        expect(found.bad, `${query} at ${width} px`).to.deep.equal([]);
        breaks += found.breaks;
      }
    expect(breaks, 'the line breaks the long names took').to.be.greaterThan(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('says beside an incomplete profit how many units of how many products have no cost, linked to Costs, until they have one', async function () {
    this.timeout(60_000);
    await open('/console/overview?period=7');
    for (const currency of ['BRL', 'USD']) {
      const note = page.locator(`dl[data-currency="${currency}"] dd.uncosted`);
      const { units, products } = directUncosted(currency);
      expect(await note.getAttribute('data-uncosted-units'), currency).to.equal(String(units));
      expect(await note.getAttribute('data-uncosted-products'), currency).to.equal(String(products));
      expect((await note.textContent())!.replace(/\s+/g, ' ').trim()).to.equal(
        `Incomplete: ${units} units of ${products} product${products === 1 ? '' : 's'} without a cost. Add their costs`,
      );
    }
    await open('/console/reports?period=7');
    const all = directUncosted();
    const summary = page.locator('p.uncosted');
    expect(await summary.getAttribute('data-uncosted-units')).to.equal(String(all.units));
    expect(await summary.getAttribute('data-uncosted-products')).to.equal(String(all.products));
    const expected = new Map(directRows().map((row) => [`${row.key} ${row.currency}`, row.uncostedUnits]));
    for (const [i, key] of (await reportKeys()).entries()) {
      const note = page.locator('table.report tbody tr').nth(i).locator('td[data-metric="profitCents"] a.uncosted');
      const units = expected.get(key)!;
      expect(await note.count(), key).to.equal(units > 0 ? 1 : 0);
      if (units > 0) expect(await note.textContent(), key).to.equal(`Incomplete: ${units} unit${units === 1 ? '' : 's'} without a cost`);
    }
    await clickAndLoad('p.uncosted a');
    expect(new URL(page.url()).pathname).to.equal('/console/costs');
    // Once every product has a cost, no figure is incomplete.
    const costs = ['MUG', 'CAP'].flatMap((product) =>
      ['BRL', 'USD'].map((currency) => ({ product, currency, unitCostCents: 100, from: dayOf(QUIET_DAY + 10) })),
    );
    expect((await api.request('PUT', '/api/v1/product-costs', { token, body: { entries: costs } })).status).to.equal(200);
    for (const path of ['/console/overview?period=7', '/console/reports?period=7', '/console/products?period=7']) {
      await open(path);
      expect(await page.locator('.uncosted').count(), path).to.equal(0);
    }
  });

  it('takes a tax rate with a decimal comma or point, and names the field, the form and an example when it is not one', async function () {
    this.timeout(30_000);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await open('/console/settings');
      await page.fill('#taxRate', '10,5');
      await clickAndLoad('form[action="/console/settings"] button[type=submit]');
      expect(page.url()).to.contain('notice=saved');
      expect(await page.inputValue('#taxRate')).to.equal('10.5');
      await page.fill('#taxRate', '7.25');
      await clickAndLoad('form[action="/console/settings"] button[type=submit]');
      expect(await page.inputValue('#taxRate')).to.equal('7.25');
      // The service, not the browser, checks the form, so its answer can name the form with an example.
      expect(await page.locator('#taxRate').getAttribute('pattern')).to.equal(null);
      expect(await page.locator('#taxRate-form').textContent()).to.contain('10,5');
      await page.fill('#taxRate', '10,555');
      await clickAndLoad('form[action="/console/settings"] button[type=submit]');
      const alert = (await page.locator('[role=alert]').textContent())!;
      expect(alert).to.equal(
        'Tax rate: “10,555” is not a tax rate from 0 to 100; type a percent from 0 to 100 with at most 2 decimals, after a point or a comma, such as 10.5 or 10,5.',
      );
      expect(await page.inputValue('#taxRate'), 'what was typed, kept').to.equal('10,555');
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(width);
      await open('/console/settings');
      expect(await page.inputValue('#taxRate')).to.equal('7.25');
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
