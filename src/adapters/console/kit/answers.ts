import type { Context } from 'koa';
import type { Logger } from '../../../application/ports/logger';
import { STORAGE_RETRY_AFTER_SECONDS, StorageUnavailableError } from '../../../application/ports/storage-health';
import { FormRefused, FormTooLarge } from './forms';
import { html, type Html } from './html';
import { bare } from './layout';
import { setPageHeaders } from './security';

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
    /** A refusal for now (429): when to try again, sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
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
export const run = async (ctx: Context, logger: Logger, handler: () => Promise<Answer>): Promise<void> => {
  try {
    write(ctx, await handler());
  } catch (err) {
    if (err instanceof ConsoleRefusal) {
      if (err.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.retryAfterSeconds));
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
      logger.error('storage unavailable', { path: ctx.path, errorMessage: err.message.slice(0, 300) });
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
    logger.error('console request failed', { path: ctx.path, errorName: err instanceof Error ? err.name : typeof err });
    write(
      ctx,
      show(
        bare('Something went wrong', html`<p class="error" role="alert">The request could not be completed. Try again in a moment.</p>`),
        500,
      ),
    );
  }
};
