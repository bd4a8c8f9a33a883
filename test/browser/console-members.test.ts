import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';
import { compose } from '../../src/bootstrap/composition';
import { describeWithBrowser } from '../support/browser';
import { TestApi } from '../support/test-api';

const OWNER_A = { email: 'owner-a@shop.example', password: 'owner a password 1' };
const OWNER_B = { email: 'owner-b@other.example', password: 'owner b password 1' };
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One browser profile: its own cookies, its own page. */
interface Visitor {
  readonly context: BrowserContext;
  readonly page: Page;
}

describeWithBrowser('members and invitations in the console (decision 0023)', (browser: () => Browser) => {
  let storage: Storage;
  let api: TestApi;
  let shopA: string;
  let shopB: string;
  let visitors: Visitor[];

  const visitor = async (): Promise<Visitor> => {
    const context = await browser().newContext({ viewport: { width: 1200, height: 900 } });
    const made = { context, page: await context.newPage() };
    visitors.push(made);
    return made;
  };
  const open = async ({ page }: Visitor, path: string): Promise<number> =>
    (await page.goto(path.startsWith('http') ? path : api.url + path))?.status() ?? 0;
  /** Clicks a form's button and waits for the page it answers with (after any redirect) to load. */
  const submit = async ({ page }: Visitor, selector: string): Promise<void> => {
    const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.click(selector);
    await navigated;
    await page.waitForLoadState('load');
  };
  const signIn = async (who: Visitor, as: { email: string; password: string }): Promise<void> => {
    await open(who, '/console/sign-in');
    await who.page.fill('#email', as.email);
    await who.page.fill('#password', as.password);
    await submit(who, 'button[type=submit]');
    expect(new URL(who.page.url()).pathname).to.equal('/console/overview');
  };
  /** An invitation link made on the Members page by a signed-in owner. */
  const invite = async (owner: Visitor, email: string, role: 'owner' | 'analyst' = 'analyst'): Promise<string> => {
    await open(owner, '/console/members');
    await owner.page.fill('#email', email);
    await owner.page.selectOption('#role', role);
    await submit(owner, 'form[action="/console/members"] button[type=submit]');
    return (await owner.page.textContent('#shown-secret'))?.trim() ?? '';
  };
  const text = async ({ page }: Visitor, selector: string): Promise<string> =>
    (await page.locator(selector).allTextContents()).join(' ').replace(/\s+/g, ' ').trim();
  const roles = async (dashboardId: string): Promise<string[]> =>
    (await storage.accounts.memberships.listByDashboard(dashboardId)).map((m) => `${m.userId}:${m.role}`);
  const userId = async (email: string): Promise<string> => {
    const found = await storage.accounts.users.findByEmail(email);
    if (found._tag === 'None') throw new Error(`no user ${email}`);
    return found.value.id;
  };
  const axeViolations = async ({ page }: Visitor): Promise<string[]> => {
    await page.evaluate(AXE);
    return page.evaluate<string[]>(
      `axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
    );
  };

  beforeEach(async function () {
    this.timeout(60_000);
    storage = inMemoryStorage();
    api = await TestApi.start({}, { storage });
    shopA = (await api.newDashboard('Shop A')).dashboardId;
    shopB = (await api.newDashboard('Shop B')).dashboardId;
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    expect(E.isRight(await useCases.createOwner.execute(shopA, OWNER_A.email, OWNER_A.password))).to.equal(true);
    expect(E.isRight(await useCases.createOwner.execute(shopB, OWNER_B.email, OWNER_B.password))).to.equal(true);
    visitors = [];
  });

  afterEach(async () => {
    for (const { context } of visitors) await context.close();
    await api.stop();
  });

  it('never signs in another dashboard’s owner through an invitation link posted with any password', async function () {
    this.timeout(60_000);
    const ownerA = await visitor();
    await signIn(ownerA, OWNER_A);
    const link = await invite(ownerA, OWNER_B.email, 'owner');
    const tokensOfB = (await api.admin('GET', `/admin/v1/dashboards/${shopB}/tokens`)).body.tokens;

    const attacker = await visitor();
    await open(attacker, link);
    await attacker.page.fill('#password', 'any password at all');
    await submit(attacker, 'form[action="/console/invitations/accept"] button[type=submit]');
    const answered = await text(attacker, '[role=alert]');

    // No session: every page of the console sends the attacker to the sign-in page.
    await open(attacker, '/console/tokens');
    expect(new URL(attacker.page.url()).pathname).to.equal('/console/sign-in');
    expect(answered).to.equal('The email or the password is wrong.');
    expect(
      (await attacker.context.cookies()).filter((c) => c.name.includes('session') && c.value !== ''),
      'a session cookie',
    ).to.deep.equal([]);
    // B's dashboard, account and the invitation are as they were.
    expect((await api.admin('GET', `/admin/v1/dashboards/${shopB}/tokens`)).body.tokens).to.deep.equal(tokensOfB);
    expect(await roles(shopB)).to.deep.equal([`${await userId(OWNER_B.email)}:owner`]);
    expect(await roles(shopA)).to.deep.equal([`${await userId(OWNER_A.email)}:owner`]);
    expect(await storage.accounts.invitations.listPending(shopA, new Date())).to.have.length(1);
    const ownerB = await visitor();
    await signIn(ownerB, OWNER_B);
  });

  it('says what accepting takes: a new password, the account’s password, nothing when signed in as it, signing out when signed in as another', async function () {
    this.timeout(60_000);
    const ownerA = await visitor();
    await signIn(ownerA, OWNER_A);
    const forNewcomer = await invite(ownerA, 'newcomer@shop.example');
    const forOwnerB = await invite(ownerA, OWNER_B.email);
    const toOwner = await invite(ownerA, OWNER_B.email, 'owner');

    const newcomer = await visitor();
    await open(newcomer, forNewcomer);
    expect(await text(newcomer, 'main p')).to.contain('Choose a password for your new account');
    expect(await newcomer.page.getAttribute('#password', 'autocomplete')).to.equal('new-password');
    expect(await axeViolations(newcomer), 'new account').to.deep.equal([]);

    // Signed in as owner A, the link for B's email is refused until A signs out.
    await open(ownerA, forOwnerB);
    expect(await text(ownerA, '[role=alert]')).to.equal(
      `This invitation is for ${OWNER_B.email}, and you are signed in as ${OWNER_A.email}. Sign out first, then open the link again.`,
    );
    expect(await ownerA.page.locator('form[action="/console/invitations/accept"]').count()).to.equal(0);

    // Nobody signed in: B's password (or signing in first) accepts it.
    const ownerB = await visitor();
    await open(ownerB, forOwnerB);
    expect(await text(ownerB, 'main p')).to.contain(`${OWNER_B.email} already has an account`);
    expect(await ownerB.page.getAttribute('#password', 'autocomplete')).to.equal('current-password');
    expect(await ownerB.page.getAttribute('a[href^="/console/sign-in"]', 'href')).to.equal(
      `/console/sign-in?next=${encodeURIComponent(new URL(forOwnerB).pathname)}`,
    );
    expect(await axeViolations(ownerB), 'existing account').to.deep.equal([]);
    await ownerB.page.fill('#password', OWNER_B.password);
    await submit(ownerB, 'form[action="/console/invitations/accept"] button[type=submit]');
    expect(new URL(ownerB.page.url()).pathname).to.equal('/console/overview');
    expect(await text(ownerB, '.brand')).to.equal('Shop A');
    expect(await roles(shopA)).to.include(`${await userId(OWNER_B.email)}:analyst`);

    // Signed in as B now: the next invitation asks for nothing more.
    await open(ownerB, toOwner);
    expect(await text(ownerB, 'main p')).to.contain(`You are signed in as ${OWNER_B.email}`);
    expect(await ownerB.page.locator('#password').count()).to.equal(0);
    expect(await axeViolations(ownerB), 'signed in').to.deep.equal([]);
    await submit(ownerB, 'form[action="/console/invitations/accept"] button[type=submit]');
    expect(new URL(ownerB.page.url()).pathname).to.equal('/console/overview');
    expect(await roles(shopA)).to.include(`${await userId(OWNER_B.email)}:owner`);
  });

  it('lets an owner remove a member and revoke an invitation with a button each; the member keeps only their other dashboards', async function () {
    this.timeout(60_000);
    const ownerA = await visitor();
    await signIn(ownerA, OWNER_A);
    const forAnalyst = await invite(ownerA, 'analyst@shop.example');
    const pending = await invite(ownerA, 'later@shop.example');
    const analyst = await visitor();
    await open(analyst, forAnalyst);
    await analyst.page.fill('#password', 'analyst password 1');
    await submit(analyst, 'form[action="/console/invitations/accept"] button[type=submit]');
    expect(await text(analyst, '.brand')).to.equal('Shop A');
    await storage.accounts.memberships.put({
      userId: await userId('analyst@shop.example'),
      dashboardId: shopB,
      role: 'analyst',
      createdAt: new Date(),
    });

    await open(ownerA, '/console/members');
    expect(await text(ownerA, 'tr[data-invitation] td:first-child')).to.equal('later@shop.example');
    // The only owner has no button: the server would refuse it anyway.
    expect(await ownerA.page.locator(`button[aria-label="Remove ${OWNER_A.email}"]`).count()).to.equal(0);
    expect(await axeViolations(ownerA), 'members').to.deep.equal([]);

    await submit(ownerA, 'button[aria-label="Remove analyst@shop.example"]');
    expect(new URL(ownerA.page.url()).search).to.equal('?notice=member-removed');
    expect(await text(ownerA, '[role=status]')).to.equal('The member was removed: this dashboard is closed to them from now on.');
    expect(await text(ownerA, 'tr[data-member] td:first-child')).to.equal(OWNER_A.email);

    // The analyst's session goes on, in their other dashboard only.
    await open(analyst, '/console/overview');
    expect(await text(analyst, '.brand')).to.equal('Shop B');
    await analyst.context.addCookies([{ name: 'orders_dashboard', value: shopA, url: `${api.url}/console` }]);
    await open(analyst, '/console/orders');
    expect(await text(analyst, '.brand')).to.equal('Shop B');

    await submit(ownerA, 'button[aria-label="Revoke the invitation of later@shop.example"]');
    expect(new URL(ownerA.page.url()).search).to.equal('?notice=invitation-revoked');
    expect(await text(ownerA, '[role=status]')).to.equal('The invitation was revoked: its link no longer works.');
    expect(await ownerA.page.locator('tr[data-invitation]').count()).to.equal(0);
    const stranger = await visitor();
    const revokedStatus = await open(stranger, pending);
    const revokedText = await text(stranger, 'main');
    const unknownStatus = await open(stranger, `/console/invitations/${'x'.repeat(43)}`);
    expect([revokedStatus, revokedText]).to.deep.equal([unknownStatus, await text(stranger, 'main')]);
    expect(revokedText).to.contain('This invitation link is not valid.');
  });
});
