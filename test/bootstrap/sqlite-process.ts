import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { freePort, ServiceProcess } from './service-process';

export interface Answer {
  readonly status: number;
  readonly body: any;
}

/** `node main.js` on a SQLite file (or whatever `env` selects), and a way to call it. */
export class SqliteMain {
  private constructor(
    readonly proc: ServiceProcess,
    readonly url: string,
  ) {}

  static async start(path: string, env: Record<string, string> = {}): Promise<SqliteMain> {
    const port = await freePort();
    const proc = new ServiceProcess({
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SQLITE_PATH: path,
      RATE_LIMIT_MAX: '1000000',
      ...env,
    });
    try {
      await proc.waitForLine((line) => line.includes('"msg":"listening"'), 15_000);
    } catch (err) {
      await proc.dispose();
      throw err;
    }
    return new SqliteMain(proc, `http://127.0.0.1:${port}`);
  }

  async call(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(this.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** A new dashboard and a token for it, through the admin API. */
  async newDashboard(name = 'Process shop'): Promise<{ dashboardId: string; token: string; tokenId: string }> {
    const dashboard = await this.call('POST', '/admin/v1/dashboards', TEST_ADMIN_TOKEN, { name });
    if (dashboard.status !== 201) throw new Error(`dashboard creation answered ${dashboard.status}`);
    const dashboardId: string = dashboard.body.dashboard.id;
    const issued = await this.call('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, TEST_ADMIN_TOKEN, { name: 'process' });
    if (issued.status !== 201) throw new Error(`token creation answered ${issued.status}`);
    return { dashboardId, token: issued.body.token.token, tokenId: issued.body.token.id };
  }

  /** Every externalId of the dashboard, through the listing, page by page. */
  async externalIds(token: string): Promise<string[]> {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const listed = await this.call('GET', `/api/v1/orders?pageSize=100&page=${page}`, token);
      if (listed.status !== 200) throw new Error(`listing answered ${listed.status}`);
      ids.push(...listed.body.orders.map((order: { externalId: string }) => order.externalId));
      if (listed.body.orders.length < 100) return ids;
    }
  }

  /** SIGTERM, then the exit code. */
  async stop(): Promise<number | null> {
    this.proc.kill('SIGTERM');
    return (await this.proc.exited).code;
  }
}
