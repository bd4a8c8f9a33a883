import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';
import { runCli } from '../../src/bootstrap/cli';
import { fakeResolver } from '../support/fake-resolver';
import { anOrderPayload } from '../support/order-builder';
import { TEST_ADMIN_TOKEN } from '../support/test-config';
import { createOrder, ORDERS, orderPath, useApi, type Harness } from './harness';
import { expectProblem } from './problem-assertions';

const memory = async (): Promise<Storage> => inMemoryStorage();

const NO_PRIVATE_URLS = { timeoutMs: 2_000, retrySchedule: [0, 0], allowPrivateUrls: false, concurrency: 4, pollIntervalMs: 100 };

/** The message of the one validation problem at `path`. */
const messageAt = (body: { details: { path: string; message: string }[] }, path: string): string => {
  const found = body.details.filter((detail) => detail.path === path);
  expect(found, JSON.stringify(body.details)).to.have.length(1);
  return found[0].message;
};

const expectMissingSeconds = (message: string, corrected: string): void => {
  expect(message).to.include('seconds').and.to.include(corrected);
  expect(message).not.to.include('time zone');
};

const expectMissingZone = (message: string): void => {
  expect(message).to.include('time zone').and.to.include('offset').and.to.include('Z');
  expect(message).not.to.include('seconds');
};

/** A refusal that a configuration variable or a missing part explains says which (decision 0024). */
describe('refusals that name their way out', () => {
  describe('a status change the transition policy refuses', () => {
    const bare = useApi(memory);
    it('names ORDER_TRANSITIONS_FILE when the service runs without a table', async () => {
      await createOrder(bare, { externalId: 'A-1' });
      const res = await bare.api.request('PATCH', orderPath('A-1'), { token: bare.token, body: { status: 'paid' } });
      const detail: string = expectProblem(res, 409, 'INVALID_TRANSITION').detail;
      expect(detail).to.include('pending -> paid').and.to.include('ORDER_TRANSITIONS_FILE');
    });

    describe('with a table that leaves the change out', () => {
      const tabled = useApi(memory, { config: { transitions: { pending: ['refused'] } } });
      it('names ORDER_TRANSITIONS_FILE too', async () => {
        await createOrder(tabled, { externalId: 'A-1' });
        const res = await tabled.api.request('PATCH', orderPath('A-1'), { token: tabled.token, body: { status: 'paid' } });
        expect(expectProblem(res, 409, 'INVALID_TRANSITION').detail).to.include('ORDER_TRANSITIONS_FILE');
      });
    });
  });

  describe('a webhook URL the outbound rules refuse', () => {
    const resolver = fakeResolver({ 'hooks.example.com': ['93.184.216.34'], 'inside.example.com': ['10.0.0.5'] });
    const h = useApi(memory, { resolver, config: { webhooks: NO_PRIVATE_URLS } });
    const refusal = async (url: string): Promise<string> =>
      expectProblem(await h.api.request('POST', '/api/v1/webhooks', { token: h.token, body: { url } }), 422, 'WEBHOOK_URL_NOT_ALLOWED')
        .detail;

    it('names WEBHOOK_ALLOW_PRIVATE_URLS for a loopback or private address, written or resolved, and for http://', async () => {
      expect(await refusal('https://127.0.0.1/hook'))
        .to.include('loopback')
        .and.to.include('WEBHOOK_ALLOW_PRIVATE_URLS');
      expect(await refusal('https://inside.example.com/hook'))
        .to.include('10.0.0.5')
        .and.to.include('WEBHOOK_ALLOW_PRIVATE_URLS');
      expect(await refusal('http://hooks.example.com/hook'))
        .to.include('https://')
        .and.to.include('WEBHOOK_ALLOW_PRIVATE_URLS');
    });

    it('does not name it for a host that does not resolve, which the variable would not mend', async () => {
      expect(await refusal('https://nowhere.example.com/hook')).to.equal("The URL's host nowhere.example.com does not resolve");
    });
  });

  describe('a date-time without seconds or without a time zone', () => {
    const h = useApi(memory);
    const get = async (path: string) => expectProblem(await h.api.request('GET', path, { token: h.token }), 400, 'VALIDATION_FAILED');

    it("in an order's createdAt and a PATCH's paidAt", async () => {
      const noSeconds = await h.api.request('POST', ORDERS, {
        token: h.token,
        body: anOrderPayload({ externalId: 'A-1', createdAt: '2026-11-25T11:00-03:00' }),
      });
      expectMissingSeconds(messageAt(expectProblem(noSeconds, 400, 'VALIDATION_FAILED'), 'createdAt'), '2026-11-25T11:00:00-03:00');
      const noZone = await h.api.request('POST', ORDERS, {
        token: h.token,
        body: anOrderPayload({ externalId: 'A-1', createdAt: '2026-11-25T11:00:00' }),
      });
      expectMissingZone(messageAt(expectProblem(noZone, 400, 'VALIDATION_FAILED'), 'createdAt'));
      const both = await h.api.request('POST', ORDERS, {
        token: h.token,
        body: anOrderPayload({ externalId: 'A-1', createdAt: '2026-11-25T11:00' }),
      });
      expect(messageAt(expectProblem(both, 400, 'VALIDATION_FAILED'), 'createdAt'))
        .to.include('seconds')
        .and.to.include('time zone');
      await createOrder(h, { externalId: 'A-2' });
      const patch = await h.api.request('PATCH', orderPath('A-2'), { token: h.token, body: { paidAt: '2026-11-25T11:00Z' } });
      expectMissingSeconds(messageAt(expectProblem(patch, 400, 'VALIDATION_FAILED'), 'paidAt'), '2026-11-25T11:00:00Z');
    });

    it("in the listing's from and to", async () => {
      expectMissingSeconds(messageAt(await get(`${ORDERS}?from=2026-11-25T11:00-03:00`), 'query.from'), '2026-11-25T11:00:00-03:00');
      expectMissingZone(messageAt(await get(`${ORDERS}?to=2026-11-25T11:00:00`), 'query.to'));
    });

    it("in the reports' from and to", async () => {
      const breakdown = await get('/api/v1/reports/breakdown?by=utmSource&from=2026-11-01T00:00Z&to=2026-11-30T23:59:59');
      expectMissingSeconds(messageAt(breakdown, 'query.from'), '2026-11-01T00:00:00Z');
      expectMissingZone(messageAt(breakdown, 'query.to'));
      const series = await get('/api/v1/reports/timeseries?interval=day&from=2026-11-01T00:00:00&to=2026-11-30T23:59Z');
      expectMissingZone(messageAt(series, 'query.from'));
      expectMissingSeconds(messageAt(series, 'query.to'), '2026-11-30T23:59:00Z');
    });

    it("in a token's expiresAt, over the admin API", async () => {
      const res = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { expiresAt: '2099-01-01T00:00' });
      const message = messageAt(expectProblem(res, 400, 'VALIDATION_FAILED'), 'expiresAt');
      expect(message).to.include('seconds').and.to.include('time zone');
    });
  });

  describe('a token sent without Bearer', () => {
    const h = useApi(memory);
    const detailFor = async (authorization: string | undefined, path = ORDERS): Promise<string> => {
      const res = await h.api.request('GET', path, { headers: authorization === undefined ? {} : { authorization } });
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      return expectProblem(res, 401, 'UNAUTHORIZED').detail;
    };

    it('says to send Authorization: Bearer <token>, for the token alone, another scheme or no header at all', async () => {
      for (const header of [h.token, `Token ${h.token}`, undefined, 'Bearer', `Bearer ${h.token} ${h.token}`]) {
        expect(await detailFor(header), String(header)).to.include('Authorization: Bearer <token>');
      }
    });

    it('says the same on the admin API', async () => {
      expect(await detailFor(TEST_ADMIN_TOKEN, `/admin/v1/dashboards/${h.dashboardId}/tokens`)).to.include('Authorization: Bearer <token>');
    });

    it('says the token is unknown, not how to send it, when it came as Bearer', async () => {
      const detail = await detailFor(`Bearer ok_live_${'A'.repeat(43)}`);
      expect(detail).to.include('unknown');
      expect(detail).not.to.include('Authorization: Bearer <token>');
    });
  });

  describe('a token past its rate limit', () => {
    const h = useApi(memory, { config: { rateLimitMax: 1 } });
    it('names RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_SECONDS with their values', async () => {
      expect((await h.api.request('GET', ORDERS, { token: h.token })).status).to.equal(200);
      const detail: string = expectProblem(await h.api.request('GET', ORDERS, { token: h.token }), 429, 'RATE_LIMIT_EXCEEDED').detail;
      expect(detail).to.include('RATE_LIMIT_MAX').and.to.include('RATE_LIMIT_WINDOW_SECONDS').and.to.include('1 request per 60 s');
    });
  });

  describe('a body over the limit', () => {
    const h = useApi(memory, { config: { bodyLimitBytes: 1_024 } });
    it('names BODY_LIMIT_BYTES', async () => {
      const res = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ metadata: { note: 'x'.repeat(900) } }) });
      expect(expectProblem(res, 413, 'PAYLOAD_TOO_LARGE').detail)
        .to.include('1024 bytes')
        .and.to.include('BODY_LIMIT_BYTES');
    });
  });

  describe('what the configuration switched off', () => {
    const h = useApi(memory, { config: { adminToken: undefined, console: false }, dashboard: false });
    const notFound = async (path: string): Promise<string> => expectProblem(await h.api.request('GET', path), 404, 'NOT_FOUND').detail;

    it('names ADMIN_TOKEN on the admin API, CONSOLE on the console, METRICS_PORT on /metrics', async () => {
      expect(await notFound('/admin/v1/dashboards/dsh_x/tokens')).to.include('ADMIN_TOKEN');
      expect(await notFound('/console')).to.include('CONSOLE=off');
      expect(await notFound('/console/sign-in')).to.include('CONSOLE=off');
      expect(await notFound('/metrics')).to.include('METRICS_PORT');
      expect(await notFound('/nothing-here')).to.equal('No such route');
    });
  });

  describe("the console's webhook form", () => {
    let storage: Storage;
    const resolver = fakeResolver({});
    const h = useApi(async () => (storage = { ...inMemoryStorage(), persistent: true }), {
      resolver,
      config: { webhooks: NO_PRIVATE_URLS },
    });

    const signIn = async (x: Harness): Promise<string> => {
      const made = await runCli(
        ['users', 'create-owner', '--email', 'me@shop.example', '--dashboard', x.dashboardId],
        { ORDERS_PASSWORD: 'a long passphrase' },
        { out: () => undefined, err: () => undefined },
        storage,
      );
      expect(made).to.equal(0);
      const res = await fetch(`${x.api.url}/console/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: x.api.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'me@shop.example', password: 'a long passphrase' }).toString(),
      });
      const session = /orders_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '');
      expect(session, `sign-in answered ${res.status}`).not.to.equal(null);
      return session![0];
    };

    it('names WEBHOOK_ALLOW_PRIVATE_URLS for a loopback URL, as the API does', async () => {
      const cookie = await signIn(h);
      const page = await (await fetch(`${h.api.url}/console/webhooks`, { headers: { cookie } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1];
      const res = await fetch(`${h.api.url}/console/webhooks`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: h.api.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, url: 'https://127.0.0.1/hook', description: '' }).toString(),
      });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.include('WEBHOOK_ALLOW_PRIVATE_URLS');
    });
  });

  describe("the command-line tool's --expires-at", () => {
    const expiresAt = async (value: string): Promise<string> => {
      const storage: Storage = { ...inMemoryStorage(), persistent: true };
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
      expect(await runCli(['dashboards', 'create', '--name', 'Shop'], {}, io, storage)).to.equal(0);
      const dashboardId: string = JSON.parse(out.join('\n')).dashboard.id;
      expect(await runCli(['tokens', 'create', '--dashboard', dashboardId, '--expires-at', value], {}, io, storage)).to.equal(2);
      return JSON.parse(err.join('\n')).error.message;
    };

    it('says which part is missing', async () => {
      expectMissingSeconds(await expiresAt('2099-01-01T00:00Z'), '2099-01-01T00:00:00Z');
      expectMissingZone(await expiresAt('2099-01-01T00:00:00'));
    });
  });
});
