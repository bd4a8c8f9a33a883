import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { compose } from '../../src/bootstrap/composition';
import { describeWithBrowser } from '../support/browser';
import { OWNER, startConsole, type ConsoleWorld } from '../support/console-world';
import { FakeConversionPlatforms } from '../support/fake-conversion-platforms';
import { cheapScrypt } from '../support/held-hasher';
import { anOrderPayload } from '../support/order-builder';
import { seriousViolations, widerThanViewport } from '../support/page-checks';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';

const ANALYST = { email: 'analyst@shop.example', password: 'analyst password 1' } as const;

describeWithBrowser('turning the purchases sent back on and off on the console’s Ad accounts pages in Chromium', (browser) => {
  let fake: FakeConversionPlatforms;
  let receiver: WebhookReceiver;
  let world: ConsoleWorld;
  let context: BrowserContext;
  let page: Page;

  const open = async (path: string): Promise<number> => (await page.goto(world.api.url + path))?.status() ?? 0;
  const text = async (selector: string): Promise<string> => ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
  /** Clicks a form's button; resolves the status of the page it leads to (after a redirect, the page's). */
  const submit = async (selector: string): Promise<number> => {
    const navigated = page.waitForNavigation();
    await page.click(selector);
    const response = await navigated;
    await page.waitForLoadState('load');
    return response?.status() ?? 0;
  };
  const signIn = async (who: { readonly email: string; readonly password: string }): Promise<void> => {
    await open('/console/sign-in');
    await page.fill('#email', who.email);
    await page.fill('#password', who.password);
    await submit('button[type=submit]');
  };
  const checked = async (): Promise<void> => {
    expect(await seriousViolations(page)).to.deep.equal([]);
    expect(await widerThanViewport(page)).to.deep.equal([]);
  };
  const accountOf = async (id: string) =>
    (await world.api.request('GET', `/api/v1/ad-accounts/${id}`, { token: world.token })).body.adAccount;
  const conversionsOf = async (id: string) =>
    (await world.api.request('GET', `/api/v1/ad-accounts/${id}/conversions`, { token: world.token })).body;
  const paidOrder = async (externalId: string): Promise<string> => {
    const created = await world.api.request('POST', '/api/v1/orders', {
      token: world.token,
      body: anOrderPayload({
        externalId,
        status: 'paid',
        createdAt: new Date(Date.now() - 60_000).toISOString(),
        customer: { email: 'buyer@example.com' },
        trackingExtras: { fbclid: `IwAR-${externalId}` },
      }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.order.id;
  };
  const connect = async (body: Record<string, unknown>): Promise<string> => {
    const created = await world.api.request('POST', '/api/v1/ad-accounts', {
      token: world.token,
      body: { name: 'Shop ads', campaignKey: 'name', ...body },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.adAccount.id;
  };
  const start = async (width: number): Promise<void> => {
    const base = testConfig();
    world = await startConsole({
      ads: {
        ...base.ads,
        ...fake.settings,
        pollIntervalMs: 50,
        conversionPollIntervalMs: 50,
        conversionRetrySchedule: [3600],
        credentialsKey: TEST_CREDENTIALS_KEY,
      },
    });
    // The webhook of an order is made in the same write as its conversions: once it arrives, they exist.
    const hooked = await world.api.request('POST', '/api/v1/webhooks', {
      token: world.token,
      body: { url: receiver.url(), events: ['order.paid'] },
    });
    expect(hooked.status).to.equal(201);
    context = await browser().newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
  };

  beforeEach(async () => {
    fake = await FakeConversionPlatforms.start();
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await context?.close();
    await world?.api.stop();
    await receiver.stop();
    await fake.stop();
  });

  for (const width of [1280, 375]) {
    it(`switches Meta's purchases on when connecting and off on the account's page: one paid order reaches Meta once, the next nothing (${width} px)`, async function () {
      this.timeout(90_000);
      await start(width);
      await signIn(OWNER);
      await open('/console/ad-accounts');
      await page.selectOption('#platform', 'meta');
      await submit('form[action="/console/ad-accounts"][method=get] button[type=submit]');
      expect(await text('label[for=sendPurchases]')).to.equal('Send purchases to Meta');
      expect(await page.getAttribute('#sendPurchases', 'role')).to.equal('switch');
      expect(await page.isChecked('#sendPurchases'), 'off by default').to.equal(false);
      expect(await text('#sendPurchases-help'))
        .to.contain('the click id of the buyer’s visit (fbclid) and the SHA-256 hashes of the buyer’s email and phone')
        .and.contain('docs/ad-platforms.md, “Personal data and consent”')
        .and.contain('marked Not sent');
      expect(await text('label[for=pixelId]')).to.equal('Dataset (pixel) id');
      expect(await page.locator('#conversionAction, #pixelCode, #validateOnly').count()).to.equal(0);
      await checked();

      await page.fill('#name', 'Meta shop');
      await page.fill('#accountId', 'act_1234567890');
      await page.fill('#accessToken', fake.credentials.meta);
      await page.check('#sendPurchases');
      await page.fill('#pixelId', 'px-998877');
      await page.fill('#testEventCode', 'TEST 42');
      expect(await submit('form[action="/console/ad-accounts"][method=post] button[type=submit]')).to.equal(400);
      expect(await text('[role=alert]'))
        .to.contain('The account was not connected')
        .and.contain("Dataset (pixel) id must be the dataset's id: digits, as Meta's Events Manager shows it (1234567890123456)")
        .and.contain("Test event code must be the code the platform's Test events view shows: letters and digits (TEST12345)");
      expect(await text('#pixelId-problem')).to.contain('(1234567890123456)');
      expect(await page.getAttribute('#pixelId', 'aria-invalid')).to.equal('true');
      expect(await page.inputValue('#pixelId')).to.equal('px-998877');
      expect(await page.inputValue('#testEventCode')).to.equal('TEST 42');
      expect(await page.inputValue('#name')).to.equal('Meta shop');
      expect(await page.inputValue('#accountId')).to.equal('act_1234567890');
      expect(await page.isChecked('#sendPurchases')).to.equal(true);
      expect(await page.inputValue('#accessToken'), 'a credential is never sent back').to.equal('');
      expect(await page.content()).to.not.contain(fake.credentials.meta);
      expect((await world.api.request('GET', '/api/v1/ad-accounts', { token: world.token })).body.adAccounts).to.deep.equal([]);
      await checked();

      await page.fill('#pixelId', '998877');
      await page.fill('#testEventCode', '');
      await page.fill('#accessToken', fake.credentials.meta);
      expect(await submit('form[action="/console/ad-accounts"][method=post] button[type=submit]')).to.equal(200);
      const id = /^\/console\/ad-accounts\/(ada_\w+)$/.exec(new URL(page.url()).pathname)?.[1] ?? '';
      expect(id).to.not.equal('');
      expect(await text('#conversions-state')).to.contain('On: each order that becomes paid is sent to the dataset (pixel) 998877.');
      expect(await page.isChecked('#sendPurchases')).to.equal(true);
      expect(await page.inputValue('#pixelId')).to.equal('998877');
      expect((await accountOf(id)).conversions).to.include({ enabled: true, pixelId: '998877' });

      const first = await paidOrder('shop-1001');
      await eventually('the purchase accepted by Meta', async () => (await conversionsOf(id)).conversions[0]?.status === 'succeeded');
      await receiver.waitFor(1);
      expect(fake.of('meta')).to.have.length(1);
      const [sent] = fake.of('meta');
      expect(sent.path).to.equal('/v25.0/998877/events');
      expect(sent.body.test_event_code).to.equal(undefined);
      expect(sent.body.data).to.have.length(1);
      expect(sent.body.data[0]).to.include({ event_name: 'Purchase', event_id: first });
      expect(sent.body.data[0].user_data.fbc).to.match(/^fb\.1\.\d+\.IwAR-shop-1001$/);
      await page.reload();
      expect(await text('tr[data-conversion]'))
        .to.contain('shop-1001')
        .and.contain('Accepted');
      await checked();

      await page.uncheck('#sendPurchases');
      expect(await submit(`form[action="/console/ad-accounts/${id}/conversions"] button[type=submit]`)).to.equal(200);
      expect(await text('[role=status]')).to.contain('Saved: paid orders are no longer sent.');
      expect(await text('#conversions-state')).to.equal('Off: no order is sent to Meta.');
      expect(await page.isChecked('#sendPurchases')).to.equal(false);
      expect(await page.inputValue('#pixelId'), 'the dataset is kept for turning it on again').to.equal('998877');
      expect((await accountOf(id)).conversions).to.include({ enabled: false, pixelId: '998877' });
      await checked();

      await paidOrder('shop-1002');
      const hooks = await receiver.waitFor(2);
      expect(hooks[1].body).to.contain('shop-1002');
      const log = await conversionsOf(id);
      expect(log.total).to.equal(1);
      expect(log.conversions[0].externalId).to.equal('shop-1001');
      expect(fake.of('meta'), 'nothing more reached Meta').to.have.length(1);
    });
  }

  it('shows Google’s and TikTok’s own fields on their accounts’ pages, refuses a bad one keeping what was typed, and takes the test modes', async function () {
    this.timeout(90_000);
    await start(1280);
    const google = await connect({ platform: 'google', accountId: '123-456-7890', credentials: fake.credentials.google });
    const tiktok = await connect({
      platform: 'tiktok',
      accountId: '7012345678901234567',
      credentials: { accessToken: fake.credentials.tiktok },
    });
    await signIn(OWNER);

    await open(`/console/ad-accounts/${google}`);
    expect(await text('#conversions-state')).to.equal('Off: no order is sent to Google Ads.');
    expect(await text('label[for=sendPurchases]')).to.equal('Send purchases to Google Ads');
    expect(await text('#sendPurchases-help'))
      .to.contain('(gclid, gbraid, wbraid) and no contact of the buyer')
      .and.contain('A refund or chargeback then takes the purchase back');
    expect(await page.locator('#pixelId, #pixelCode, #testEventCode').count()).to.equal(0);
    await page.check('#sendPurchases');
    await page.fill('#conversionAction', 'customers/123/conversionActions/9');
    await page.check('#validateOnly');
    const form = `form[action="/console/ad-accounts/${google}/conversions"] button[type=submit]`;
    expect(await submit(form)).to.equal(400);
    expect(await text('[role=alert]'))
      .to.contain('The purchases sent back were not changed')
      .and.contain(
        "Conversion action must be the conversion action's id (987654321) or its resource name (customers/1234567890/conversionActions/987654321)",
      );
    expect(await page.inputValue('#conversionAction')).to.equal('customers/123/conversionActions/9');
    expect(await page.isChecked('#validateOnly')).to.equal(true);
    expect(await page.isChecked('#sendPurchases')).to.equal(true);
    expect((await accountOf(google)).conversions).to.equal(null);
    await checked();
    await page.fill('#conversionAction', 'customers/1234567890/conversionActions/987654321');
    expect(await submit(form)).to.equal(200);
    expect(await text('#conversions-state')).to.contain(
      'sent to the conversion action customers/1234567890/conversionActions/987654321 in the platform’s test mode',
    );
    expect((await accountOf(google)).conversions).to.include({
      enabled: true,
      conversionAction: 'customers/1234567890/conversionActions/987654321',
      validateOnly: true,
    });

    await open(`/console/ad-accounts/${tiktok}`);
    expect(await text('label[for=sendPurchases]')).to.equal('Send purchases to TikTok');
    await page.check('#sendPurchases');
    const tiktokForm = `form[action="/console/ad-accounts/${tiktok}/conversions"] button[type=submit]`;
    expect(await submit(tiktokForm)).to.equal(400);
    expect(await text('[role=alert]')).to.contain(
      "Pixel code is required for TikTok: the pixel's code: capital letters and digits, as TikTok's Events Manager shows it (C4ABCDEFGH12345678IJ)",
    );
    await page.fill('#pixelCode', 'cpixel1');
    await page.fill('#testEventCode', 'TEST42');
    expect(await submit(tiktokForm)).to.equal(400);
    expect(await text('#pixelCode-problem')).to.contain('capital letters and digits');
    expect(await page.inputValue('#testEventCode')).to.equal('TEST42');
    await checked();
    await page.fill('#pixelCode', 'CPIXEL1');
    expect(await submit(tiktokForm)).to.equal(200);
    expect(await text('#conversions-state')).to.contain('sent to the pixel CPIXEL1 in the platform’s test mode');
    expect((await accountOf(tiktok)).conversions).to.include({ enabled: true, pixelCode: 'CPIXEL1', testEventCode: 'TEST42' });
  });

  it('shows analysts no Ad accounts page and no form, and refuses their posts', async function () {
    this.timeout(60_000);
    await start(375);
    const id = await connect({
      platform: 'meta',
      accountId: 'act_1234567890',
      credentials: { accessToken: fake.credentials.meta },
      conversions: { enabled: true, pixelId: '998877' },
    });
    const { useCases } = compose({
      storage: world.storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
      passwords: cheapScrypt(),
    });
    const invited = await useCases.inviteMember.execute('operator', world.dashboardId, ANALYST.email, 'analyst');
    if (invited._tag === 'Left') throw new Error('the invitation failed');
    const accepted = await useCases.acceptInvitation.execute({
      token: invited.right.token,
      password: ANALYST.password,
      address: '127.0.0.1',
    });
    expect(accepted._tag).to.equal('Right');
    await signIn(ANALYST);
    expect(await page.locator('nav.main a').allTextContents()).to.not.include('Ad accounts');
    for (const path of ['/console/ad-accounts', '/console/ad-accounts?platform=meta', `/console/ad-accounts/${id}`]) {
      expect(await open(path), path).to.equal(403);
      expect(await page.locator('form[action^="/console/ad-accounts"], #sendPurchases').count(), path).to.equal(0);
    }
    await open('/console/overview');
    const csrf = (await page.locator('input[name=csrf]').first().getAttribute('value'))!;
    const post = (path: string, fields: Record<string, string>): Promise<number> =>
      page.evaluate(
        async ({ path, fields }) => (await fetch(path, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })).status,
        { path, fields },
      );
    expect(await post(`/console/ad-accounts/${id}/conversions`, { csrf, pixelId: '998877' })).to.equal(403);
    expect(
      await post('/console/ad-accounts', {
        csrf,
        platform: 'meta',
        name: 'x',
        accountId: '1',
        accessToken: 'y',
        sendPurchases: 'on',
        pixelId: '1',
      }),
    ).to.equal(403);
    expect((await accountOf(id)).conversions).to.include({ enabled: true, pixelId: '998877' });
    expect((await world.api.request('GET', '/api/v1/ad-accounts', { token: world.token })).body.adAccounts).to.have.length(1);
  });
});
