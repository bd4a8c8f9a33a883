import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TestApi } from './test-api';
import { LoopbackSite } from './loopback-site';

/** One request the browser made, as Playwright saw it. */
export interface BrowserRequest {
  readonly method: string;
  readonly url: string;
  readonly resourceType: string;
}

/**
 * What the tracking script meets in the tests: the real service serving /tracker.js, a shop on
 * http://127.0.0.1 and a checkout on http://localhost (two host names, so two origins with storage
 * of their own), and a fresh browser context per test that records every request its pages make.
 */
export interface TrackerWorld {
  readonly service: TestApi;
  readonly shop: LoopbackSite;
  readonly checkout: LoopbackSite;
  readonly context: BrowserContext;
  readonly requests: readonly BrowserRequest[];
  /** A new page of the test's context. */
  newPage(): Promise<Page>;
}

/** Registers the hooks that make a TrackerWorld for each test of the enclosing `describe`. */
export const trackerWorld = (browser: () => Browser): TrackerWorld => {
  let service: TestApi | undefined;
  let shop: LoopbackSite | undefined;
  let checkout: LoopbackSite | undefined;
  let context: BrowserContext | undefined;
  let requests: BrowserRequest[] = [];
  const ready = <A>(value: A | undefined, name: string): A => {
    if (value === undefined) throw new Error(`${name} is not started`);
    return value;
  };

  before(async () => {
    service = await TestApi.start();
    shop = await LoopbackSite.start('127.0.0.1');
    checkout = await LoopbackSite.start('localhost');
  });

  after(async () => {
    await Promise.all([service?.stop(), shop?.stop(), checkout?.stop()]);
  });

  beforeEach(async () => {
    requests = [];
    context = await browser().newContext();
    context.on('request', (request) =>
      requests.push({ method: request.method(), url: request.url(), resourceType: request.resourceType() }),
    );
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  return {
    get service() {
      return ready(service, 'the service');
    },
    get shop() {
      return ready(shop, 'the shop');
    },
    get checkout() {
      return ready(checkout, 'the checkout');
    },
    get context() {
      return ready(context, 'the browser context');
    },
    get requests() {
      return requests;
    },
    newPage: () => ready(context, 'the browser context').newPage(),
  };
};

/** Opens `url` and waits until the tracking script has run (it is loaded `async`). */
export const visit = async (page: Page, url: string): Promise<void> => {
  await page.goto(url);
  await trackerReady(page);
};

export const trackerReady = async (page: Page): Promise<void> => {
  await page.waitForFunction('window.OrdersTracker !== undefined && !Array.isArray(window.OrdersTracker)');
};

/** What `OrdersTracker.get()` answers on the page. */
export const trackingOf = (page: Page): Promise<{ tracking: Record<string, string>; trackingExtras: Record<string, any> }> =>
  page.evaluate('OrdersTracker.get()');

/** What the script keeps in the page's localStorage, parsed; null when nothing. */
export const storedOf = async (page: Page): Promise<unknown> => {
  const raw = await page.evaluate<string | null>('localStorage.getItem("orders_tracker")');
  return raw === null ? null : JSON.parse(raw);
};
