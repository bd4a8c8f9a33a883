import { expect } from 'chai';
import { compose } from '../../src/bootstrap/composition';
import type { Storage } from '../../src/application/ports/storage';
import type { TestApi } from './test-api';

export interface ConsoleAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/**
 * A signed-in owner of the console over plain HTTP: the session cookie of a real sign-in, and each
 * form sent from the console's origin with the CSRF token its page carries.
 */
export class ConsoleSession {
  private constructor(
    private readonly api: TestApi,
    private readonly cookie: string,
  ) {}

  /** Makes an owner of `dashboardId` on `storage` (the service's own) and signs in as them. */
  static async signIn(api: TestApi, storage: Storage, dashboardId: string): Promise<ConsoleSession> {
    const owner = { email: 'owner@shop.example', password: 'owner password 123' };
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1000, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    expect((await useCases.createOwner.execute(dashboardId, owner.email, owner.password))._tag).to.equal('Right');
    const signedIn = await fetch(`${api.url}/console/sign-in`, {
      method: 'POST',
      headers: { origin: api.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(owner).toString(),
      redirect: 'manual',
    });
    const cookie = /orders_session=[^;]+/.exec(signedIn.headers.get('set-cookie') ?? '')?.[0];
    expect(cookie, `a session cookie (sign-in answered ${signedIn.status})`).to.not.equal(undefined);
    return new ConsoleSession(api, cookie!);
  }

  /** The headers of a request from the console's pages, for a test that writes its own request. */
  get headers(): { readonly cookie: string; readonly origin: string } {
    return { cookie: this.cookie, origin: this.api.url };
  }

  async get(path: string): Promise<ConsoleAnswer> {
    const res = await fetch(`${this.api.url}${path}`, { headers: { cookie: this.cookie }, redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Sends `form` (fields, or a multipart body with a file) to `path`, as the page at `from` would. */
  async post(path: string, from: string, form: URLSearchParams | FormData): Promise<ConsoleAnswer> {
    const csrf = /name="csrf" value="([^"]+)"/.exec((await this.get(from)).text)?.[1];
    expect(csrf, `a CSRF token on ${from}`).to.not.equal(undefined);
    form.set('csrf', csrf!);
    const res = await fetch(`${this.api.url}${path}`, {
      method: 'POST',
      headers: { cookie: this.cookie, origin: this.api.url },
      body: form,
      redirect: 'manual',
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
}
