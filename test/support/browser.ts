import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { skippedSuite } from './optional-suites';

/**
 * Debian's chromium package, or the browser CHROMIUM_PATH names; playwright-core drives it and never
 * downloads a browser of its own.
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Headless, and quiet on the network: without the background-networking flags Chromium reaches for
 * Google's services at start, which a closed network answers with long timeouts. No host name but
 * loopback's resolves, so that a link to a real site (a Hotmart or Stripe checkout, which tests answer
 * with page.route) cannot reach the network, not even for a DNS prefetch.
 */
const CHROMIUM_ARGS = [
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const BROWSER_NOTICE = [
  `BROWSER SUITES SKIPPED: ${CHROMIUM_PATH} is missing, so the tracking script and the console were not tried in a browser.`,
  'To run them: apt-get update && apt-get install -y chromium   (bash .ci/run installs it and sets REQUIRE_BROWSER=1),',
  '         or: CHROMIUM_PATH=/path/to/chromium npm test',
];

/**
 * `describe` with one headless Chromium for the suite. Without the browser the suite is one pending
 * line, and the run ends saying how to run them; with REQUIRE_BROWSER=1 (CI installs it) it fails.
 */
export const describeWithBrowser = (title: string, body: (browser: () => Browser) => void): void => {
  if (!existsSync(CHROMIUM_PATH)) {
    skippedSuite(title, {
      what: 'no Chromium',
      why: `${CHROMIUM_PATH} is missing: apt-get install -y chromium`,
      requiredBy: 'REQUIRE_BROWSER',
      notice: BROWSER_NOTICE,
    });
    return;
  }
  describe(title, function () {
    let browser: Browser | undefined;

    before(async function () {
      this.timeout(60_000);
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    });

    after(async () => {
      await browser?.close();
      browser = undefined;
    });

    body(() => {
      if (browser === undefined) throw new Error('no browser: the suite should have been skipped');
      return browser;
    });
  });
};
