import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page, each as `rule: targets` (decision 0018). */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  await page.evaluate(AXE);
  return page.evaluate<string[]>(
    `axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  );
};

/**
 * What makes the page wider than its viewport (decision 0022: nothing at 375 px): elements whose box sticks out,
 * outside the regions that scroll on purpose, and the page's own scroll width, which text wider than
 * its box (a long word) widens without widening any box.
 */
export const widerThanViewport = async (page: Page): Promise<string[]> => {
  const boxes = await page.evaluate<string[]>(
    `[...document.querySelectorAll('body *')].filter((e) => !e.closest('.scroll') && e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((e) => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5)`,
  );
  const [scroll, client] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  );
  return scroll > client ? [...boxes, `the page scrolls to ${scroll} px`] : boxes;
};
