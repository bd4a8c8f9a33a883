import type Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type { Context } from 'koa';
import type { User } from '../../../domain/account';
import { ConsoleRefusal, redirect, run, type Answer } from './answers';
import type { ConsoleDeps } from './deps';
import type { Access, MenuEntry } from './feature';
import { Flashes } from './flash';
import { readForm, readUpload, type FormFields } from './forms';
import type { Viewer } from './layout';
import { allowedOrigins, consoleCookies, csrfTokenOf, sameOrigin } from './security';
import { viewerOf } from './session';
import { abandonedWhenClosed, isHeavy, type ReleaseTurn } from '../../system/heavy-request-turns';

export interface SignedInRequest {
  readonly ctx: Context;
  readonly viewer: Viewer;
  readonly query: URLSearchParams;
}

export interface PostRequest extends SignedInRequest {
  readonly form: FormFields;
  /** The bytes of the uploaded file, on a route that takes one (an empty file when none was chosen). */
  readonly file?: Uint8Array;
}

const guard = (viewer: Viewer, access: Access): void => {
  if (access === 'owner' && viewer.role !== 'owner')
    throw new ConsoleRefusal(403, 'This page is for the dashboard’s owners; your role is analyst.');
};

/** The console's routes on the service's router, each with its checks. */
export class ConsoleRouter {
  constructor(
    private readonly router: Router<unknown>,
    readonly deps: ConsoleDeps,
    /** The menu of every signed-in page, in its order; each viewer sees the entries of their role. */
    private readonly menu: readonly MenuEntry[],
  ) {}

  /** What a form's answer shows once on the page its redirect leads to. */
  readonly flashes = new Flashes();

  /** A page of the signed-in console; without a session, the sign-in page (coming back here after). */
  get(path: string, access: Access, handler: (request: SignedInRequest) => Promise<Answer>): void {
    this.router.get(path, async (ctx) =>
      run(ctx, this.deps.logger, async () => {
        const viewer = await viewerOf(ctx, this.deps, this.menu);
        if (viewer === undefined) return redirect(`/console/sign-in?next=${encodeURIComponent(ctx.path)}`);
        guard(viewer, access);
        const share = await this.deps.shares.take(viewer.dashboard.id, abandonedWhenClosed(ctx.res));
        try {
          return await handler({ ctx, viewer, query: new URLSearchParams(ctx.querystring) });
        } finally {
          share();
        }
      }),
    );
  }

  /**
   * A change from a signed-in page: from this origin only (`Origin`/`Referer`), with the session's CSRF
   * token, by a role allowed to make it, all checked before the handler runs.
   */
  post(path: string, access: Access, handler: (request: PostRequest) => Promise<Answer>, upload?: string): void {
    this.router.post(path, async (ctx) =>
      run(ctx, this.deps.logger, async () => {
        if (!this.fromConsole(ctx)) throw new ConsoleRefusal(403, 'This form was not sent from the console’s own pages.');
        const viewer = await viewerOf(ctx, this.deps, this.menu);
        if (viewer === undefined) return redirect('/console/sign-in');
        // The dashboard's share of the requests in progress (DashboardShares), then its turn for a heavy body.
        const share = await this.deps.shares.take(viewer.dashboard.id, abandonedWhenClosed(ctx.res));
        let release: ReleaseTurn = () => undefined;
        try {
          release = await this.heavyTurn(ctx, viewer);
          const { fields, file } = upload === undefined ? { fields: await readForm(ctx), file: undefined } : await readUpload(ctx, upload);
          if (fields.get('csrf') !== viewer.csrf)
            throw new ConsoleRefusal(403, 'This form has expired; open the page again and resend it.');
          guard(viewer, access);
          return await handler({
            ctx,
            viewer,
            query: new URLSearchParams(ctx.querystring),
            form: fields,
            ...(upload === undefined ? {} : { file: file ?? new Uint8Array() }),
          });
        } finally {
          release();
          share();
        }
      }),
    );
  }

  /**
   * A turn of the viewer's dashboard for a heavy body (an upload), shared with the API's, taken before
   * the body is read (decision 0023); a light body needs none. Beyond the turns and the queue: 429.
   */
  private async heavyTurn(ctx: Context, viewer: Viewer): Promise<ReleaseTurn> {
    const { heavyTurns } = this.deps;
    const headers = { contentLength: ctx.get('Content-Length'), transferEncoding: ctx.get('Transfer-Encoding') };
    if (!isHeavy(headers, heavyTurns.bounds.heavyBodyBytes)) return () => undefined;
    const turn = await heavyTurns.take(viewer.dashboard.id, abandonedWhenClosed(ctx.res));
    if (typeof turn === 'function') return turn;
    // As the API does: the file is never read, not even to be thrown away.
    ctx.set('Connection', 'close');
    throw new ConsoleRefusal(
      429,
      `This dashboard already has ${turn.perDashboard === 1 ? 'an upload' : `${turn.perDashboard} uploads`} in progress and ` +
        `${turn.queue} waiting, the most it may have; try again in ${turn.retryAfterSeconds} s.`,
      turn.retryAfterSeconds,
    );
  }

  /** A page anyone may open (sign-in, an invitation). */
  open(method: 'get' | 'post', path: string, handler: (ctx: Context, form: FormFields) => Promise<Answer>): void {
    this.router[method](path, async (ctx) =>
      run(ctx, this.deps.logger, async () => {
        if (method === 'post' && !this.fromConsole(ctx))
          throw new ConsoleRefusal(403, 'This form was not sent from the console’s own pages.');
        return handler(ctx, method === 'post' ? await readForm(ctx) : new URLSearchParams());
      }),
    );
  }

  raw(path: string, handler: (ctx: Context) => void): void {
    this.router.get(path, (ctx) => handler(ctx));
  }

  /**
   * Who is signed in to this browser, whatever their dashboards, with the session's CSRF token; for
   * the pages anyone may open (an invitation's). Undefined when nobody is.
   */
  async signedIn(ctx: Context): Promise<{ readonly user: User; readonly csrf: string } | undefined> {
    const sessionId = this.sessionOf(ctx);
    if (sessionId === undefined || sessionId.length > 200) return undefined;
    const signedIn = await this.deps.useCases.authenticateSession.execute(sessionId);
    return E.isLeft(signedIn) ? undefined : { user: signedIn.right.user, csrf: csrfTokenOf(sessionId) };
  }

  /** Sets the session cookie (7 days at most: the session's absolute end). */
  startSession(ctx: Context, sessionId: string): void {
    this.setCookie(ctx, 'session', sessionId, 7 * 86_400_000);
  }

  endSession(ctx: Context): void {
    this.setCookie(ctx, 'session', '', 0);
  }

  /** The session id the request's cookie holds, if any. */
  sessionOf(ctx: Context): string | undefined {
    return ctx.cookies.get(consoleCookies(this.deps.publicBaseUrl()).session);
  }

  chooseDashboard(ctx: Context, dashboardId: string): void {
    this.setCookie(ctx, 'dashboard', dashboardId, 365 * 86_400_000);
  }

  private fromConsole(ctx: Context): boolean {
    return sameOrigin(ctx, allowedOrigins(ctx, this.deps.configuredBaseUrl, this.deps.publicBaseUrl()));
  }

  private setCookie(ctx: Context, which: 'session' | 'dashboard', value: string, maxAgeMs: number): void {
    const cookies = consoleCookies(this.deps.publicBaseUrl());
    // Whether the browser speaks https is the public address's to say: the hop from a TLS proxy is
    // plain, and the cookies library would throw on a Secure cookie over it.
    if (cookies.secure) ctx.cookies.secure = true;
    ctx.cookies.set(cookies[which], value, cookies.options(maxAgeMs));
  }
}

/** A path parameter of the route (`:id`); '' when absent. */
export const param = (ctx: Context, name: string): string =>
  String((ctx as unknown as { params?: Record<string, string> }).params?.[name] ?? '');

/** A form field's text, trimmed; '' when absent. */
export const field = (form: FormFields, name: string): string => (form.get(name) ?? '').trim();
