import type { Config } from '../../src/bootstrap/config';
import { startService, type RunningService, type ServiceOverrides } from '../../src/bootstrap/service';
import { takeSharedServer } from './shared-http-server';
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
 * At most this many of the tests' requests in flight to one address at once. fetch keeps its
 * connections alive but opens a new one for each request that finds none idle: a burst of 100
 * parallel requests took 100 new connections, and as many ports, where 16 serve it, still 16 at once
 * on the service.
 */
const MAX_IN_FLIGHT = 16;
const lanes = new Map<string, { inFlight: number; readonly waiting: (() => void)[] }>();

const inTurn = async <A>(origin: string, send: () => Promise<A>): Promise<A> => {
  const lane = lanes.get(origin) ?? { inFlight: 0, waiting: [] };
  lanes.set(origin, lane);
  if (lane.inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => lane.waiting.push(resolve));
  else lane.inFlight += 1;
  try {
    return await send();
  } finally {
    // fetch puts the connection back among the idle ones just after the body is read: the next
    // request, sent at once, would not find it and would open another.
    await new Promise((resolve) => setImmediate(resolve));
    const next = lane.waiting.shift();
    if (next === undefined) lane.inFlight -= 1;
    else next();
  }
};

/**
 * A real service on a real socket, with helpers to call it. Storage defaults to the embedded store;
 * pass `storage` to run the same tests on another.
 */
export class TestApi {
  private constructor(readonly service: RunningService) {}

  /**
   * A service on the run's shared server (test/support/shared-http-server.ts), unless the test sets
   * the address or the connection limits, asks for `ownPort` (its connection-level answers logged
   * by its own logger), or another service holds the shared server: then on a port of its own.
   */
  static async start(config: Partial<Config> = {}, overrides: ServiceOverrides = {}, { ownPort = false } = {}): Promise<TestApi> {
    const mayShare = !ownPort && overrides.sharedServer === undefined && !('port' in config || 'host' in config || 'http' in config);
    const turn = mayShare ? await takeSharedServer() : undefined;
    try {
      return new TestApi(await startService(testConfig(config), turn === undefined ? overrides : { ...overrides, sharedServer: turn }));
    } catch (err) {
      turn?.release();
      throw err;
    }
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
    const { response, text } = await inTurn(this.url, async () => {
      const answer = await fetch(this.url + path, { method, headers, body, redirect: 'manual' });
      return { response: answer, text: await answer.text() };
    });
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
