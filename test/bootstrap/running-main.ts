import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { freePort, ServiceProcess } from './service-process';

/** The real `node main.js`, configured through its environment only, and a way to call it. */
export class RunningMain {
  private constructor(
    readonly proc: ServiceProcess,
    readonly url: string,
  ) {}

  static async start(env: Record<string, string>): Promise<RunningMain> {
    const port = await freePort();
    const proc = new ServiceProcess({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env });
    try {
      await proc.waitForLine((line) => line.includes('"msg":"listening"'), 15_000);
    } catch (err) {
      await proc.dispose();
      throw err;
    }
    return new RunningMain(proc, `http://127.0.0.1:${port}`);
  }

  async call(
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const response = await fetch(this.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
  }

  /** A new dashboard and a plain token for it, through the admin API. */
  async newDashboard(name: string): Promise<{ dashboardId: string; token: string }> {
    const dashboard = await this.call('POST', '/admin/v1/dashboards', TEST_ADMIN_TOKEN, { name });
    if (dashboard.status !== 201) throw new Error(`dashboard creation answered ${dashboard.status}`);
    const dashboardId: string = dashboard.body.dashboard.id;
    const issued = await this.call('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, TEST_ADMIN_TOKEN, { name });
    if (issued.status !== 201) throw new Error(`token creation answered ${issued.status}`);
    return { dashboardId, token: issued.body.token.token };
  }

  /** SIGTERM, then the exit code: 0 after a graceful stop that closed the MongoDB client. */
  async stop(): Promise<number | null> {
    this.proc.kill('SIGTERM');
    return (await this.proc.exited).code;
  }
}
