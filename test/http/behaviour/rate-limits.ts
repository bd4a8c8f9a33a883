import { expect } from 'chai';
import type { RateLimitCounter } from '../../../src/application/ports/rate-limit-counter';
import { anOrderPayload } from '../../support/order-builder';
import type { ApiResponse } from '../../support/test-api';
import { TEST_ADMIN_TOKEN } from '../../support/test-config';
import { listOrders, ORDERS, orderPath, postOrder, useApi, type Harness, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';

const MAX = 3;
const WINDOW_SECONDS = 60;

/** The headers of draft-ietf-httpapi-ratelimit-headers, as decision 0009 writes them. */
const expectRateLimit = (res: ApiResponse, remaining: number, seconds: number, max = MAX): void => {
  expect(res.headers.get('ratelimit-policy'), 'RateLimit-Policy').to.equal(`"default";q=${max};w=${WINDOW_SECONDS}`);
  expect(res.headers.get('ratelimit'), 'RateLimit').to.equal(`"default";r=${remaining};t=${seconds}`);
};

const expectNoRateLimit = (res: ApiResponse): void => {
  expect(res.headers.get('ratelimit-policy'), 'RateLimit-Policy').to.equal(null);
  expect(res.headers.get('ratelimit'), 'RateLimit').to.equal(null);
};

const list = (h: Harness, token = h.token): Promise<ApiResponse> => h.api.request('GET', ORDERS, { token });

/** The 429 of decisions 0001, 0009, with Retry-After the seconds to the end of the window. */
const expectLimited = (res: ApiResponse, seconds: number): void => {
  expectProblem(res, 429, 'RATE_LIMIT_EXCEEDED');
  expect(res.headers.get('retry-after'), 'Retry-After').to.equal(String(seconds));
  expectRateLimit(res, 0, seconds);
};

/** Spends the token's whole quota, checking each step. */
const exhaust = async (h: Harness, token = h.token): Promise<void> => {
  for (let remaining = MAX - 1; remaining >= 0; remaining--) {
    const res = await list(h, token);
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('ratelimit')).to.match(new RegExp(`^"default";r=${remaining};`));
  }
};

/** Per-token fixed windows (decision 0009), on a clock that stands still at the start of a window. */
export const rateLimitsBehaviour = (storageFactory: StorageFactory): void => {
  describe('rate limits', () => {
    const h = useApi(storageFactory, { clock: true, config: { rateLimitMax: MAX, rateLimitWindowSeconds: WINDOW_SECONDS } });

    it('starts on a clock at the start of a window, which the other tests rely on', () => {
      expect(h.clock.now().getTime() % (WINDOW_SECONDS * 1000)).to.equal(0);
    });

    it('carries RateLimit-Policy and RateLimit on every authenticated response, 2xx and 4xx, counting down', async () => {
      const created = await postOrder(h, { externalId: 'rl-1' });
      expect(created.status, created.text).to.equal(201);
      expectRateLimit(created, 2, 60);
      h.clock.advance(15_000);
      const missing = await h.api.request('GET', orderPath('nope'), { token: h.token });
      expectProblem(missing, 404, 'NOT_FOUND');
      expectRateLimit(missing, 1, 45);
      h.clock.advance(14_500);
      const invalid = await h.api.request('POST', ORDERS, { token: h.token, body: { externalId: 'rl-2' } });
      expectProblem(invalid, 400, 'VALIDATION_FAILED');
      expectRateLimit(invalid, 0, 31);
    });

    it('answers the request after the last one allowed with 429 RATE_LIMIT_EXCEEDED and Retry-After to the window end', async () => {
      await exhaust(h);
      expectLimited(await list(h), 60);
      h.clock.advance(20_000);
      expectLimited(await list(h), 40);
      h.clock.advance(39_000);
      expectLimited(await list(h), 1);
    });

    it('refuses before anything else: no validation, no idempotency check, nothing created', async () => {
      await exhaust(h);
      expectLimited(await h.api.request('POST', ORDERS, { token: h.token, body: { externalId: 'invalid' } }), 60);
      expectLimited(
        await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload(), headers: { 'idempotency-key': 'not valid' } }),
        60,
      );
      expectLimited(await postOrder(h, { externalId: 'refused' }), 60);
      h.clock.advance(60_000);
      expect((await listOrders(h)).total).to.equal(0);
    });

    it('does not store a 429 under an Idempotency-Key: the same key with another body executes in the next window', async () => {
      await exhaust(h);
      const headers = { 'idempotency-key': 'k-429' };
      expectLimited(await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'a' }), headers }), 60);
      h.clock.advance(60_000);
      const res = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'b' }), headers });
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.get('idempotent-replayed')).to.equal(null);
      expectRateLimit(res, 2, 60);
    });

    it('allows requests again when the window resets, with the whole quota back', async () => {
      await exhaust(h);
      h.clock.advance(59_999);
      expectLimited(await list(h), 1);
      h.clock.advance(1);
      const res = await list(h);
      expect(res.status, res.text).to.equal(200);
      expectRateLimit(res, 2, 60);
      expectRateLimit(await list(h), 1, 60);
      expectRateLimit(await list(h), 0, 60);
      expectLimited(await list(h), 60);
    });

    it('counts each token apart, even two tokens of one dashboard', async () => {
      const issued = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { name: 'second' });
      expect(issued.status, issued.text).to.equal(201);
      const second: string = issued.body.token.token;
      await exhaust(h);
      expectLimited(await list(h), 60);
      const other = await list(h, second);
      expect(other.status, other.text).to.equal(200);
      expectRateLimit(other, 2, 60);
      expectLimited(await list(h), 60);
    });

    it('charges no quota and sends no RateLimit headers for a missing, invalid or revoked token', async () => {
      const issued = await h.api.admin('POST', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { name: 'revoked' });
      const revoked = await h.api.admin('POST', `/admin/v1/tokens/${issued.body.token.id}/revoke`);
      expect(revoked.status, revoked.text).to.equal(200);
      const attempts: [string | undefined, string][] = [
        [undefined, 'UNAUTHORIZED'],
        [`ok_live_${'A'.repeat(43)}`, 'UNAUTHORIZED'],
        [`${h.token}x`, 'UNAUTHORIZED'],
        [issued.body.token.token, 'TOKEN_REVOKED'],
      ];
      for (const [token, code] of attempts) {
        for (let i = 0; i < MAX + 1; i++) {
          const res = await h.api.request('GET', ORDERS, { token });
          expectProblem(res, 401, code);
          expectNoRateLimit(res);
        }
      }
      const res = await list(h);
      expect(res.status, res.text).to.equal(200);
      expectRateLimit(res, 2, 60);
    });

    it('sends no RateLimit headers and charges nothing on /healthz, /readyz, the OpenAPI document and the admin API', async () => {
      for (let i = 0; i < MAX + 1; i++) {
        for (const path of ['/healthz', '/readyz', '/api/v1/openapi.json']) {
          const res = await h.api.request('GET', path, { token: h.token });
          expect(res.status, `${path}: ${res.text}`).to.equal(200);
          expectNoRateLimit(res);
        }
        const admin = await h.api.request('GET', `/admin/v1/dashboards/${h.dashboardId}/tokens`, { token: TEST_ADMIN_TOKEN });
        expect(admin.status, admin.text).to.equal(200);
        expectNoRateLimit(admin);
      }
      expectRateLimit(await list(h), 2, 60);
    });
  });

  describe('a batch refused whole while its window ends (decision 0023)', () => {
    const LIMIT = 20;
    /** The clock moves into the next window right after the batch's orders were counted, as a slow store would let it. */
    const h: Harness = useApi(storageFactory, {
      clock: true,
      config: { rateLimitMax: LIMIT, rateLimitWindowSeconds: WINDOW_SECONDS },
      storage: (storage) => {
        const counter: RateLimitCounter = {
          hit: async (subject, windowMs, now, amount) => {
            const counted = await storage.rateLimits.hit(subject, windowMs, now, amount);
            if (amount !== undefined && amount > 1) h.clock.advance(WINDOW_SECONDS * 1000);
            return counted;
          },
          peek: (subject, windowMs, now) => storage.rateLimits.peek(subject, windowMs, now),
        };
        return new Proxy(storage, { get: (t, prop) => (prop === 'rateLimits' ? counter : Reflect.get(t, prop)) });
      },
    });

    it('gives its count back to the window it was taken from, never to the next one', async () => {
      const orders = Array.from({ length: LIMIT + 5 }, (_, i) => anOrderPayload({ externalId: `gb-${i}` }));
      const refused = await h.api.request('POST', `${ORDERS}/batch`, { token: h.token, body: { orders } });
      expectProblem(refused, 429, 'RATE_LIMIT_EXCEEDED');
      const next = await list(h);
      expect(next.status, next.text).to.equal(200);
      expectRateLimit(next, LIMIT - 1, WINDOW_SECONDS, LIMIT);
    });
  });

  describe('rate limits under parallel requests', () => {
    const PARALLEL_MAX = 5;
    const h = useApi(storageFactory, { clock: true, config: { rateLimitMax: PARALLEL_MAX, rateLimitWindowSeconds: WINDOW_SECONDS } });

    it(`lets exactly ${PARALLEL_MAX} of 10 parallel requests through, each with its own remaining count`, async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => list(h)));
      const allowed = answers.filter((res) => res.status === 200);
      const refused = answers.filter((res) => res.status !== 200);
      expect(allowed).to.have.length(PARALLEL_MAX);
      for (const res of refused) expectProblem(res, 429, 'RATE_LIMIT_EXCEEDED');
      const remaining = allowed.map((res) => /;r=(\d+);/.exec(res.headers.get('ratelimit') ?? '')?.[1]).sort();
      expect(remaining).to.deep.equal(['0', '1', '2', '3', '4']);
      for (const res of allowed) {
        expect(res.headers.get('ratelimit-policy')).to.equal(`"default";q=${PARALLEL_MAX};w=${WINDOW_SECONDS}`);
      }
    });
  });
};
