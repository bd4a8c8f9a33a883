import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { describeWithBrowser } from '../support/browser';
import { OWNER, startConsole, type ConsoleWorld } from '../support/console-world';
import { FakeAdPlatforms, META_EXPIRED_TOKEN, recentDays } from '../support/fake-ad-platforms';
import { seriousViolations, widerThanViewport } from '../support/page-checks';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';
import { eventually } from '../support/webhook-receiver';

describeWithBrowser('the console’s Ad accounts page in Chromium', (browser) => {
  let fake: FakeAdPlatforms;
  let world: ConsoleWorld;
  let context: BrowserContext;
  let page: Page;
  const days = recentDays(new Date(), 28);

  const open = async (path: string): Promise<number> => (await page.goto(world.api.url + path))?.status() ?? 0;
  const text = async (selector: string): Promise<string> => ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
  const submit = async (selector: string): Promise<void> => {
    const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.click(selector);
    await navigated;
    await page.waitForLoadState('load');
  };
  const signIn = async (): Promise<void> => {
    await open('/console/sign-in');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await submit('button[type=submit]');
  };
  /** Reloads the page until its account state reads `state`. */
  const stateBecomes = (state: string): Promise<string> =>
    eventually(`the state ${state}`, async () => {
      await page.reload();
      const shown = await text('#ad-account-state');
      return shown.startsWith(state) ? shown : undefined;
    });
  const start = async (withKey: boolean, width: number): Promise<void> => {
    const base = testConfig();
    world = await startConsole({
      ads: { ...base.ads, ...fake.settings, pollIntervalMs: 50, ...(withKey ? { credentialsKey: TEST_CREDENTIALS_KEY } : {}) },
    });
    context = await browser().newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
    await signIn();
  };

  beforeEach(async () => {
    fake = await FakeAdPlatforms.start();
    fake.meta.accounts.set('1234567890', {
      currency: 'BRL',
      timeZone: 'America/Sao_Paulo',
      rows: [
        { date: days[27], campaignId: 'c1', campaignName: 'Black Friday', adId: 'a1', adName: 'Video', amount: '123.45' },
        { date: days[26], campaignId: 'c1', campaignName: 'Black Friday', adId: 'a1', adName: 'Video', amount: '10' },
      ],
    });
  });
  afterEach(async () => {
    await context?.close();
    await world?.api.stop();
    await fake.stop();
  });

  for (const width of [1280, 375]) {
    it(`connects an account, shows its state, last sync and days, syncs on demand, and its spend reaches the Overview (${width} px)`, async function () {
      this.timeout(60_000);
      await start(true, width);
      await open('/console/ad-accounts');
      expect(await page.locator('nav.main a').allTextContents()).to.include('Ad accounts');
      expect(await text('main')).to.contain('No ad accounts yet.');
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await widerThanViewport(page)).to.deep.equal([]);

      await page.selectOption('#platform', 'meta');
      await submit('form[action="/console/ad-accounts"][method=get] button[type=submit]');
      expect(await page.locator('#developerToken').count(), 'only the chosen platform’s credentials').to.equal(0);
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await widerThanViewport(page)).to.deep.equal([]);
      await page.fill('#name', 'Meta shop');
      await page.fill('#accountId', 'act_1234567890');
      await page.fill('#accessToken', fake.meta.accessToken);
      await submit('form[action="/console/ad-accounts"][method=post] button[type=submit]');
      expect(new URL(page.url()).pathname).to.match(/^\/console\/ad-accounts\/ada_\w+$/);
      expect(page.url()).to.not.contain(fake.meta.accessToken);
      expect(await text('[role=status]')).to.contain('The account was connected');
      expect(await stateBecomes('OK')).to.equal('OK');
      expect(await text('#ad-account-last-sync')).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
      expect(await text('main')).to.contain('Days of America/Sao_Paulo, not the dashboard’s UTC');
      expect(await page.content()).to.not.contain(fake.meta.accessToken);
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await widerThanViewport(page)).to.deep.equal([]);

      await open('/console/ad-accounts');
      const row = page.locator('tr[data-ad-account]');
      expect(await row.count()).to.equal(1);
      const cells = (await row.locator('td').allTextContents()).map((cell) => cell.replace(/\s+/g, ' ').trim());
      expect(cells.slice(0, 3)).to.deep.equal(['Meta shop', 'Meta 1234567890', 'OK']);
      expect(cells[4]).to.contain('not the dashboard’s UTC');
      expect(await seriousViolations(page)).to.deep.equal([]);
      expect(await widerThanViewport(page)).to.deep.equal([]);

      fake.meta.accounts
        .get('1234567890')!
        .rows.push({ date: days[25], campaignId: 'c2', campaignName: 'Launch', adId: 'a2', adName: 'Story', amount: '1.00' });
      await submit('tr[data-ad-account] button[type=submit]');
      expect(await text('[role=status]')).to.contain('A sync was asked for');
      await eventually('the second sync', async () => {
        const listed = await world.api.request('GET', '/api/v1/spend', { token: world.token });
        return listed.body.total === 3 ? true : undefined;
      });

      await open('/console');
      expect(await page.locator('[data-metric="spendCents"]').first().getAttribute('data-value')).to.equal('13445');
    });
  }

  it('shows an expired token as needing attention with Meta’s message, and takes new credentials', async function () {
    this.timeout(60_000);
    await start(true, 1280);
    const created = await world.api.request('POST', '/api/v1/ad-accounts', {
      token: world.token,
      body: {
        platform: 'meta',
        name: 'Meta shop',
        accountId: '1234567890',
        credentials: { accessToken: fake.meta.accessToken },
        campaignKey: 'name',
      },
    });
    const id: string = created.body.adAccount.id;
    await open(`/console/ad-accounts/${id}`);
    await stateBecomes('OK');
    fake.meta.canned.push(META_EXPIRED_TOKEN);
    await submit('form[action$="/sync"] button');
    const state = await stateBecomes('Needs attention');
    expect(state).to.contain('Error validating access token: Session has expired').and.contain('failing since');
    expect(await text('#ad-account-last-sync')).to.not.equal('Never');
    await open('/console/ad-accounts');
    expect(await text('tr[data-ad-account]'))
      .to.contain('Needs attention')
      .and.contain('Session has expired');
    expect(await seriousViolations(page)).to.deep.equal([]);

    await open(`/console/ad-accounts/${id}`);
    await page.fill('#accessToken', 'not-a-valid token');
    await submit('form[action$="/credentials"] button');
    expect(await text('[role=alert]'))
      .to.contain('The credentials were not replaced')
      .and.contain('Access token must be 1 to 2048 printable ASCII characters without spaces');
    expect(await page.inputValue('#accessToken'), 'a credential is never sent back').to.equal('');
    await page.fill('#accessToken', fake.meta.accessToken);
    await submit('form[action$="/credentials"] button');
    expect(await text('[role=status]')).to.contain('The credentials were replaced');
    expect(await stateBecomes('OK')).to.equal('OK');
  });

  it('says connecting needs CREDENTIALS_KEY when the service runs without it', async function () {
    this.timeout(60_000);
    await start(false, 375);
    await open('/console/ad-accounts');
    expect(await text('[role=alert]')).to.contain('CREDENTIALS_KEY');
    expect(await page.locator('form[action="/console/ad-accounts"]').count()).to.equal(0);
    expect(await seriousViolations(page)).to.deep.equal([]);
    expect(await widerThanViewport(page)).to.deep.equal([]);
  });
});
