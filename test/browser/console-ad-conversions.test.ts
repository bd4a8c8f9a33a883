import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { describeWithBrowser } from '../support/browser';
import { OWNER, startConsole, type ConsoleWorld } from '../support/console-world';
import { FakeConversionPlatforms, META_EXPIRED_TOKEN } from '../support/fake-conversion-platforms';
import { anOrderPayload } from '../support/order-builder';
import { seriousViolations, widerThanViewport } from '../support/page-checks';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';
import { eventually } from '../support/webhook-receiver';

describeWithBrowser('the purchases sent back on the console’s Ad accounts page in Chromium', (browser) => {
  let fake: FakeConversionPlatforms;
  let world: ConsoleWorld;
  let context: BrowserContext;
  let page: Page;

  const open = async (path: string): Promise<number> => (await page.goto(world.api.url + path))?.status() ?? 0;
  const text = async (selector: string): Promise<string> => ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
  const submit = async (selector: string): Promise<void> => {
    const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.click(selector);
    await navigated;
    await page.waitForLoadState('load');
  };

  beforeEach(async () => {
    fake = await FakeConversionPlatforms.start();
  });
  afterEach(async () => {
    await context?.close();
    await world?.api.stop();
    await fake.stop();
  });

  for (const width of [1280, 375]) {
    it(`shows Meta's refusal on the account and the conversion with its attempts and Meta's reply (${width} px)`, async function () {
      this.timeout(60_000);
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
      const created = await world.api.request('POST', '/api/v1/ad-accounts', {
        token: world.token,
        body: {
          platform: 'meta',
          name: 'Meta shop',
          accountId: 'act_1234567890',
          credentials: { accessToken: fake.credentials.meta },
          campaignKey: 'name',
          conversions: { enabled: true, pixelId: '998877' },
        },
      });
      expect(created.status).to.equal(201);
      const id: string = created.body.adAccount.id;
      fake.canned.meta.push(META_EXPIRED_TOKEN);
      const order = anOrderPayload({
        externalId: 'shop-1001',
        status: 'paid',
        createdAt: new Date(Date.now() - 60_000).toISOString(),
        customer: { email: 'buyer@example.com' },
        trackingExtras: { fbclid: 'IwAR-console' },
      });
      expect((await world.api.request('POST', '/api/v1/orders', { token: world.token, body: order })).status).to.equal(201);
      await eventually('the refusal recorded', async () => {
        const account = await world.api.request('GET', `/api/v1/ad-accounts/${id}`, { token: world.token });
        return account.body.adAccount.conversions.status === 'needsAttention' && account.body.adAccount.lastSyncedAt !== null;
      });

      context = await browser().newContext({ viewport: { width, height: 900 } });
      page = await context.newPage();
      await open('/console/sign-in');
      await page.fill('#email', OWNER.email);
      await page.fill('#password', OWNER.password);
      await submit('button[type=submit]');
      expect(await open(`/console/ad-accounts/${id}`)).to.equal(200);
      const expired =
        'Meta: Error validating access token: Session has expired on Thursday, 26-Nov-26 10:00:00 PST. (code 190, subcode 463)';
      expect(await text('#ad-account-state'))
        .to.contain('Needs attention')
        .and.contain(`Purchases sent back refused: ${expired}`);
      expect(await text('#conversions-state')).to.contain('On: each order that becomes paid is sent to the dataset (pixel) 998877');
      expect(await text('#conversions-state')).to.contain(expired);
      const row = page.locator('tr[data-conversion]');
      expect(await row.count()).to.equal(1);
      const shown = ((await row.textContent()) ?? '').replace(/\s+/g, ' ');
      expect(shown).to.contain('shop-1001').and.contain('Purchase').and.contain('fbclid, email (hashed)').and.contain('Waiting');
      expect(shown).to.contain('refused, HTTP 400').and.contain(expired);
      expect(await row.locator('details.reply pre').textContent()).to.contain('"code":190');
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await widerThanViewport(page)).to.deep.equal([]);
    });
  }
});
