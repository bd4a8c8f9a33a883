import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { compose } from '../../src/bootstrap/composition';
import type { Storage } from '../../src/application/ports/storage';
import { describeWithBrowser } from '../support/browser';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';

const OWNER = { email: 'owner@shop.example', password: 'owner password 123' };
const ANALYST = { email: 'analyst@shop.example', password: 'analyst password 1' };
const SCREENSHOTS = join(process.cwd(), '.build', 'test-output', 'console');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Every page of the console, as an owner sees them. */
const PAGES = ['overview', 'orders', 'reports', 'spend', 'links', 'webhooks', 'tokens', 'members', 'settings', 'password'] as const;

describeWithBrowser('the console in Chromium (decision 0018)', (browser: () => Browser) => {
  let storage: Storage;
  let api: TestApi;
  let dashboardId: string;
  let token: string;
  let context: BrowserContext;
  let page: Page;
  /** Every URL the pages asked for. */
  let requested: string[];

  const open = async (path: string): Promise<number> => (await page.goto(api.url + path))?.status() ?? 0;
  const signIn = async (who: { email: string; password: string }): Promise<void> => {
    await open('/console/sign-in');
    await page.fill('#email', who.email);
    await page.fill('#password', who.password);
    await submit('button[type=submit]');
  };
  /** Clicks a form's button and waits for the page it answers with (after any redirect) to load. */
  const submit = async (selector: string): Promise<void> => {
    const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.click(selector);
    await navigated;
    await page.waitForLoadState('load');
  };
  const text = async (selector: string): Promise<string> => (await page.textContent(selector))?.trim() ?? '';

  before(async function () {
    this.timeout(60_000);
    mkdirSync(SCREENSHOTS, { recursive: true });
  });

  beforeEach(async function () {
    this.timeout(60_000);
    storage = inMemoryStorage();
    api = await TestApi.start({}, { storage });
    ({ dashboardId, token } = await api.newDashboard('Console shop'));
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    const made = await useCases.createOwner.execute(dashboardId, OWNER.email, OWNER.password);
    expect(made._tag).to.equal('Right');
    context = await browser().newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    requested = [];
    page.on('request', (request) => requested.push(request.url()));
  });

  afterEach(async () => {
    await context.close();
    await api.stop();
  });

  it('signs in, refusing a wrong password with the same words as an unknown email', async () => {
    await signIn({ email: OWNER.email, password: 'not the password' });
    expect(await text('[role=alert]')).to.equal('The email or the password is wrong.');
    await signIn({ email: 'nobody@shop.example', password: 'not the password' });
    expect(await text('[role=alert]')).to.equal('The email or the password is wrong.');
    await signIn(OWNER);
    expect(new URL(page.url()).pathname).to.equal('/console/overview');
    expect(await text('h1')).to.equal('Overview');
    const cookie = (await context.cookies()).find((c) => c.name === 'orders_session');
    expect(cookie).to.deep.include({ httpOnly: true, sameSite: 'Lax', path: '/console' });
  });

  it('shows on the Overview the figures the reports API gives for the same period, and ROAS once spend is uploaded', async () => {
    const today = new Date().toISOString();
    const orders = [
      { externalId: 'o-1', status: 'paid', amounts: { currency: 'BRL', grossCents: 15_990, netToSellerCents: 14_000 } },
      { externalId: 'o-2', status: 'paid', amounts: { currency: 'BRL', grossCents: 4_010, netToSellerCents: 3_500 } },
      { externalId: 'o-3', status: 'refused', amounts: { currency: 'BRL', grossCents: 9_900, netToSellerCents: 9_000 } },
      { externalId: 'o-4', status: 'pending', amounts: { currency: 'USD', grossCents: 2_500, netToSellerCents: 2_000 } },
    ];
    for (const o of orders)
      expect((await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ ...o, createdAt: today }) })).status).to.equal(
        201,
      );
    await signIn(OWNER);
    await open('/console/overview?period=7');
    const range = page.locator('#period-range');
    const [from, to] = [await range.getAttribute('data-from'), await range.getAttribute('data-to')];
    const series = await api.request('GET', `/api/v1/reports/timeseries?from=${from}&to=${to}&interval=day`, { token });
    expect(series.status, series.text).to.equal(200);
    for (const { currency, buckets } of series.body.series as { currency: string; buckets: Record<string, number>[] }[]) {
      const sum = (metric: string) => buckets.reduce((total, b) => total + (b[metric] ?? 0), 0);
      const card = (metric: string) => page.locator(`dl[data-currency="${currency}"] [data-metric="${metric}"]`);
      expect(await card('orders').textContent(), currency).to.equal(String(sum('orders')));
      expect(Number(await card('paidGrossCents').getAttribute('data-value')), currency).to.equal(sum('paidGrossCents'));
      expect(Number(await card('refundedCents').getAttribute('data-value')), currency).to.equal(sum('refundedCents'));
    }
    expect(await page.locator('dl[data-currency="BRL"] [data-metric="paidGrossCents"]').textContent()).to.equal('R$200.00');
    expect(await page.locator('dl[data-currency="BRL"] [data-metric="roas"]').textContent()).to.equal('—');
    // No cost nor tax yet: the profit is what the paid orders netted, R$140.00 + R$35.00.
    expect(await page.locator('dl[data-currency="BRL"] [data-metric="profitCents"]').textContent()).to.equal('R$175.00');
    expect(await page.locator('svg.chart').evaluateAll((charts) => charts.map((c) => c.getAttribute('data-metric')))).to.deep.equal([
      'paidGrossCents',
      'spendCents',
      'profitCents',
    ]);

    // Spend for today's campaign, uploaded as a CSV file through the form.
    const day = today.slice(0, 10);
    await open('/console/spend');
    await page.setInputFiles('#file', {
      name: 'spend.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount\n${day},google,cpc,black-friday,,BRL,50.00\n`,
      ),
    });
    await submit('form[enctype] button[type=submit]');
    expect(await text('[role=status]')).to.equal('1 entry stored.');
    await open('/console/overview?period=7');
    expect(await page.locator('dl[data-currency="BRL"] [data-metric="roas"]').textContent()).to.equal('4.00x');
    expect(await page.locator('dl[data-currency="BRL"] [data-metric="spendCents"]').getAttribute('data-value')).to.equal('5000');
    expect(await page.locator('dl[data-currency="BRL"] [data-metric="profitCents"]').getAttribute('data-value')).to.equal('12500');
  });

  it('creates a token with the scopes chosen, shows it once, and revokes it', async () => {
    await signIn(OWNER);
    await open('/console/tokens');
    await page.fill('#name', 'checkout');
    await page.check('#scope-orders-write');
    await submit('form[action="/console/tokens"] button[type=submit]');
    const plain = await text('#shown-secret');
    expect(plain).to.match(/^ok_live_/);
    expect(
      (await api.request('POST', '/api/v1/orders', { token: plain, body: anOrderPayload({ externalId: 'via-console-token' }) })).status,
    ).to.equal(201);
    expect((await api.request('GET', '/api/v1/orders', { token: plain })).status).to.equal(403);
    await open('/console/tokens');
    expect(await page.content()).not.to.contain(plain);
    await submit('button[aria-label="Revoke the token checkout"]');
    expect(await text('[role=status]')).to.contain('revoked');
    expect(
      (await api.request('POST', '/api/v1/orders', { token: plain, body: anOrderPayload({ externalId: 'after-revoke' }) })).status,
    ).to.equal(401);
  });

  it('builds a link with a preview, saves it, and its short link redirects and counts the click', async () => {
    await signIn(OWNER);
    await open('/console/links');
    await page.fill('#destinationUrl', 'https://shop.example/products/tee');
    await page.fill('#utmSource', 'facebook');
    await page.fill('#utmMedium', 'paid social');
    await page.fill('#utmCampaign', 'black-friday');
    await submit('button[value=preview]');
    expect(await text('#link-preview')).to.equal(
      'https://shop.example/products/tee?utm_source=facebook&utm_medium=paid%20social&utm_campaign=black-friday',
    );
    await submit('button[value=save]');
    const short = await page.locator('a[data-short-link]').first().getAttribute('href');
    const followed = await fetch(short!, { redirect: 'manual' });
    expect(followed.status).to.equal(302);
    expect(followed.headers.get('location')).to.equal(
      'https://shop.example/products/tee?utm_source=facebook&utm_medium=paid%20social&utm_campaign=black-friday',
    );
    await open('/console/links');
    expect(await page.locator('tbody tr td.num').first().textContent()).to.equal('1');
  });

  it('registers a webhook to a receiver on loopback, sends a test, shows the attempt in the log, and retries it', async function () {
    this.timeout(60_000);
    const receiver = await WebhookReceiver.start();
    try {
      await signIn(OWNER);
      await open('/console/webhooks');
      await page.fill('#url', `http://127.0.0.1:${receiver.port}/hooks`);
      await submit('form[action="/console/webhooks"] button[type=submit]');
      expect(await text('#shown-secret')).to.match(/^whsec_/);
      await Promise.all([page.waitForURL(/\/console\/webhooks\/whk_/), page.click('table a')]);
      // The form's answer is a redirect to the endpoint's page with a notice: wait for it before reloading.
      await Promise.all([page.waitForURL(/notice=tested/), page.click('button:text("Send a test event")')]);
      await eventually('the test event', async () => receiver.received.length >= 1, 20_000);
      await eventually(
        'the attempt in the log',
        async () => {
          await page.reload();
          return (await page.locator('tr[data-delivery] li').count()) >= 1;
        },
        20_000,
      );
      expect(await page.locator('tr[data-delivery] li').first().textContent()).to.contain('HTTP 204');
      await Promise.all([page.waitForURL(/notice=retried/), page.click('tr[data-delivery] button:text("Retry")')]);
      await eventually('the retry', async () => receiver.received.length >= 2, 20_000);
      await eventually(
        'two attempts in the log',
        async () => {
          await page.reload();
          return (await page.locator('tr[data-delivery] li').count()) >= 2;
        },
        20_000,
      );
      expect(receiver.received[1].headers['webhook-id']).to.equal(receiver.received[0].headers['webhook-id']);
    } finally {
      await receiver.stop();
    }
  });

  it('refuses an analyst the owners’ pages and actions on the server, not only in the menu', async () => {
    await signIn(OWNER);
    await open('/console/members');
    await page.fill('#email', ANALYST.email);
    await submit('form[action="/console/members"] button[type=submit]');
    const invitation = await text('#shown-secret');
    const csrfOfOwner = await page.locator('input[name=csrf]').first().getAttribute('value');
    await context.clearCookies();
    await page.goto(invitation);
    await page.fill('#password', ANALYST.password);
    await submit('button[type=submit]');
    expect(new URL(page.url()).pathname).to.equal('/console/overview');
    const menu = await page.locator('nav.main a').allTextContents();
    expect(menu).to.deep.equal(['Overview', 'Orders', 'Reports', 'Products', 'Spend', 'Costs', 'Links']);
    for (const path of ['tokens', 'webhooks', 'members', 'settings']) {
      expect(await open(`/console/${path}`), path).to.equal(403);
    }
    await open('/console/overview');
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    expect(csrf).not.to.equal(csrfOfOwner);
    const posted = await page.evaluate(
      async ({ csrf }) => {
        const body = new URLSearchParams({ csrf: csrf!, name: 'sneaky', scope: 'orders:read' });
        return (await fetch('/console/tokens', { method: 'POST', body })).status;
      },
      { csrf },
    );
    expect(posted).to.equal(403);
    expect(
      (await api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`)).body.tokens.map((t: { name: string }) => t.name),
    ).not.to.include('sneaky');
  });

  it('refuses a form posted from another origin, and one without the session’s CSRF token', async () => {
    await signIn(OWNER);
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const other: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<form method="post" action="${api.url}/console/tokens"><input name="csrf" value="${csrf}"><input name="name" value="evil"><input name="scope" value="orders:read"><button>go</button></form>`,
      );
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
      await page.goto(otherOrigin);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/console/tokens')), page.click('button')]);
      expect(response.status()).to.equal(403);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    await open('/console/tokens');
    const withoutToken = await page.evaluate(
      async () =>
        (await fetch('/console/tokens', { method: 'POST', body: new URLSearchParams({ name: 'x', scope: 'orders:read' }) })).status,
    );
    expect(withoutToken).to.equal(403);
    expect((await api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`)).body.tokens).to.have.length(1);
  });

  it('passes axe-core on every page, fits 375 px, asks nothing of another origin, and leaves a screenshot of each', async function () {
    this.timeout(120_000);
    expect((await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ externalId: 'shown' }) })).status).to.equal(201);
    await signIn(OWNER);
    const narrow = await browser().newContext({ viewport: { width: 375, height: 800 }, bypassCSP: true });
    try {
      const phone = await narrow.newPage();
      const asked: string[] = [];
      phone.on('request', (request) => asked.push(request.url()));
      await narrow.addCookies(await context.cookies());
      for (const name of [...PAGES, 'orders/shown', 'sign-in']) {
        const response = await phone.goto(`${api.url}/console/${name}`);
        expect(response?.status(), name).to.equal(200);
        await phone.evaluate(AXE);
        const violations = await phone.evaluate<string[]>(
          `axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
        );
        expect(violations, name).to.deep.equal([]);
        const overflow = await phone.evaluate<string[]>(
          `[...document.querySelectorAll('body *')].filter((e) => !e.closest('.scroll') && e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((e) => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5)`,
        );
        expect(overflow, `${name}: what is wider than 375 px`).to.deep.equal([]);
        await phone.screenshot({ path: join(SCREENSHOTS, `${name.replace('/', '-')}.png`), fullPage: true });
      }
      const origin = new URL(api.url).origin;
      expect([...asked, ...requested].filter((url) => new URL(url).origin !== origin)).to.deep.equal([]);
    } finally {
      await narrow.close();
    }
  });

  it('sends the headers that keep pages to this origin, and serves its assets for a year under their hash', async () => {
    const res = await fetch(`${api.url}/console/sign-in`);
    expect(res.headers.get('content-security-policy'))
      .to.contain("frame-ancestors 'none'")
      .and.to.contain("script-src 'self'")
      .and.not.to.contain('unsafe-inline');
    const css = /href="(\/console\/assets\/console\.[0-9a-f]{12}\.css)"/.exec(await res.text())![1];
    const asset = await fetch(api.url + css);
    expect(asset.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    const off = await TestApi.start({ console: false }, { storage: inMemoryStorage() });
    try {
      expect((await fetch(`${off.url}/console/sign-in`)).status).to.equal(404);
    } finally {
      await off.stop();
    }
  });
});
