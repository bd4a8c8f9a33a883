import type Router from '@koa/router';
import { ASSETS } from './kit/assets';
import { authPages } from './auth/auth-pages';
import { ConsoleRouter, type ConsoleDeps } from './kit/router';
import { invitationPages } from './members/invitation-pages';
import { membersPages } from './members/members-pages';
import { ownerPages } from './webhooks/webhooks-pages';
import { readingPages } from './reports/reports-pages';
import { sourcesPages } from './sources/sources-pages';
import { workingPages } from './links/links-pages';

export type { ConsoleDeps } from './kit/router';

/**
 * The console (DECISIONS D18) on the service's router, under /console: a driving adapter over the
 * use cases, beside the JSON API, server-rendered, with its own sessions, CSRF tokens and headers.
 */
export const registerConsole = <S>(router: Router<S>, deps: ConsoleDeps): void => {
  const console = new ConsoleRouter(router as unknown as Router<unknown>, deps);
  for (const asset of ASSETS) {
    console.raw(asset.path, (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = asset.type;
      ctx.body = asset.body;
    });
  }
  authPages(console);
  invitationPages(console);
  readingPages(console);
  workingPages(console);
  ownerPages(console);
  membersPages(console);
  sourcesPages(console);
};
