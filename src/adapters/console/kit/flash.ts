import { html, type Fragment, type Html } from './html';

/** How long a result waits for the page it was redirected to: a redirect is followed in milliseconds. */
const TTL_MS = 5 * 60_000;
/** Results held at once, the oldest dropped first: a bound whatever the number of sessions. */
const MAX_HELD = 10_000;

/**
 * What a form's answer shows once on the page it redirects to (Post/Redirect/Get, decision 0022): a
 * new token's secret, an invitation's link, "3 entries stored". It is kept in this process, keyed by
 * the session (its CSRF token, a hash of the session id), never in the URL, and taken when shown: a
 * reload shows the page without it and posts nothing again.
 */
export class Flashes {
  private readonly held = new Map<string, { readonly shown: Html; readonly until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  put(session: { readonly csrf: string }, shown: Fragment): void {
    this.held.delete(session.csrf);
    this.held.set(session.csrf, { shown: html`${shown}`, until: this.now() + TTL_MS });
    for (const key of this.held.keys()) {
      if (this.held.size <= MAX_HELD) break;
      this.held.delete(key);
    }
  }

  /** The session's result, once; undefined when there is none or it waited too long. */
  take(session: { readonly csrf: string }): Html | undefined {
    const found = this.held.get(session.csrf);
    this.held.delete(session.csrf);
    return found === undefined || found.until < this.now() ? undefined : found.shown;
  }
}
