import * as E from 'fp-ts/Either';
import { inMemoryStorage } from '../src/adapters/memory/in-memory-storage';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import type { Storage } from '../src/application/ports/storage';
import { compose } from '../src/bootstrap/composition';
import { startService, type RunningService } from '../src/bootstrap/service';
import { aNewOrder } from '../test/support/order-builder';
import { temporarySqliteStorage } from '../test/support/sqlite-files';
import { benchConfig, newToken, orderBody } from './bench-api';
import { noSamples, runLoad, summarize, type Samples } from './load';

/** The stores whose creation rates are compared: the in-memory store is the reference. */
export const CREATION_STORES: readonly { readonly name: string; readonly open: () => Storage }[] = [
  { name: 'in-memory (reference)', open: () => inMemoryStorage() },
  { name: 'SQLite: group commit, fsync before answer (the default)', open: () => temporarySqliteStorage() },
  { name: 'SQLite: group commit, synchronous=FULL', open: () => temporarySqliteStorage({ durability: 'full' }) },
  { name: 'SQLite: group commit, synchronous=NORMAL, no sync', open: () => temporarySqliteStorage({ durability: 'normal' }) },
  {
    name: 'SQLite: no group commit (a transaction and a sync per write)',
    open: () => temporarySqliteStorage({ groupCommit: false, durability: 'full' }),
  },
];

export interface CreationRow {
  readonly store: string;
  readonly perSecond: number;
  readonly created: number;
}

const ROUNDS = 3;

/**
 * Creations through the CreateOrder use case (no HTTP), `concurrency` callers at once, on each store in
 * turn for `ROUNDS` rounds (so that drift falls on all alike), each round stopped after `count`
 * creations or `maxMs`.
 */
export const useCaseCreationRates = async (count: number, concurrency: number, maxMs: number): Promise<CreationRow[]> => {
  const stores = CREATION_STORES.map(({ name, open }) => {
    const storage = open();
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 1_000_000_000, windowSeconds: 60 },
      idempotency: { ttlMs: 86_400_000, leaseMs: 10_000 },
    });
    return { name, storage, createOrder: useCases.createOrder, created: 0, ms: 0 };
  });
  try {
    for (let round = -1; round < ROUNDS; round++) {
      for (const store of stores) {
        let next = 0;
        const started = performance.now();
        const deadline = started + (round < 0 ? maxMs / 5 : maxMs);
        const limit = round < 0 ? Math.ceil(count / 10) : count;
        const caller = async (): Promise<void> => {
          while (next < limit && performance.now() < deadline) {
            const i = next++;
            const created = await store.createOrder.execute('dsh_bench', aNewOrder({ externalId: `uc-${round}-${i}` }));
            if (E.isLeft(created)) throw new Error(`creation refused: ${created.left._tag}`);
          }
        };
        await Promise.all(Array.from({ length: concurrency }, caller));
        // The first round warms each store up and is not counted.
        if (round >= 0) {
          store.created += next;
          store.ms += performance.now() - started;
        }
      }
    }
  } finally {
    await Promise.all(stores.map((store) => store.storage.health.close()));
  }
  return stores.map(({ name, created, ms }) => ({ store: name, perSecond: (created / ms) * 1000, created }));
};

/**
 * POST /api/v1/orders over a loopback socket to a service on each store (auth, rate limit, validation,
 * the use case, the response), `concurrency` requests in flight, in rounds over the stores.
 */
export const httpCreationRates = async (requests: number, concurrency: number, maxMs: number): Promise<CreationRow[]> => {
  const logger = new PinoLogger(
    'silent',
    sinkDestination(() => undefined),
  );
  const services: { name: string; service: RunningService; token: string; samples: Samples; next: number }[] = [];
  try {
    for (const { name, open } of CREATION_STORES) {
      const service = await startService(benchConfig, { storage: open(), logger });
      services.push({ name, service, token: (await newToken(service.url, 'bench')).token, samples: noSamples(), next: 0 });
    }
    for (let round = -1; round < ROUNDS; round++) {
      for (const entry of services) {
        const into = round < 0 ? noSamples() : entry.samples;
        const spec = () => ({
          method: 'POST',
          path: '/api/v1/orders',
          headers: { authorization: `Bearer ${entry.token}` },
          body: orderBody(`http-${entry.next++}`),
        });
        const options = { baseUrl: entry.service.url, requests: round < 0 ? 300 : requests, concurrency, maxMs, expectedStatus: 201 };
        await runLoad(options, spec, into);
      }
    }
  } finally {
    await Promise.all(services.map(({ service }) => service.stop()));
  }
  return services.map(({ name, samples }) => {
    const summary = summarize(samples);
    if (summary.unexpected > 0) throw new Error(`${name}: ${summary.unexpected} answers were not 201`);
    return { store: name, perSecond: summary.perSecond, created: summary.completed };
  });
};
