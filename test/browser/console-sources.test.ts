import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { UseCases } from '../../src/application/use-cases';
import { compose } from '../../src/bootstrap/composition';
import { describeWithBrowser } from '../support/browser';
import { seriousViolations, widerThanViewport } from '../support/page-checks';
import { TestApi } from '../support/test-api';
import {
  createSource,
  fixture,
  hotmartEvent,
  HOTTOK,
  logOf,
  postHotmart,
  postStripe,
  postWooCommerce,
  STRIPE_SECRET,
  stripeEvent,
  WOOCOMMERCE_SECRET,
  WOOCOMMERCE_SHOP,
} from '../http/sources/source-deliveries';

const OWNER = { email: 'owner@shop.example', password: 'owner password 123' };
const ANALYST = { email: 'analyst@shop.example', password: 'analyst password 1' };
const SCREENSHOTS = join(process.cwd(), '.build', 'test-output', 'console');

describeWithBrowser('the console’s Sources pages in Chromium (decisions 0021, 0022)', (browser: () => Browser) => {
  let api: TestApi;
  let useCases: UseCases;
  let dashboardId: string;
  let token: string;
  let ownerId: string;
  let context: BrowserContext;
  let page: Page;

  const client = () => ({ api, token });
  const open = async (path: string): Promise<number> => (await page.goto(api.url + path))?.status() ?? 0;
  const text = async (selector: string): Promise<string> => (await page.textContent(selector))?.trim() ?? '';
  /** Clicks a form's button and waits for the page its redirect leads to. */
  const submit = async (selector: string): Promise<void> => {
    const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.click(selector);
    await navigated;
    await page.waitForLoadState('load');
  };
  const signIn = async (who: { email: string; password: string }): Promise<void> => {
    await open('/console/sign-in');
    await page.fill('#email', who.email);
    await page.fill('#password', who.password);
    await submit('button[type=submit]');
  };
  const sourcesOfApi = async (): Promise<{ id: string; name: string }[]> =>
    (await api.request('GET', '/api/v1/sources', { token })).body.sources;
  /**
   * A form posted from the page itself, as its script could: the answer's status and where it led
   * (`follow`), or the answer itself (status 0 for a redirect, which a fetch does not show).
   */
  const post = (path: string, fields: Record<string, string>, follow = true): Promise<{ status: number; url: string }> =>
    page.evaluate(
      async ({ path, fields, follow }) => {
        const response = await fetch(path, { method: 'POST', body: new URLSearchParams(fields), redirect: follow ? 'follow' : 'manual' });
        return { status: response.status, url: response.url };
      },
      { path, fields, follow },
    );
  const csrf = async (): Promise<string> => (await page.locator('input[name=csrf]').first().getAttribute('value'))!;

  beforeEach(async function () {
    this.timeout(60_000);
    const storage = inMemoryStorage();
    api = await TestApi.start({}, { storage });
    ({ dashboardId, token } = await api.newDashboard('Console shop'));
    ({ useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    }));
    const owner = await useCases.createOwner.execute(dashboardId, OWNER.email, OWNER.password);
    if (owner._tag === 'Left') throw new Error('the owner could not be made');
    ownerId = owner.right.user.id;
    context = await browser().newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
  });

  afterEach(async () => {
    await context.close();
    await api.stop();
  });

  it('creates a source, shows the URL to paste with the platform’s steps, and logs what each delivery did', async () => {
    await signIn(OWNER);
    await open('/console/sources');
    expect(await page.locator('nav.main a').allTextContents()).to.include('Sources');
    expect(await text('main')).to.contain('No sources yet.');
    await page.selectOption('#platform', 'hotmart');
    await page.fill('#name', 'Hotmart courses');
    await page.fill('#secret', HOTTOK);
    await submit('form[action="/console/sources"] button[type=submit]');
    const [source] = await sourcesOfApi();
    expect(new URL(page.url()).pathname).to.equal(`/console/sources/${source.id}`);
    expect(await text('[role=status]')).to.equal('The source was created. Paste its URL into the platform as the steps below say.');
    expect(await text('h1')).to.equal('Source “Hotmart courses”');
    expect(await text('#source-url')).to.equal(`${api.url}/in/v1/${source.id}`);
    expect(await text('main ol'))
      .to.contain('Tools → Webhook (API and notifications)')
      .and.contain('Hottok');
    await page.reload();
    expect(await sourcesOfApi(), 'a reload repeats nothing').to.have.length(1);

    const sold = hotmartEvent('PURCHASE_APPROVED', { id: 'evt-approved' });
    expect((await postHotmart(client(), source.id, sold)).body.outcome).to.equal('created');
    expect((await postHotmart(client(), source.id, hotmartEvent('PURCHASE_REFUNDED', { id: 'evt-refunded' }))).body.outcome).to.equal(
      'refused',
    );
    expect((await postHotmart(client(), source.id, fixture('hotmart', 'purchase-approved'))).body.outcome).to.equal('ignored');
    expect((await postHotmart(client(), source.id, sold, { hottok: 'not the hottok' })).status).to.equal(401);
    await open(`/console/sources/${source.id}`);
    const rows = page.locator('tr[data-delivery]');
    expect(await rows.count()).to.equal(4);
    const cells = (await rows.nth(3).locator('td').allTextContents()).map((cell) => cell.trim());
    expect(cells[0]).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} (UTC|GMT[+-]\d+|[A-Z]{3,4})$/);
    expect(cells.slice(1)).to.deep.equal([
      'evt-approved',
      'PURCHASE_APPROVED',
      'Created the order',
      'recorded as paid',
      'hotmart:HP16015479281022',
    ]);
    expect(await rows.nth(3).locator('a').getAttribute('href')).to.equal('/console/orders/hotmart%3AHP16015479281022');
    expect(await rows.nth(2).locator('td').nth(4).textContent()).to.equal(
      'the transition table does not allow paid → refunded: add "refunded" to the list of "paid" in ORDER_TRANSITIONS_FILE',
    );
    expect(await rows.nth(1).locator('td').nth(4).textContent()).to.equal("Hotmart's test event (product id 0)");
    expect(await rows.nth(0).locator('td').nth(4).textContent()).to.equal(
      'bad signature: X-HOTMART-HOTTOK is not the hottok of this source',
    );
    expect(await text('#allow-transitions'))
      .to.contain('ORDER_TRANSITIONS_FILE')
      .and.contain('resend the event from the platform');
    expect(await text('#check-secret')).to.contain('replace it above');
  });

  it('renames, replaces the secret (the old one refused from then on) and deletes, each answered by a redirect', async () => {
    const source = await createSource(client(), 'woocommerce', WOOCOMMERCE_SECRET);
    await signIn(OWNER);
    await open(`/console/sources/${source.id}`);
    expect(await text('main ol')).to.contain('WooCommerce → Settings → Advanced → Webhooks');
    await page.fill('#name', 'The WooCommerce shop');
    await submit(`form[action="/console/sources/${source.id}/rename"] button`);
    expect(new URL(page.url()).search).to.equal('?notice=renamed');
    expect(await text('h1')).to.equal('Source “The WooCommerce shop”');
    await page.fill('#secret', ' new secret with spaces ');
    await submit(`form[action="/console/sources/${source.id}/secret"] button`);
    expect(await text('[role=status]')).to.equal('The secret was replaced: from now on only deliveries signed with the new one pass.');
    const order = fixture('woocommerce', 'order');
    expect((await postWooCommerce(client(), source.id, 'order.created', order)).status).to.equal(401);
    const signed = await postWooCommerce(client(), source.id, 'order.created', order, { secret: ' new secret with spaces ' });
    expect(signed.body.outcome).to.equal('created');
    await submit(`form[action="/console/sources/${source.id}/delete"] button`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).to.equal('/console/sources?notice=deleted');
    expect(await text('main')).to.contain('No sources yet.');
    expect((await postWooCommerce(client(), source.id, 'order.created', order)).status).to.equal(404);
    expect(await open(`/console/sources/${source.id}`)).to.equal(404);
    expect((await api.request('GET', `/api/v1/orders/woocommerce:${WOOCOMMERCE_SHOP}:727`, { token })).status, 'its orders stay').to.equal(
      200,
    );
  });

  it('creates a Stripe source before Stripe shows its secret, refusing every delivery until it is pasted', async () => {
    await signIn(OWNER);
    await open('/console/sources');
    await page.selectOption('#platform', 'stripe');
    await page.fill('#name', 'Payment Links');
    await submit('form[action="/console/sources"] button[type=submit]');
    expect(await text('[role=status]')).to.contain('without the platform’s secret');
    expect(await text('main ol'))
      .to.contain('Developers → Webhooks')
      .and.contain('checkout.session.completed');
    const [source] = await sourcesOfApi();
    expect((await postStripe(client(), source.id, stripeEvent('payment_intent.succeeded'))).status).to.equal(401);
    await page.fill('#secret', STRIPE_SECRET);
    await submit(`form[action="/console/sources/${source.id}/secret"] button`);
    expect((await postStripe(client(), source.id, stripeEvent('payment_intent.succeeded'))).body.outcome).to.equal('created');
    expect((await logOf(client(), source.id)).map((line) => line.outcome)).to.deep.equal(['created', 'refused']);
  });

  it('sends a form with a problem back to itself with the problem said and the platform and name kept', async () => {
    await signIn(OWNER);
    await open('/console/sources');
    const answered = await post('/console/sources', { csrf: await csrf(), platform: 'hotmart', name: 'Courses', secret: 'tab\there' });
    expect(answered.status).to.equal(200);
    expect(answered.url).to.equal(`${api.url}/console/sources?problem=secret&platform=hotmart&name=Courses`);
    await page.goto(answered.url);
    expect(await text('[role=alert]')).to.contain('printable ASCII');
    expect(await page.inputValue('#name')).to.equal('Courses');
    expect(await page.inputValue('#platform')).to.equal('hotmart');
    expect((await post('/console/sources', { csrf: await csrf(), platform: 'paypal', name: 'x' })).url).to.contain('problem=platform');
    expect((await post('/console/sources', { csrf: await csrf(), platform: 'stripe', name: ' ' })).url).to.contain('problem=name');
    expect(await sourcesOfApi()).to.deep.equal([]);
  });

  it('refuses the pages and their forms to analysts, and any form without the session’s CSRF token', async () => {
    const source = await createSource(client(), 'shopify', 'shpss_secret');
    await signIn(OWNER);
    await open('/console/sources');
    expect((await post('/console/sources', { platform: 'stripe', name: 'no token' }, false)).status).to.equal(403);
    expect((await post(`/console/sources/${source.id}/delete`, {}, false)).status).to.equal(403);
    await context.clearCookies();
    const invited = await useCases.inviteMember.execute({ ownerId: ownerId }, dashboardId, ANALYST.email, 'analyst');
    if (invited._tag === 'Left') throw new Error('the invitation failed');
    expect(
      (await useCases.acceptInvitation.execute({ token: invited.right.token, password: ANALYST.password, address: '127.0.0.1' }))._tag,
    ).to.equal('Right');
    await signIn(ANALYST);
    expect(await page.locator('nav.main a').allTextContents()).not.to.include('Sources');
    expect(await open('/console/sources')).to.equal(403);
    expect(await open(`/console/sources/${source.id}`)).to.equal(403);
    await open('/console/overview');
    const token = await csrf();
    expect((await post('/console/sources', { csrf: token, platform: 'stripe', name: 'sneaky' }, false)).status).to.equal(403);
    expect((await post(`/console/sources/${source.id}/rename`, { csrf: token, name: 'sneaky' }, false)).status).to.equal(403);
    expect((await post(`/console/sources/${source.id}/secret`, { csrf: token, secret: 'sneaky' }, false)).status).to.equal(403);
    expect((await post(`/console/sources/${source.id}/delete`, { csrf: token }, false)).status).to.equal(403);
    expect((await sourcesOfApi()).map(({ id, name }) => ({ id, name }))).to.deep.equal([{ id: source.id, name: 'shopify shop' }]);
  });

  it('passes axe-core and fits 375 px on both pages, with a long name, a long URL and a log that needs its hints', async function () {
    this.timeout(120_000);
    const long = `Hotmart-${'courses'.repeat(27)}`;
    const source = await createSource(client(), 'hotmart', HOTTOK);
    await api.request('PATCH', `/api/v1/sources/${source.id}`, { token, body: { name: long } });
    await postHotmart(client(), source.id, hotmartEvent('PURCHASE_APPROVED'));
    await postHotmart(client(), source.id, hotmartEvent('PURCHASE_REFUNDED'));
    await postHotmart(client(), source.id, hotmartEvent('PURCHASE_APPROVED'), { hottok: 'wrong' });
    await signIn(OWNER);
    const narrow = await browser().newContext({ viewport: { width: 375, height: 800 }, bypassCSP: true });
    try {
      const phone = await narrow.newPage();
      const asked: string[] = [];
      phone.on('request', (request) => asked.push(request.url()));
      await narrow.addCookies(await context.cookies());
      mkdirSync(SCREENSHOTS, { recursive: true });
      const pages = [
        ['sources', '/console/sources'],
        ['source', `/console/sources/${source.id}`],
        ['sources-problem', '/console/sources?problem=secret&platform=stripe&name=x'],
      ] as const;
      for (const [name, path] of pages) {
        expect((await phone.goto(api.url + path))?.status(), path).to.equal(200);
        expect(await seriousViolations(phone), path).to.deep.equal([]);
        expect(await widerThanViewport(phone), `${path}: what is wider than 375 px`).to.deep.equal([]);
        await phone.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
      }
      expect(asked.filter((url) => new URL(url).origin !== new URL(api.url).origin)).to.deep.equal([]);
    } finally {
      await narrow.close();
    }
  });
});
