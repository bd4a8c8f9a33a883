import { expect } from 'chai';
import { useApi, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';
import { createWebhook, readWebhook, WEBHOOKS } from './webhook-support';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** The webhook endpoint routes (decision 0012): what they answer, what they refuse. */
export const webhookEndpointsBehaviour = (storageFactory: StorageFactory): void => {
  describe('webhook endpoints', () => {
    const h = useApi(storageFactory);
    const call = (method: string, path: string, body?: unknown, token = h.token) => h.api.request(method, path, { token, body });

    it('creates an endpoint: 201, Location, no-store, and the secret shown once', async () => {
      const res = await call('POST', WEBHOOKS, {
        url: 'https://hooks.example.com/orders',
        events: ['order.paid'],
        description: 'Payments',
      });
      expect(res.status, res.text).to.equal(201);
      const { webhook } = res.body;
      expect(Object.keys(res.body)).to.deep.equal(['webhook']);
      expect(webhook.id).to.match(/^whk_[A-Za-z0-9]{22}$/);
      expect(webhook.secret).to.match(SECRET);
      expect(webhook).to.deep.include({
        url: 'https://hooks.example.com/orders',
        events: ['order.paid'],
        description: 'Payments',
        enabled: true,
        disabledReason: null,
      });
      expect(new Date(webhook.createdAt).toISOString()).to.equal(webhook.createdAt);
      expect(res.headers.get('location')).to.equal(`${WEBHOOKS}/${webhook.id}`);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const { secret: _secret, ...shown } = webhook;
      expect(await readWebhook(h, webhook.id)).to.deep.equal(shown);
    });

    it('defaults to every event type and no description; never shows a secret when listing or reading', async () => {
      const first = await createWebhook(h, { url: 'https://a.example/hook' });
      const second = await createWebhook(h, { url: 'https://b.example/hook', events: [] });
      expect(first).to.deep.include({ events: [], description: null });
      const list = await call('GET', WEBHOOKS);
      expect(list.status).to.equal(200);
      expect(list.body.webhooks.map((w: { id: string }) => w.id)).to.deep.equal([first.id, second.id]);
      expect(list.text).not.to.include('whsec_');
      expect(JSON.stringify(await readWebhook(h, first.id))).not.to.include('whsec_');
    });

    it('changes the given fields, removes a description with null, and keeps the secret', async () => {
      const created = await createWebhook(h, { url: 'https://a.example/hook', description: 'old' });
      const res = await call('PATCH', `${WEBHOOKS}/${created.id}`, {
        url: 'https://b.example/x?y=1',
        events: ['order.created', 'webhook.test'],
        description: null,
        enabled: false,
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.webhook).to.deep.equal({
        id: created.id,
        url: 'https://b.example/x?y=1',
        events: ['order.created', 'webhook.test'],
        description: null,
        enabled: false,
        disabledReason: null,
        createdAt: created.createdAt,
      });
      expect(await readWebhook(h, created.id)).to.deep.equal(res.body.webhook);
      const rotated = await call('POST', `${WEBHOOKS}/${created.id}/rotate-secret`);
      expect(rotated.body.webhook.secret).not.to.equal(created.secret);
    });

    it('refuses a PATCH without a field, or with an unknown one', async () => {
      const created = await createWebhook(h, { url: 'https://a.example/hook' });
      expectInvalid(await call('PATCH', `${WEBHOOKS}/${created.id}`, {}), ['(body)']);
      expectInvalid(await call('PATCH', `${WEBHOOKS}/${created.id}`, { secret: 'whsec_mine', enabled: true }), ['secret']);
    });

    it('deletes an endpoint: 204 with no body, then 404 everywhere', async () => {
      const created = await createWebhook(h, { url: 'https://a.example/hook' });
      const res = await call('DELETE', `${WEBHOOKS}/${created.id}`);
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      for (const [method, path] of [
        ['GET', `${WEBHOOKS}/${created.id}`],
        ['DELETE', `${WEBHOOKS}/${created.id}`],
        ['POST', `${WEBHOOKS}/${created.id}/test`],
        ['GET', `${WEBHOOKS}/${created.id}/deliveries`],
      ] as const) {
        expectProblem(await call(method, path), 404, 'NOT_FOUND');
      }
      expect((await call('GET', WEBHOOKS)).body.webhooks).to.deep.equal([]);
    });

    it('rotates the secret: 200, no-store, a new secret shown once', async () => {
      const created = await createWebhook(h, { url: 'https://a.example/hook' });
      const res = await call('POST', `${WEBHOOKS}/${created.id}/rotate-secret`);
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.body.webhook.secret).to.match(SECRET).and.not.equal(created.secret);
      const { secret: _secret, ...shown } = res.body.webhook;
      expect(await readWebhook(h, created.id)).to.deep.equal(shown);
    });

    it('reports every problem of a body at once', async () => {
      const res = await call('POST', WEBHOOKS, {
        url: 'ftp://hooks.example.com/x',
        events: ['order.paid', 'order.shipped', 'order.paid'],
        description: 'd'.repeat(201),
        colour: 'red',
      });
      expectInvalid(res, ['url', 'events.1', 'events.2', 'description', 'colour']);
      expectInvalid(await call('POST', WEBHOOKS, {}), ['url']);
      expectInvalid(await call('POST', WEBHOOKS, { url: 'https://a.example/', events: 'order.paid' }), ['events']);
    });

    it('refuses URLs that are not absolute http(s) URLs of 2,048 characters or less, without credentials or fragment', async () => {
      const longest = `https://a.example/${'x'.repeat(2048 - 'https://a.example/'.length)}`;
      expect((await call('POST', WEBHOOKS, { url: longest })).status).to.equal(201);
      for (const url of [
        `${longest}x`,
        'hooks.example.com/x',
        '/relative',
        'https://a.example/#fragment',
        'https://a.example/ space',
        'https://0x7f.1/',
        'https://a.999/',
        'https://[::ffff:127.0.0.1]/',
        '',
      ]) {
        expectInvalid(await call('POST', WEBHOOKS, { url }), ['url']);
      }
      const withCredentials = expectProblem(
        await call('POST', WEBHOOKS, { url: 'https://user:pass@hooks.example.com/' }),
        400,
        'VALIDATION_FAILED',
      );
      expect(withCredentials.details).to.deep.equal([{ path: 'url', message: 'must not contain credentials (user:password@)' }]);
    });

    it('keeps at most 20 endpoints per dashboard: the 21st is 409 WEBHOOK_LIMIT_REACHED, until one is deleted', async () => {
      const created = [];
      for (let i = 0; i < 20; i++) created.push(await createWebhook(h, { url: `https://a.example/${i}` }));
      const refused = expectProblem(await call('POST', WEBHOOKS, { url: 'https://a.example/21' }), 409, 'WEBHOOK_LIMIT_REACHED');
      expect(refused.detail).to.equal('The dashboard already has 20 webhook endpoints, the most it may have: delete one first');
      expect((await call('GET', WEBHOOKS)).body.webhooks).to.have.length(20);
      const other = await h.api.newDashboard('Other shop');
      await createWebhook(h, { url: 'https://a.example/other' }, other.token);
      expect((await call('DELETE', `${WEBHOOKS}/${created[3].id}`)).status).to.equal(204);
      await createWebhook(h, { url: 'https://a.example/21' });
    });

    it("answers another dashboard's endpoint as an unknown one on every route, and changes nothing of it", async () => {
      const other = await h.api.newDashboard('Other shop');
      const theirs = await createWebhook(h, { url: 'https://theirs.example/hook' }, other.token);
      const routes = (id: string) =>
        [
          ['GET', `${WEBHOOKS}/${id}`, undefined],
          ['PATCH', `${WEBHOOKS}/${id}`, { enabled: false }],
          ['DELETE', `${WEBHOOKS}/${id}`, undefined],
          ['POST', `${WEBHOOKS}/${id}/rotate-secret`, undefined],
          ['POST', `${WEBHOOKS}/${id}/test`, undefined],
          ['GET', `${WEBHOOKS}/${id}/deliveries`, undefined],
          ['POST', `${WEBHOOKS}/${id}/deliveries/dlv_x/retry`, undefined],
        ] as const;
      const unknown = routes('whk_unknown');
      for (const [i, [method, path, body]] of routes(theirs.id).entries()) {
        const foreign = expectProblem(await call(method, path, body), 404, 'NOT_FOUND');
        const missing = expectProblem(await call(unknown[i][0], unknown[i][1], unknown[i][2]), 404, 'NOT_FOUND');
        expect({ ...foreign, requestId: 'x' }, `${method} ${path}`).to.deep.equal({ ...missing, requestId: 'x' });
      }
      expect((await call('GET', WEBHOOKS)).body.webhooks).to.deep.equal([]);
      const { secret: _secret, ...unchanged } = theirs;
      expect(await readWebhook(h, theirs.id, other.token)).to.deep.equal(unchanged);
    });

    it('refuses a test event to a disabled endpoint with 409 WEBHOOK_DISABLED; an unknown delivery stays 404', async () => {
      const created = await createWebhook(h, { url: 'https://a.example/hook' });
      expect((await call('PATCH', `${WEBHOOKS}/${created.id}`, { enabled: false })).status).to.equal(200);
      expectProblem(await call('POST', `${WEBHOOKS}/${created.id}/test`), 409, 'WEBHOOK_DISABLED');
      expectProblem(await call('POST', `${WEBHOOKS}/${created.id}/deliveries/dlv_unknown/retry`), 404, 'NOT_FOUND');
    });

    it('validates the query of the delivery log and every problem of it', async () => {
      const created = await createWebhook(h, { url: 'https://a.example/hook' });
      expectInvalid(await call('GET', `${WEBHOOKS}/${created.id}/deliveries?pageSize=0&page=0&status=lost&colour=red`), [
        'query.pageSize',
        'query.page',
        'query.status',
        'query.colour',
      ]);
      const empty = await call('GET', `${WEBHOOKS}/${created.id}/deliveries`);
      expect(empty.body).to.deep.equal({ deliveries: [], page: 1, pageSize: 20, total: 0 });
    });

    it('asks for the bearer token on every webhook route', async () => {
      for (const [method, path] of [
        ['POST', WEBHOOKS],
        ['GET', WEBHOOKS],
        ['GET', `${WEBHOOKS}/whk_1`],
        ['POST', `${WEBHOOKS}/whk_1/deliveries/dlv_1/retry`],
      ] as const) {
        const res = await h.api.request(method, path, { body: method === 'POST' ? {} : undefined });
        expectProblem(res, 401, 'UNAUTHORIZED');
      }
    });
  });

  describe('webhook endpoints under a rate limit of 3', () => {
    const h = useApi(storageFactory, { config: { rateLimitMax: 3 } });

    it('count every webhook request against the token, with the rate-limit headers, and refuse past the limit', async () => {
      const answers = [];
      answers.push(await h.api.request('POST', WEBHOOKS, { token: h.token, body: { url: 'https://a.example/hook' } }));
      answers.push(await h.api.request('GET', WEBHOOKS, { token: h.token }));
      answers.push(await h.api.request('GET', `${WEBHOOKS}/whk_unknown/deliveries`, { token: h.token }));
      answers.push(await h.api.request('GET', WEBHOOKS, { token: h.token }));
      expect(answers.map((res) => res.status)).to.deep.equal([201, 200, 404, 429]);
      expect(answers.map((res) => /;r=(\d+);/.exec(res.headers.get('ratelimit') ?? '')?.[1])).to.deep.equal(['2', '1', '0', '0']);
      for (const res of answers) expect(res.headers.get('ratelimit-policy')).to.equal('"default";q=3;w=60');
      expectProblem(answers[3], 429, 'RATE_LIMIT_EXCEEDED');
    });
  });
};
