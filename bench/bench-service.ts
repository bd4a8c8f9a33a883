import { ServiceProcess } from '../test/bootstrap/service-process';

/**
 * The service as a process of its own with `env` (PORT set), once `/healthz` answers: `tries` times
 * 50 ms at most, then it is killed and the start fails with its stderr.
 */
export const startedService = async (env: Record<string, string>, tries = 200): Promise<{ service: ServiceProcess; base: string }> => {
  const service = new ServiceProcess(env);
  const base = `http://127.0.0.1:${env['PORT']}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => undefined))?.ok === true) return { service, base };
    if (i > tries) {
      service.kill('SIGKILL');
      throw new Error(`the service did not start: ${service.stderr.join('\n')}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
};

/** A dashboard named `bench` and a token for it, through the admin API under the `admin` secret. */
export const benchDashboard = async (base: string, admin: string): Promise<{ dashboard: string; token: string }> => {
  const adminCall = async (path: string, body: unknown) =>
    (await (
      await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, Record<string, string>>;
  const dashboard = (await adminCall('/admin/v1/dashboards', { name: 'bench' })).dashboard.id;
  const token = (await adminCall(`/admin/v1/dashboards/${dashboard}/tokens`, {})).token.token;
  return { dashboard, token };
};
