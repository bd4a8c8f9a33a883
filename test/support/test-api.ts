import type { Config } from '../../src/bootstrap/config';
import { startService, type RunningService, type ServiceOverrides } from '../../src/bootstrap/service';
import { TEST_ADMIN_TOKEN, testConfig } from './test-config';

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  readonly body: any;
  readonly text: string;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
}

/**
 * A real service on a real socket, with helpers to call it. Storage defaults to the embedded store;
 * pass `storage` to run the same tests on another.
 */
export class TestApi {
  private constructor(readonly service: RunningService) {}

  static async start(config: Partial<Config> = {}, overrides: ServiceOverrides = {}): Promise<TestApi> {
    return new TestApi(await startService(testConfig(config), overrides));
  }

  get url(): string {
    return this.service.url;
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    // A redirect (a short link) is answered as it is, not followed.
    const response = await fetch(this.url + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  admin(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    return this.request(method, path, { token: TEST_ADMIN_TOKEN, body });
  }

  /** A new dashboard and a token for it, through the admin API. */
  async newDashboard(name = 'Test shop'): Promise<{ dashboardId: string; token: string; tokenId: string }> {
    const dashboard = await this.admin('POST', '/admin/v1/dashboards', { name });
    if (dashboard.status !== 201) throw new Error(`dashboard creation answered ${dashboard.status}`);
    const dashboardId: string = dashboard.body.dashboard.id;
    const token = await this.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, { name: 'tests' });
    if (token.status !== 201) throw new Error(`token creation answered ${token.status}`);
    return { dashboardId, token: token.body.token.token, tokenId: token.body.token.id };
  }

  stop(): Promise<void> {
    return this.service.stop();
  }
}
