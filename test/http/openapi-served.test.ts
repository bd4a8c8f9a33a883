import { expect } from 'chai';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhook';
import { WebhookReceiver } from '../support/webhook-receiver';
import { type Reference, type ResponseObject } from '../../src/adapters/http/kit/openapi/types';
import type { IdempotencyStore } from '../../src/application/ports/idempotency-store';
import type { OrderRepository } from '../../src/application/ports/order-repository';
import { StorageUnavailableError } from '../../src/application/ports/storage-health';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { anOrderPayload } from '../support/order-builder';
import { TestApi, type ApiResponse } from '../support/test-api';
import {
  doc,
  escapePointer,
  deref,
  documentedOperations,
  operation,
  ajv,
  overriding,
  ORDERS_PREFIX,
  LINKS_PREFIX,
  validatesAgainst,
  headerValue,
  describesWebhookOperations,
  describesReportOperations,
  describesSourceOperations,
  describesAdAccountOperations,
} from './openapi-support';
import { TEST_CREDENTIALS_KEY, testConfig } from '../support/test-config';

describe('OpenAPI document', () => {
  describe('served over HTTP', () => {
    let api: TestApi;
    const checked = new Set<string>();

    /** The response matches `pointer`'s content type and body schema and carries its required headers. */
    const matches = (pointer: string, res: ApiResponse, where: string): void => {
      const response = deref<ResponseObject | Reference>({ $ref: pointer });
      const media = (res.headers.get('content-type') ?? '').split(';')[0].trim();
      if (response.content === undefined) {
        expect({ media, text: res.text }, `${where} has no content`).to.deep.equal({ media: '', text: '' });
      } else {
        expect(Object.keys(response.content), where).to.include(media);
        const body = /[/+]json$/.test(media) ? res.body : res.text;
        expect(validatesAgainst(`${pointer}/content/${escapePointer(media)}/schema`, body), where).to.equal(undefined);
      }
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        const value = res.headers.get(name);
        if (value === null) {
          if (deref(header).required === true) expect.fail(`${where}: header ${name} is missing`);
          continue;
        }
        const schemaPointer = '$ref' in header ? `${header.$ref}/schema` : `${pointer}/headers/${escapePointer(name)}/schema`;
        expect(validatesAgainst(schemaPointer, headerValue(deref(header), value)), `${where} header ${name}: ${value}`).to.equal(undefined);
      }
    };

    /** A real response of an operation: its status is documented there, and the response matches. */
    const conforms = (path: string, method: string, res: ApiResponse): void => {
      const where = `${method} ${path} -> ${res.status}`;
      const entry = operation(path, method).responses[String(res.status)];
      if (entry === undefined) expect.fail(`${where} is not documented`);
      const own = `#/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${res.status}`;
      matches('$ref' in entry ? entry.$ref : own, res, where);
      checked.add(`${method} ${path} ${res.status}`);
    };

    before(async () => {
      api = await TestApi.start({ bodyLimitBytes: 4096, ads: { ...testConfig().ads, credentialsKey: TEST_CREDENTIALS_KEY } });
    });

    after(async () => {
      await api.stop();
    });

    it('serves this document at /api/v1/openapi.json', async () => {
      const res = await api.request('GET', '/api/v1/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(doc)));
      conforms('/api/v1/openapi.json', 'GET', res);
    });

    it('describes real responses of every operation', async () => {
      const dashboard = await api.admin('POST', '/admin/v1/dashboards', { name: 'Shop' });
      conforms('/admin/v1/dashboards', 'POST', dashboard);
      const dashboardId: string = dashboard.body.dashboard.id;
      conforms('/admin/v1/dashboards', 'POST', await api.admin('POST', '/admin/v1/dashboards', { name: '' }));
      conforms('/admin/v1/dashboards', 'POST', await api.request('POST', '/admin/v1/dashboards', { token: 'wrong', body: { name: 'x' } }));

      const tokensPath = '/admin/v1/dashboards/{dashboardId}/tokens';
      const issued = await api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, { name: 'tests' });
      conforms(tokensPath, 'POST', issued);
      const token: string = issued.body.token.token;
      const unnamed = await api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, {});
      conforms(tokensPath, 'POST', unnamed);
      conforms(tokensPath, 'POST', await api.admin('POST', '/admin/v1/dashboards/dsh_missing/tokens', {}));
      conforms(tokensPath, 'GET', await api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`));
      conforms(tokensPath, 'GET', await api.admin('GET', `/admin/v1/dashboards/${'x'.repeat(65)}/tokens`));

      const revokePath = '/admin/v1/tokens/{tokenId}/revoke';
      conforms(revokePath, 'POST', await api.admin('POST', `/admin/v1/tokens/${unnamed.body.token.id}/revoke`));
      conforms(revokePath, 'POST', await api.admin('POST', '/admin/v1/tokens/tok_missing/revoke'));
      conforms(tokensPath, 'GET', await api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`));

      const created = await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload() });
      expect(created.status).to.equal(201);
      conforms('/api/v1/orders', 'POST', created);
      const paid = await api.request('POST', '/api/v1/orders', {
        token,
        body: anOrderPayload({ externalId: 'order 2/b', status: 'paid' }),
      });
      conforms('/api/v1/orders', 'POST', paid);
      expect(paid.headers.get('location')).to.equal('/api/v1/orders/order%202%2Fb');
      conforms('/api/v1/orders', 'POST', await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload() }));
      const invalid = await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ createdAt: '2026-01-02T03:04:05' }) });
      expect(invalid.status).to.equal(400);
      conforms('/api/v1/orders', 'POST', invalid);
      conforms(
        '/api/v1/orders',
        'POST',
        await api.request('POST', '/api/v1/orders', { token, rawBody: '{', headers: { 'content-type': 'application/json' } }),
      );
      conforms(
        '/api/v1/orders',
        'POST',
        await api.request('POST', '/api/v1/orders', { token, rawBody: 'x', headers: { 'content-type': 'text/plain' } }),
      );
      conforms(
        '/api/v1/orders',
        'POST',
        await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ metadata: { a: 'x'.repeat(5000) } }) }),
      );
      conforms('/api/v1/orders', 'POST', await api.request('POST', '/api/v1/orders', { body: anOrderPayload() }));

      const list = await api.request('GET', '/api/v1/orders?page=1&pageSize=10', { token });
      expect(list.status).to.equal(200);
      expect(list.body.orders).to.have.length(2);
      conforms('/api/v1/events', 'GET', await api.request('GET', '/api/v1/events', { token }));
      conforms('/api/v1/events', 'GET', await api.request('GET', '/api/v1/events?after=evt_x', { token }));
      conforms(
        '/api/v1/orders/batch',
        'POST',
        await api.request('POST', '/api/v1/orders/batch', {
          token,
          body: { orders: [anOrderPayload({ externalId: 'batch-1' }), anOrderPayload({ externalId: 'batch-1' }), { externalId: 'x' }] },
        }),
      );
      conforms('/api/v1/orders', 'GET', list);
      const badQuery = await api.request('GET', '/api/v1/orders?pageSize=0&colour=red', { token });
      expect(badQuery.status).to.equal(400);
      conforms('/api/v1/orders', 'GET', badQuery);
      conforms('/api/v1/orders', 'GET', await api.request('GET', '/api/v1/orders', { token: 'ok_live_' + 'x'.repeat(43) }));

      const orderPath = '/api/v1/orders/{externalId}';
      conforms(orderPath, 'GET', await api.request('GET', '/api/v1/orders/order%202%2Fb', { token }));
      conforms(orderPath, 'GET', await api.request('GET', '/api/v1/orders/missing', { token }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/order-1', { token, body: { status: 'paid' } }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/order-1', { token, body: { metadata: { note: 'x' } } }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/order-1', { token, body: {} }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/missing', { token, body: { status: 'paid' } }));

      const link = { destinationUrl: 'https://shop.example/p?a=1#top', utmSource: 'google', utmMedium: 'cpc', utmCampaign: '{campaignid}' };
      conforms(
        `${LINKS_PREFIX}/build`,
        'POST',
        await api.request('POST', `${LINKS_PREFIX}/build`, { token, body: { ...link, params: { gclid: '{gclid}' } } }),
      );
      conforms(
        `${LINKS_PREFIX}/build`,
        'POST',
        await api.request('POST', `${LINKS_PREFIX}/build`, { token, body: { ...link, utmSource: '' } }),
      );
      const savedLink = await api.request('POST', LINKS_PREFIX, {
        token,
        body: { ...link, name: 'BF', utmTerm: 't', utmContent: 'c', utmId: 'i', params: { z: '1' } },
      });
      expect(savedLink.status).to.equal(201);
      conforms(LINKS_PREFIX, 'POST', savedLink);
      conforms(LINKS_PREFIX, 'POST', await api.request('POST', LINKS_PREFIX, { token, body: link }));
      conforms(LINKS_PREFIX, 'POST', await api.request('POST', LINKS_PREFIX, { token, body: { ...link, destinationUrl: 'ftp://x' } }));
      conforms(LINKS_PREFIX, 'GET', await api.request('GET', `${LINKS_PREFIX}?page=1&pageSize=1`, { token }));
      conforms(LINKS_PREFIX, 'GET', await api.request('GET', `${LINKS_PREFIX}?pageSize=0`, { token }));
      const linkPath = `${LINKS_PREFIX}/{id}`;
      conforms(linkPath, 'GET', await api.request('GET', savedLink.headers.get('location')!, { token }));
      conforms(linkPath, 'GET', await api.request('GET', `${LINKS_PREFIX}/lnk_missing`, { token }));
      const shortLink = '/l/{slug}';
      const slug = String(savedLink.body.link.shortUrl).split('/').pop()!;
      const redirected = await api.request('GET', `/l/${slug}?fbclid=x`);
      expect(redirected.status).to.equal(302);
      conforms(shortLink, 'GET', redirected);
      conforms(shortLink, 'GET', await api.request('GET', '/l/unknownSlug'));
      conforms(shortLink, 'GET', await api.request('GET', '/l/%FF'));
      const deleted = await api.request('DELETE', savedLink.headers.get('location')!, { token });
      expect(deleted.status).to.equal(204);
      conforms(linkPath, 'DELETE', deleted);
      conforms(linkPath, 'DELETE', await api.request('DELETE', savedLink.headers.get('location')!, { token }));

      await describesReportOperations(api, token, conforms);
      const dashboardPath = '/admin/v1/dashboards/{dashboardId}';
      conforms(dashboardPath, 'PATCH', await api.admin('PATCH', `/admin/v1/dashboards/${dashboardId}`, { timezone: 'Asia/Kathmandu' }));
      conforms(dashboardPath, 'PATCH', await api.admin('PATCH', `/admin/v1/dashboards/${dashboardId}`, { timezone: 'Mars/Olympus' }));
      conforms(dashboardPath, 'PATCH', await api.admin('PATCH', `/admin/v1/dashboards/${dashboardId}`, { taxRate: 12.34 }));
      conforms(dashboardPath, 'PATCH', await api.admin('PATCH', `/admin/v1/dashboards/${dashboardId}`, { taxRate: 12.345 }));
      conforms(dashboardPath, 'PATCH', await api.admin('PATCH', '/admin/v1/dashboards/dsh_missing', { name: 'x' }));
      conforms('/api/v1/dashboard', 'GET', await api.request('GET', '/api/v1/dashboard', { token }));

      conforms(revokePath, 'POST', await api.admin('POST', `/admin/v1/tokens/${issued.body.token.id}/revoke`));
      const revoked = await api.request('GET', '/api/v1/orders', { token });
      expect(revoked.body.code).to.equal('TOKEN_REVOKED');
      conforms('/api/v1/orders', 'GET', revoked);

      await describesWebhookOperations(api, (await api.newDashboard('Webhooks shop')).token, conforms);
      await describesSourceOperations(api, (await api.newDashboard('Sources shop')).token, conforms);
      await describesAdAccountOperations(api, (await api.newDashboard('Ads shop')).token, conforms);

      conforms('/healthz', 'GET', await api.request('GET', '/healthz'));
      conforms('/readyz', 'GET', await api.request('GET', '/readyz'));
      conforms('/tracker.js', 'GET', await api.request('GET', '/tracker.js'));

      for (const op of documentedOperations()) {
        const [method, path] = op.split(' ') as [string, string];
        const successes = Object.keys(operation(path, method).responses).filter((status) => status.startsWith('2'));
        for (const status of successes) expect(checked.has(`${method} ${path} ${status}`), `${op} ${status} was checked`).to.equal(true);
      }
    });

    it('describes the webhook requests the service sends: each event type under webhooks, bodies and headers', async () => {
      const receiver = await WebhookReceiver.start();
      try {
        const { token } = await api.newDashboard('Receiving shop');
        const endpoint = (await api.request('POST', '/api/v1/webhooks', { token, body: { url: receiver.url() } })).body.webhook;
        const full = { customer: { name: 'Zoë' }, fees: { a: 1 }, metadata: { b: [1] }, trackingExtras: { c: null } };
        for (const status of ['paid', 'refused', 'refunded', 'chargedback']) {
          expect(
            (
              await api.request('POST', '/api/v1/orders', {
                token,
                body: anOrderPayload({ externalId: `hook-${status}`, status, ...full }),
              })
            ).status,
          ).to.equal(201);
        }
        expect((await api.request('PATCH', '/api/v1/orders/hook-paid', { token, body: { metadata: { d: 1 } } })).status).to.equal(200);
        expect((await api.request('POST', `/api/v1/webhooks/${endpoint.id}/test`, { token })).status).to.equal(202);
        const requests = await receiver.waitFor(10);
        const types = new Set<string>();
        for (const request of requests) {
          const event = receiver.verified(endpoint.secret, [request])[0];
          types.add(event.type);
          const operation = doc.webhooks[event.type];
          expect(operation, event.type).to.not.equal(undefined);
          expect(validatesAgainst('#/components/schemas/WebhookEvent', event), event.type).to.equal(undefined);
          expect(request.headers['content-type']).to.be.oneOf(Object.keys(operation.post.requestBody.content));
          for (const header of operation.post.parameters) {
            const value = request.headers[header.name];
            expect(value, header.name).to.be.a('string');
            expect(ajv.compile(header.schema)(value), `${header.name}: ${String(value)}`).to.equal(true);
          }
        }
        expect([...types].sort()).to.deep.equal([...WEBHOOK_EVENT_TYPES].sort());
        expect(Object.keys(doc.webhooks).sort()).to.deep.equal([...WEBHOOK_EVENT_TYPES].sort());
      } finally {
        await receiver.stop();
      }
    });

    it('describes the tracking script: JavaScript as it is or gzipped, and 304 without a body', async () => {
      const plain = await api.request('GET', '/tracker.js', { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
      expect(plain.headers.get('content-encoding')).to.equal(null);
      conforms('/tracker.js', 'GET', plain);
      const gzipped = await api.request('GET', '/tracker.js', { headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers.get('content-encoding')).to.equal('gzip');
      expect(gzipped.text).to.equal(plain.text);
      conforms('/tracker.js', 'GET', gzipped);
      const notModified = await api.request('GET', '/tracker.js', {
        headers: { 'if-none-match': plain.headers.get('etag')!, 'accept-encoding': 'identity' },
      });
      expect(notModified.status).to.equal(304);
      conforms('/tracker.js', 'GET', notModified);
      const op = operation('/tracker.js', 'GET');
      expect(Object.keys(op.responses).sort()).to.deep.equal(['200', '304']);
      expect(Object.keys(deref(op.responses['200']).content ?? {})).to.deep.equal(['text/javascript']);
      expect(deref(op.responses['304']).content).to.equal(undefined);
      expect(op.security).to.deep.equal([]);
      const headerParameters = (op.parameters ?? [])
        .map((p) => deref(p))
        .filter((p) => p.in === 'header')
        .map((p) => p.name);
      expect(headerParameters).to.deep.equal(['X-Request-Id', 'If-None-Match', 'Accept-Encoding']);
    });

    it('describes the answers outside the operations: unknown paths, other methods, HEAD and OPTIONS', async () => {
      matches('#/components/responses/RouteNotFound', await api.request('GET', '/api/v1/nothing-here'), 'unknown path');
      const other = await api.request('DELETE', '/api/v1/orders');
      expect(other.status).to.equal(405);
      matches('#/components/responses/MethodNotAllowed', other, 'DELETE /api/v1/orders');
      expect((await api.request('HEAD', '/healthz')).status).to.equal(200);
      const options = await api.request('OPTIONS', '/api/v1/orders');
      expect(options.status).to.equal(200);
      expect(options.headers.get('allow')).to.include('POST');
    });

    it('describes real responses of the rate limit: 429 with Retry-After on every operation, and no headers on 401', async () => {
      const limited = await TestApi.start({ rateLimitMax: 2, rateLimitWindowSeconds: 60 });
      try {
        const calls: [string, string, string, unknown][] = [
          [ORDERS_PREFIX, 'POST', ORDERS_PREFIX, anOrderPayload({ externalId: 'limited' })],
          [ORDERS_PREFIX, 'GET', ORDERS_PREFIX, undefined],
          [`${ORDERS_PREFIX}/{externalId}`, 'GET', `${ORDERS_PREFIX}/limited`, undefined],
          [`${ORDERS_PREFIX}/{externalId}`, 'PATCH', `${ORDERS_PREFIX}/limited`, { metadata: { note: 'x' } }],
        ];
        for (const [path, method, url, body] of calls) {
          const { token } = await limited.newDashboard();
          const answers = [];
          for (let i = 0; i < 3; i++) answers.push(await limited.request(method, url, { token, body }));
          for (const res of answers) conforms(path, method, res);
          expect(
            answers.map((res) => res.headers.get('ratelimit')?.replace(/;t=\d+$/, '')),
            `${method} ${path}`,
          ).to.deep.equal(['"default";r=1', '"default";r=0', '"default";r=0']);
          const tooMany = answers[2];
          expect(tooMany.status).to.equal(429);
          expect(tooMany.body.code).to.equal('RATE_LIMIT_EXCEEDED');
          expect(tooMany.headers.get('ratelimit-policy')).to.equal('"default";q=2;w=60');
          const retryAfter = Number(tooMany.headers.get('retry-after'));
          expect(retryAfter).to.be.within(1, 60);
          expect(tooMany.headers.get('ratelimit')).to.equal(`"default";r=0;t=${retryAfter}`);
        }
        const unauthorized = await limited.request('GET', ORDERS_PREFIX, { token: 'ok_live_' + 'x'.repeat(43) });
        conforms(ORDERS_PREFIX, 'GET', unauthorized);
        expect(unauthorized.headers.get('ratelimit')).to.equal(null);
        expect(unauthorized.headers.get('ratelimit-policy')).to.equal(null);
      } finally {
        await limited.stop();
      }
    });

    it('describes real responses of an Idempotency-Key: replays, 422 and a bad key', async () => {
      const { token } = await api.newDashboard('Idempotency');
      const key = (value: string) => ({ token, headers: { 'idempotency-key': value } });
      const post = (value: string, body: unknown) => api.request('POST', ORDERS_PREFIX, { ...key(value), body });
      const orderPath = `${ORDERS_PREFIX}/{externalId}`;

      const first = await post('create-1', anOrderPayload({ externalId: 'idem-1' }));
      expect(first.status).to.equal(201);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      conforms(ORDERS_PREFIX, 'POST', first);
      const replayed = await post('"create-1"', anOrderPayload({ externalId: 'idem-1' }));
      expect(replayed.status).to.equal(201);
      expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
      expect(replayed.headers.get('location')).to.equal(first.headers.get('location'));
      expect(replayed.body).to.deep.equal(first.body);
      conforms(ORDERS_PREFIX, 'POST', replayed);

      const reused = await post('create-1', anOrderPayload({ externalId: 'idem-other' }));
      expect(reused.status).to.equal(422);
      expect(reused.body.code).to.equal('IDEMPOTENCY_KEY_REUSED');
      conforms(ORDERS_PREFIX, 'POST', reused);

      for (const bad of ['a b', 'k'.repeat(256), '""', '']) {
        const refused = await post(bad, anOrderPayload({ externalId: 'idem-bad' }));
        expect(refused.status, bad).to.equal(400);
        expect(refused.body.details, bad).to.deep.equal([
          { path: 'header.Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters, optionally in double quotes' },
        ]);
        conforms(ORDERS_PREFIX, 'POST', refused);
      }

      const patch = (value: string, url: string, body: unknown) => api.request('PATCH', url, { ...key(value), body });
      const updated = await patch('update-1', `${ORDERS_PREFIX}/idem-1`, { metadata: { note: 'x' } });
      expect(updated.status).to.equal(200);
      conforms(orderPath, 'PATCH', updated);
      const updateReused = await patch('update-1', `${ORDERS_PREFIX}/idem-1`, { metadata: { note: 'y' } });
      expect(updateReused.status).to.equal(422);
      conforms(orderPath, 'PATCH', updateReused);
    });

    it('describes real replays of responses without Location: 409, 404 and a PATCH 200', async () => {
      const { token } = await api.newDashboard('Replays');
      const key = (value: string) => ({ token, headers: { 'idempotency-key': value } });
      const post = (value: string, body: unknown) => api.request('POST', ORDERS_PREFIX, { ...key(value), body });
      const patch = (value: string, url: string, body: unknown) => api.request('PATCH', url, { ...key(value), body });
      const orderPath = `${ORDERS_PREFIX}/{externalId}`;
      expect((await post('create-1', anOrderPayload({ externalId: 'replay-1' }))).status).to.equal(201);

      const duplicate = await post('create-2', anOrderPayload({ externalId: 'replay-1' }));
      expect(duplicate.body.code).to.equal('DUPLICATE_EXTERNAL_ID');
      const duplicateAgain = await post('create-2', anOrderPayload({ externalId: 'replay-1' }));
      expect(duplicateAgain.status).to.equal(409);
      expect(duplicateAgain.headers.get('idempotent-replayed')).to.equal('true');
      expect(duplicateAgain.body, 'the stored body, with the first request id').to.deep.equal(duplicate.body);
      expect(duplicateAgain.headers.get('retry-after')).to.equal(null);
      conforms(ORDERS_PREFIX, 'POST', duplicateAgain);

      const updated = await patch('update-1', `${ORDERS_PREFIX}/replay-1`, { metadata: { note: 'x' } });
      const updatedAgain = await patch('update-1', `${ORDERS_PREFIX}/replay-1`, { metadata: { note: 'x' } });
      expect(updatedAgain.status).to.equal(200);
      expect(updatedAgain.headers.get('idempotent-replayed')).to.equal('true');
      expect(updatedAgain.body).to.deep.equal(updated.body);
      conforms(orderPath, 'PATCH', updatedAgain);
      const refusedTransition = await patch('update-2', `${ORDERS_PREFIX}/replay-1`, { status: 'paid' });
      expect(refusedTransition.body.code).to.equal('INVALID_TRANSITION');
      const refusedAgain = await patch('update-2', `${ORDERS_PREFIX}/replay-1`, { status: 'paid' });
      expect(refusedAgain.headers.get('idempotent-replayed')).to.equal('true');
      conforms(orderPath, 'PATCH', refusedAgain);
      await patch('update-3', `${ORDERS_PREFIX}/missing`, { status: 'paid' });
      const missingAgain = await patch('update-3', `${ORDERS_PREFIX}/missing`, { status: 'paid' });
      expect(missingAgain.status).to.equal(404);
      expect(missingAgain.headers.get('idempotent-replayed')).to.equal('true');
      conforms(orderPath, 'PATCH', missingAgain);
    });

    it('describes real responses while a key is in progress, and storage failures after counting', async () => {
      let reached!: () => void;
      const completing = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const base = inMemoryStorage();
      const storage = {
        ...base,
        idempotency: overriding<IdempotencyStore>(base.idempotency, {
          complete: async (scope, claimId, response) => {
            reached();
            await released;
            return base.idempotency.complete(scope, claimId, response);
          },
        }),
        orders: overriding<OrderRepository>(base.orders, {
          list: async () => Promise.reject(new StorageUnavailableError('list is down')),
          findByExternalId: async () => Promise.reject(new TypeError('read is broken')),
        }),
      };
      const instrumented = await TestApi.start({}, { storage });
      try {
        const { token } = await instrumented.newDashboard();
        const request = { token, headers: { 'idempotency-key': 'slow-1' }, body: anOrderPayload({ externalId: 'slow' }) };
        const first = instrumented.request('POST', ORDERS_PREFIX, request);
        await completing;
        const inProgress = await instrumented.request('POST', ORDERS_PREFIX, request);
        release();
        expect(inProgress.status).to.equal(409);
        expect(inProgress.body.code).to.equal('IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(Number(inProgress.headers.get('retry-after'))).to.be.within(1, 10);
        conforms(ORDERS_PREFIX, 'POST', inProgress);
        const created = await first;
        expect(created.status).to.equal(201);
        conforms(ORDERS_PREFIX, 'POST', created);

        const unavailable = await instrumented.request('GET', ORDERS_PREFIX, { token });
        expect(unavailable.status).to.equal(503);
        expect(unavailable.headers.get('ratelimit')).to.be.a('string');
        conforms(ORDERS_PREFIX, 'GET', unavailable);
        const broken = await instrumented.request('GET', `${ORDERS_PREFIX}/slow`, { token });
        expect(broken.status).to.equal(500);
        expect(broken.headers.get('ratelimit')).to.be.a('string');
        conforms(`${ORDERS_PREFIX}/{externalId}`, 'GET', broken);
      } finally {
        release();
        await instrumented.stop();
      }
    });

    it('describes readiness when storage does not answer, and the admin API when it is disabled', async () => {
      const down = { ...inMemoryStorage(), health: { ping: async () => false, canWrite: async () => false, close: async () => undefined } };
      const unready = await TestApi.start({ adminToken: undefined }, { storage: down });
      try {
        conforms('/readyz', 'GET', await unready.request('GET', '/readyz'));
        const disabled = await unready.admin('POST', '/admin/v1/dashboards', { name: 'x' });
        expect(disabled.status).to.equal(404);
        conforms('/admin/v1/dashboards', 'POST', disabled);
      } finally {
        await unready.stop();
      }
    });
  });
});
