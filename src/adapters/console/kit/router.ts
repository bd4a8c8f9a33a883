import type Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type { Context } from 'koa';
import type { Logger } from '../../../application/ports/logger';
import type { User } from '../../../domain/account';
import { STORAGE_RETRY_AFTER_SECONDS, StorageUnavailableError } from '../../../application/ports/storage-health';
import type { UseCases } from '../../../application/use-cases';
import { FormRefused, FormTooLarge, readForm, readUpload, type FormFields } from './forms';
import { bare, page, type Viewer } from './layout';
import { html, type Html } from './html';
import { allowedOrigins, consoleCookies, csrfTokenOf, sameOrigin, setPageHeaders } from './security';

export interface ConsoleDeps {
  readonly useCases: UseCases;
  readonly logger: Logger;
  /** PUBLIC_BASE_URL, else the service's own address: short links, and whether cookies are Secure. */
  readonly publicBaseUrl: () => string;
  /** PUBLIC_BASE_URL as configured, undefined when unset: then the only origin forms are taken from. */
  readonly configuredBaseUrl?: string;
}

/** What a handler answers: a page (200 unless said), a redirect, or a file to download. */
export type Answer =
  | { readonly kind: 'page'; readonly html: Html; readonly status?: number }
  | { readonly kind: 'redirect'; readonly to: string }
  | { readonly kind: 'file'; readonly name: string; readonly type: string; readonly body: string };

export const show = (markup: Html, status?: number): Answer => ({
  kind: 'page',
  html: markup,
  ...(status === undefined ? {} : { status }),
});
export const redirect = (to: string): Answer => ({ kind: 'redirect', to });

/** A refusal as a page: why, in a sentence that holds nothing from the request. */
export class ConsoleRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const write = (ctx: Context, answer: Answer): void => {
  setPageHeaders(ctx);
  if (answer.kind === 'redirect') {
    ctx.status = 303;
    ctx.set('Location', answer.to);
    ctx.body = '';
  } else if (answer.kind === 'file') {
    ctx.status = 200;
    ctx.type = answer.type;
    ctx.set('Content-Disposition', `attachment; filename="${answer.name}"`);
    ctx.body = answer.body;
  } else {
    ctx.status = answer.status ?? 200;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = answer.html.markup;
  }
};

/** Runs a handler and writes its answer; a refusal or an unexpected error is a page, never a stack trace. */
const run = async (ctx: Context, deps: ConsoleDeps, handler: () => Promise<Answer>): Promise<void> => {
  try {
    write(ctx, await handler());
  } catch (err) {
    if (err instanceof ConsoleRefusal) {
      write(
        ctx,
        show(
          bare(
            err.status === 403 ? 'Not allowed' : 'Cannot do that',
            html`<p class="error" role="alert">${err.message}</p>
              <p><a href="/console">Back to the console</a></p>`,
          ),
          err.status,
        ),
      );
      return;
    }
    if (err instanceof FormTooLarge) {
      write(ctx, show(bare('Too large', html`<p class="error" role="alert">${err.message}</p>`), 413));
      return;
    }
    if (err instanceof FormRefused) {
      write(ctx, show(bare('Cannot do that', html`<p class="error" role="alert">${err.message}</p>`), 400));
      return;
    }
    // A store that cannot be reached or written (a full disk, a read-only file) is "not now", as in the API.
    if (err instanceof StorageUnavailableError) {
      deps.logger.error('storage unavailable', { path: ctx.path, errorMessage: err.message.slice(0, 300) });
      ctx.set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
      write(
        ctx,
        show(
          bare(
            'Try again in a moment',
            html`<p class="error" role="alert">The data store cannot do this right now. Try again in a moment.</p>
              <p><a href="/console">Back to the console</a></p>`,
          ),
          503,
        ),
      );
      return;
    }
    deps.logger.error('console request failed', { path: ctx.path, errorName: err instanceof Error ? err.name : typeof err });
    write(
      ctx,
      show(
        bare('Something went wrong', html`<p class="error" role="alert">The request could not be completed. Try again in a moment.</p>`),
        500,
      ),
    );
  }
};

/** The signed-in viewer of a request, or undefined: the session cookie, its user, the chosen dashboard. */
const viewerOf = async (ctx: Context, deps: ConsoleDeps): Promise<Viewer | undefined> => {
  const cookies = consoleCookies(deps.publicBaseUrl());
  const sessionId = ctx.cookies.get(cookies.session);
  if (sessionId === undefined || sessionId.length > 200) return undefined;
  const signedIn = await deps.useCases.authenticateSession.execute(sessionId);
  if (E.isLeft(signedIn)) return undefined;
  const { user, memberships } = signedIn.right;
  const chosen = ctx.cookies.get(cookies.dashboard);
  const membership = memberships.find((m) => m.dashboardId === chosen) ?? memberships[0];
  if (membership === undefined) return undefined;
  const dashboard = await deps.useCases.getDashboard.execute(membership.dashboardId);
  if (E.isLeft(dashboard)) return undefined;
  return { user, dashboard: dashboard.right, role: membership.role, memberships, csrf: csrfTokenOf(sessionId) };
};

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

type Access = 'member' | 'owner';

const guard = (viewer: Viewer, access: Access): void => {
  if (access === 'owner' && viewer.role !== 'owner')
    throw new ConsoleRefusal(403, 'This page is for the dashboard’s owners; your role is analyst.');
};

/** The console's routes on the service's router, each with its checks. */
export class ConsoleRouter {
  constructor(
    private readonly router: Router<unknown>,
    readonly deps: ConsoleDeps,
  ) {}

  /** A page of the signed-in console; without a session, the sign-in page (coming back here after). */
  get(path: string, access: Access, handler: (request: SignedInRequest) => Promise<Answer>): void {
    this.router.get(path, async (ctx) =>
      run(ctx, this.deps, async () => {
        const viewer = await viewerOf(ctx, this.deps);
        if (viewer === undefined) return redirect(`/console/sign-in?next=${encodeURIComponent(ctx.path)}`);
        guard(viewer, access);
        return handler({ ctx, viewer, query: new URLSearchParams(ctx.querystring) });
      }),
    );
  }

  /**
   * A change from a signed-in page: from this origin only (`Origin`/`Referer`), with the session's CSRF
   * token, by a role allowed to make it, all checked before the handler runs.
   */
  post(path: string, access: Access, handler: (request: PostRequest) => Promise<Answer>, upload?: string): void {
    this.router.post(path, async (ctx) =>
      run(ctx, this.deps, async () => {
        if (!this.fromConsole(ctx)) throw new ConsoleRefusal(403, 'This form was not sent from the console’s own pages.');
        const viewer = await viewerOf(ctx, this.deps);
        if (viewer === undefined) return redirect('/console/sign-in');
        const { fields, file } = upload === undefined ? { fields: await readForm(ctx), file: undefined } : await readUpload(ctx, upload);
        if (fields.get('csrf') !== viewer.csrf) throw new ConsoleRefusal(403, 'This form has expired; open the page again and resend it.');
        guard(viewer, access);
        return handler({
          ctx,
          viewer,
          query: new URLSearchParams(ctx.querystring),
          form: fields,
          ...(upload === undefined ? {} : { file: file ?? new Uint8Array() }),
        });
      }),
    );
  }

  /** A page anyone may open (sign-in, an invitation). */
  open(method: 'get' | 'post', path: string, handler: (ctx: Context, form: FormFields) => Promise<Answer>): void {
    this.router[method](path, async (ctx) =>
      run(ctx, this.deps, async () => {
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

export { page };
