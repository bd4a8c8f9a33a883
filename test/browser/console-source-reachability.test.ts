import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext } from 'playwright-core';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Config } from '../../src/bootstrap/config';
import { compose } from '../../src/bootstrap/composition';
import { describeWithBrowser } from '../support/browser';
import { seriousViolations, widerThanViewport } from '../support/page-checks';
import { TestApi } from '../support/test-api';
import { createSource, SHOPIFY_SECRET } from '../http/sources/source-deliveries';

const OWNER = { email: 'owner@shop.example', password: 'owner password 123' };
const SCREENSHOTS = join(process.cwd(), '.build', 'test-output', 'console');
const PUBLIC = 'https://orders.example.com';

/** A port nobody listens on now, for a service whose PUBLIC_BASE_URL must name it before it starts. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

describeWithBrowser('the Sources pages say when no platform can reach their URL (Chromium, 1280 and 375 px)', (browser: () => Browser) => {
  let api: TestApi;
  let context: BrowserContext | undefined;

  afterEach(async () => {
    await context?.close();
    context = undefined;
    await api.stop();
  });

  /**
   * The service with `config`, an owner signed in at `origin` (the service's own address unless said),
   * and a Shopify source: its id. A `routed` origin is played by routing its requests to the service,
   * so that nothing leaves the machine.
   */
  const start = async (
    config: Partial<Config>,
    width: number,
    origin?: string,
    routed = false,
  ): Promise<{ base: string; sourceId: string }> => {
    const storage = inMemoryStorage();
    api = await TestApi.start(config, { storage });
    const { dashboardId, token } = await api.newDashboard('Reachability shop');
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    const owner = await useCases.createOwner.execute(dashboardId, OWNER.email, OWNER.password);
    if (owner._tag === 'Left') throw new Error('the owner could not be made');
    const source = await createSource({ api, token }, 'shopify', SHOPIFY_SECRET);
    const base = origin ?? api.url;
    context = await browser().newContext({ viewport: { width, height: 900 } });
    if (origin !== undefined && routed)
      await context.route(`${origin}/**`, async (route) => {
        const response = await route.fetch({ url: route.request().url().replace(origin, api.url), maxRedirects: 0 });
        await route.fulfill({ response });
      });
    if (routed) {
      // A redirect the route answers is followed by Chromium itself, past the route: the session is made beside the browser.
      const signedIn = await fetch(`${api.url}/console/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: OWNER.email, password: OWNER.password, next: '/console/sources' }),
      });
      expect(signedIn.status).to.equal(303);
      await context.addCookies(
        signedIn.headers.getSetCookie().map((cookie) => {
          const pair = cookie.split(';')[0] ?? '';
          const name = pair.slice(0, pair.indexOf('='));
          return { name, value: pair.slice(name.length + 1), url: base, secure: true, httpOnly: true, sameSite: 'Lax' as const };
        }),
      );
    } else {
      const page = await context.newPage();
      await page.goto(`${base}/console/sign-in`);
      await page.fill('#email', OWNER.email);
      await page.fill('#password', OWNER.password);
      await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('/sign-in')), page.click('button[type=submit]')]);
      await page.close();
    }
    return { base, sourceId: source.id };
  };

  /** Both Sources pages at the context's width: the warning's text on each ('' without one), checked for fit and axe-core at 375 px. */
  const warnings = async (base: string, sourceId: string, shot: string): Promise<string[]> => {
    const page = await context!.newPage();
    const width = page.viewportSize()?.width ?? 0;
    mkdirSync(SCREENSHOTS, { recursive: true });
    const found: string[] = [];
    for (const [name, path] of [
      ['list', '/console/sources'],
      ['source', `/console/sources/${sourceId}`],
    ] as const) {
      expect((await page.goto(base + path))?.status(), path).to.equal(200);
      const warning = page.locator('#unreachable-url');
      found.push((await warning.count()) === 0 ? '' : ((await warning.textContent()) ?? '').replace(/\s+/g, ' ').trim());
      if (width <= 375) {
        expect(await widerThanViewport(page), `${path}: what is wider than 375 px`).to.deep.equal([]);
        expect(await seriousViolations(page), path).to.deep.equal([]);
      }
      await page.screenshot({ path: join(SCREENSHOTS, `sources-reachability-${shot}-${name}-${width}.png`), fullPage: true });
    }
    await page.close();
    return found;
  };

  for (const width of [1280, 375]) {
    it(`names PUBLIC_BASE_URL when it is unset, with the address the URLs are made of (${width} px)`, async function () {
      this.timeout(60_000);
      const { base, sourceId } = await start({}, width);
      const [list, source] = await warnings(base, sourceId, 'unset');
      const why = `PUBLIC_BASE_URL is not set, so the URL is made of the address this service listens on (${api.url}), which the platform’s servers do not know.`;
      const fix =
        'Set PUBLIC_BASE_URL to the https address at which the internet reaches this service (for example https://orders.example.com), restart the service, and paste the URL it then shows into';
      expect(list).to.equal(`The platforms cannot reach the URLs this page gives. ${why} ${fix} each platform.`);
      expect(source).to.equal(`Shopify cannot reach this URL. ${why} ${fix} Shopify.`);
    });

    it(`says that a loopback PUBLIC_BASE_URL is this machine’s own address (${width} px)`, async function () {
      this.timeout(60_000);
      const port = await freePort();
      const origin = `http://localhost:${port}`;
      const { base, sourceId } = await start({ port, publicBaseUrl: origin }, width, origin);
      const page = await context!.newPage();
      await page.goto(`${origin}/console/sources/${sourceId}`);
      expect(await page.textContent('#source-url')).to.equal(`${origin}/in/v1/${sourceId}`);
      await page.close();
      const [list, source] = await warnings(base, sourceId, 'loopback');
      expect(list).to.contain('localhost is this machine’s own address: on the platform’s servers it means the platform itself.');
      expect(source).to.match(/^Shopify cannot reach this URL\. localhost is this machine’s own address/);
    });

    it(`says nothing when PUBLIC_BASE_URL is a public https address (${width} px)`, async function () {
      this.timeout(60_000);
      const { base, sourceId } = await start({ publicBaseUrl: PUBLIC }, width, PUBLIC, true);
      expect(await warnings(base, sourceId, 'public')).to.deep.equal(['', '']);
      const page = await context!.newPage();
      await page.goto(`${PUBLIC}/console/sources/${sourceId}`);
      expect(await page.textContent('#source-url')).to.equal(`${PUBLIC}/in/v1/${sourceId}`);
    });
  }
});
