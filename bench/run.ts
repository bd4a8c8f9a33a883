import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { MongoClient } from 'mongodb';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { connectMongoStorage } from '../src/adapters/mongodb/mongo-storage';
import { Sha256TokenSecrets } from '../src/adapters/system/sha256-token-secrets';
import { startService } from '../src/bootstrap/service';
import { inMemoryStorage } from '../src/adapters/memory/in-memory-storage';
import type { Storage } from '../src/application/ports/storage';
import { benchConfig, newToken } from './bench-api';
import { CONCURRENCY, fixed, httpWorkloads, printTable, REQUESTS, ROUNDS, WARMUP } from './http-workloads';
import { commandsPerOperation } from './mongo-commands';
import { timePair } from './store-ops';

/**
 * Measures the cost of authentication, rate limiting and Idempotency-Key over a real loopback socket,
 * as ratios against GET /healthz measured in the same run. Reports, asserts nothing. Embedded store by
 * default; MONGODB_URI runs it on a throwaway database of that server, dropped at the end.
 */

const STORE_MAX_MS = 6_000;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** storage.rateLimits.hit against storage.tokens.findByHash, the look-up every request already pays. */
const storeTimings = async (storage: Storage, token: string, calls: number): Promise<void> => {
  const hash = new Sha256TokenSecrets().hash(token);
  const subject = `bench-direct-${randomUUID()}`;
  const timing = await timePair(
    calls,
    () => storage.rateLimits.hit(subject, 60_000, new Date()),
    () => storage.tokens.findByHash(hash),
    STORE_MAX_MS,
  );
  console.log(`\nStore operations, one call at a time, on the service's store (${timing.a.calls} + ${timing.b.calls} calls):`);
  console.log(`  rateLimits.hit      ${fixed(timing.a.meanUs, 1)} µs/call`);
  console.log(`  tokens.findByHash   ${fixed(timing.b.meanUs, 1)} µs/call`);
  console.log(`  hit / findByHash    ${fixed(timing.ratio, 2)}`);
};

const uri = process.env['MONGODB_URI'] === '' ? undefined : process.env['MONGODB_URI'];
const dbName = `orders_bench_${Date.now().toString(36)}_${process.pid}`;

const main = async (): Promise<void> => {
  const logger = new PinoLogger(
    'silent',
    sinkDestination(() => undefined),
  );
  const storage = uri === undefined ? inMemoryStorage() : await connectMongoStorage(uri, dbName, logger);
  const service = await startService(benchConfig, { storage, logger });
  console.log(`orders-service bench, ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs`);
  console.log(
    `store: ${storage.description}; per workload ${WARMUP} warm-up requests, then ${REQUESTS} measured in ${ROUNDS} passes over all workloads; ` +
      `concurrency ${CONCURRENCY}; loopback; the client runs in the same process\n`,
  );
  try {
    const before = process.memoryUsage();
    const rows = await httpWorkloads(service);
    const after = process.memoryUsage();
    printTable(rows);
    console.log(`\nmemory: rss ${mb(before.rss)} -> ${mb(after.rss)}, heapUsed ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}`);
    const { token } = await newToken(service.url, 'bench store timings');
    await storeTimings(storage, token, uri === undefined ? 20_000 : 1_000);
    if (uri !== undefined) await commandsPerOperation(uri, dbName);
  } finally {
    await service.stop();
    if (uri !== undefined) {
      const client = new MongoClient(uri);
      await client
        .db(dbName)
        .dropDatabase()
        .finally(() => client.close());
    }
  }
};

const watchdog = setTimeout(() => {
  console.error(`bench: still running after 60 s; stopping${uri === undefined ? '' : ` (drop the database ${dbName} by hand)`}`);
  process.exit(1);
}, 60_000);
watchdog.unref();

main().then(
  () => clearTimeout(watchdog),
  (err: unknown) => {
    console.error('bench failed:', err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
