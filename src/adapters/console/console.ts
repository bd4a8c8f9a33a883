import type Router from '@koa/router';
import { adAccountsFeature } from './ad-accounts/ad-accounts-pages';
import { passwordFeature } from './auth/password-page';
import { signInFeature } from './auth/sign-in-pages';
import { ASSETS, ICON_ASSET } from './kit/assets';
import type { ConsoleDeps } from './kit/deps';
import type { ConsoleFeature } from './kit/feature';
import { ConsoleRouter } from './kit/router';
import { linksFeature } from './links/links-pages';
import { invitationsFeature } from './members/invitation-pages';
import { membersFeature } from './members/members-pages';
import { ordersFeature } from './orders/orders-pages';
import { overviewFeature } from './overview/overview-page';
import { productsFeature } from './products/products-page';
import { reportsFeature } from './reports/reports-pages';
import { settingsFeature } from './settings/settings-page';
import { sourcesFeature } from './sources/sources-pages';
import { costsFeature } from './spend-and-costs/costs-page';
import { spendFeature } from './spend-and-costs/spend-page';
import { tokensFeature } from './tokens/tokens-pages';
import { webhooksFeature } from './webhooks/webhooks-pages';

export type { ConsoleDeps } from './kit/deps';

/** The console's page families; the order of those with a menu entry is the menu's. */
const FEATURES: readonly ConsoleFeature[] = [
  signInFeature,
  passwordFeature,
  invitationsFeature,
  overviewFeature,
  ordersFeature,
  reportsFeature,
  productsFeature,
  spendFeature,
  costsFeature,
  linksFeature,
  sourcesFeature,
  adAccountsFeature,
  webhooksFeature,
  tokensFeature,
  membersFeature,
  settingsFeature,
];

/**
 * The console (decisions 0018, 0022) on the service's router, under /console: a driving adapter over the
 * use cases, beside the JSON API, server-rendered, with its own sessions, CSRF tokens and headers.
 */
export const registerConsole = <S>(router: Router<S>, deps: ConsoleDeps): void => {
  const menu = FEATURES.flatMap((feature) => (feature.menu === undefined ? [] : [feature.menu]));
  const console = new ConsoleRouter(router as unknown as Router<unknown>, deps, menu);
  for (const asset of ASSETS) {
    console.raw(asset.path, (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = asset.type;
      ctx.body = asset.body;
    });
  }
  // Browsers ask for /favicon.ico whatever the page says; a 404 there fills logs. The same icon, for a day.
  console.raw('/favicon.ico', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = ICON_ASSET.type;
    ctx.body = ICON_ASSET.body;
  });
  for (const feature of FEATURES) feature.register(console);
};
