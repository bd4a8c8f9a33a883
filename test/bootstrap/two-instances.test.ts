import { expect } from 'chai';
import type { Config } from '../../src/bootstrap/config';
import type { Storage } from '../../src/application/ports/storage';
import { expectProblem } from '../http/problem-assertions';
import { memoryLogger } from '../support/memory-log';
import { describeWithMongo } from '../support/mongo-server';
import { MutableClock, TEST_EPOCH } from '../support/mutable-clock';
import { anOrderPayload } from '../support/order-builder';
import { TestApi, type ApiResponse } from '../support/test-api';

const ORDERS = '/api/v1/orders';

/** The remaining count of a RateLimit header. */
const remainingOf = (res: ApiResponse): number => Number(/;r=(\d+);/.exec(res.headers.get('ratelimit') ?? '')?.[1] ?? NaN);

/**
 * Two services on one MongoDB database, each with its own client, as two replicas behind a load
 * balancer: what one claims or counts, the other sees (decisions 0007, 0009).
 */
describeWithMongo('two service instances on one MongoDB database', (mongo) => {
  const clock = new MutableClock();
  let instances: TestApi[] = [];
  let token: string;
  /** Order inserts attempted by either instance: what "executed" means for a POST. */
  let inserts = 0;

  const countingInserts = (storage: Storage): Storage => {
    const orders = new Proxy(storage.orders, {
      get: (target, prop) => {
        const value: unknown = Reflect.get(target, prop);
        if (prop !== 'insert' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: Parameters<Storage['orders']['insert']>) => {
          inserts += 1;
          return target.insert(...args);
        };
      },
    });
    return new Proxy(storage, { get: (target, prop) => (prop === 'orders' ? orders : Reflect.get(target, prop)) });
  };

  const start = async (config: Partial<Config>): Promise<void> => {
    await mongo.empty();
    clock.set(TEST_EPOCH);
    inserts = 0;
    for (let i = 0; i < 2; i++) {
      const storage = countingInserts(await mongo.connect());
      instances.push(await TestApi.start(config, { storage, logger: memoryLogger().logger, clock }));
    }
    token = (await instances[0].newDashboard('Shared shop')).token;
  };

  /** `count` requests, the i-th to instance i % 2. */
  const alternating = (count: number, call: (api: TestApi, i: number) => Promise<ApiResponse>): Promise<ApiResponse>[] =>
    Array.from({ length: count }, (_, i) => call(instances[i % 2], i));

  afterEach(async () => {
    await Promise.all(instances.map((api) => api.stop()));
    instances = [];
  });

  describe('one Idempotency-Key', () => {
    beforeEach(() => start({}));

    it('executes once when sent to both instances in parallel, round after round', async () => {
      const rounds = 5;
      for (let round = 0; round < rounds; round++) {
        const key = `two-instances-${round}`;
        const body = anOrderPayload({ externalId: `both-${round}` });
        const post = (api: TestApi) => api.request('POST', ORDERS, { token, body, headers: { 'idempotency-key': key } });
        const answers = await Promise.all(alternating(10, post));
        const created = answers.filter((res) => res.status === 201);
        for (const res of answers) {
          if (res.status !== 201) expectProblem(res, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        }
        expect(
          created.filter((res) => res.headers.get('idempotent-replayed') === null),
          `round ${round}`,
        ).to.have.length(1);
        expect(inserts, `round ${round}`).to.equal(round + 1);
        for (const res of created) expect(res.body).to.deep.equal(created[0].body);

        for (const api of instances) {
          const replay = await post(api);
          expect(replay.status, replay.text).to.equal(201);
          expect(replay.headers.get('idempotent-replayed')).to.equal('true');
          expect(replay.body).to.deep.equal(created[0].body);
        }
      }
      expect(inserts).to.equal(rounds);
      for (const api of instances) {
        const list = await api.request('GET', `${ORDERS}?pageSize=100`, { token });
        expect(list.status, list.text).to.equal(200);
        expect(list.body.total).to.equal(rounds);
      }
    });
  });

  describe('one rate limit', () => {
    const MAX = 6;
    beforeEach(() => start({ rateLimitMax: MAX, rateLimitWindowSeconds: 60 }));

    const list = (api: TestApi) => api.request('GET', ORDERS, { token });

    it(`shares ${MAX} requests per window between the instances, sequentially and in a parallel burst`, async () => {
      const sequential: ApiResponse[] = [];
      for (let i = 0; i < 10; i++) sequential.push(await list(instances[i % 2]));
      expect(sequential.map((res) => res.status)).to.deep.equal([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
      expect(sequential.slice(0, MAX).map(remainingOf)).to.deep.equal([5, 4, 3, 2, 1, 0]);
      for (const res of sequential.slice(MAX)) {
        expectProblem(res, 429, 'RATE_LIMIT_EXCEEDED');
        expect(res.headers.get('retry-after')).to.equal('60');
      }

      clock.advance(60_000);
      const burst = await Promise.all(alternating(12, list));
      const allowed = burst.filter((res) => res.status === 200);
      expect(allowed).to.have.length(MAX);
      expect(allowed.map(remainingOf).sort((a, b) => a - b)).to.deep.equal([0, 1, 2, 3, 4, 5]);
      for (const res of burst.filter((r) => r.status !== 200)) expectProblem(res, 429, 'RATE_LIMIT_EXCEEDED');
    });
  });
});
