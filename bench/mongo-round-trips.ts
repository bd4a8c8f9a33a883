import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { createMongoStorage } from '../src/adapters/mongodb/mongo-storage';
import { Sha256TokenSecrets } from '../src/adapters/system/sha256-token-secrets';
import { startService, type RunningService } from '../src/bootstrap/service';
import { benchConfig, call, newToken, orderBody } from './bench-api';
import { fixed } from './http-workloads';
import { CommandCounter } from './store-ops';

const ROUND_TRIP_CALLS = 30;
const ROUND_TRIP_MAX_MS_EACH = 1_500;

/**
 * Commands sent to MongoDB per operation, counted and timed on a client of this process opened with
 * monitorCommands, under a second service on the same database as the timed workloads (so the times
 * are those of collections of that size). A failed command (a duplicate key) counts like any other.
 */
export const roundTrips = async (uri: string, dbName: string): Promise<void> => {
  const client = new MongoClient(uri, { monitorCommands: true, ignoreUndefined: true, appName: 'orders-bench' });
  const counter = new CommandCounter(client);
  const logger = new PinoLogger('silent', sinkDestination(() => undefined));
  const storage = createMongoStorage(client, dbName, logger);
  let service: RunningService;
  try {
    service = await startService(benchConfig, { storage, logger });
  } catch (err) {
    await client.close();
    throw err;
  }
  try {
    const { token } = await newToken(service.url, 'bench round trips');
    const hash = new Sha256TokenSecrets().hash(token);
    const subject = `bench-rt-${randomUUID()}`;
    const runId = randomUUID().slice(0, 8);
    await call(service.url, 'GET', '/api/v1/orders', token);
    const replayKey = { 'idempotency-key': `rt-replay-${runId}` };
    await call(service.url, 'POST', '/api/v1/orders', token, orderBody(`rt-replayed-${runId}`), replayKey);
    const measured: [string, (i: number) => Promise<unknown>][] = [
      ['rateLimits.hit', () => storage.rateLimits.hit(subject, 60_000, new Date())],
      ['tokens.findByHash', () => storage.tokens.findByHash(hash)],
      ['POST, no key', (i) => call(service.url, 'POST', '/api/v1/orders', token, orderBody(`rt-plain-${runId}-${i}`))],
      [
        'POST, fresh key',
        (i) => call(service.url, 'POST', '/api/v1/orders', token, orderBody(`rt-keyed-${runId}-${i}`), { 'idempotency-key': `rt-${runId}-${i}` }),
      ],
      ['POST, replay', () => call(service.url, 'POST', '/api/v1/orders', token, orderBody(`rt-replayed-${runId}`), replayKey)],
      ['GET /api/v1/orders', () => call(service.url, 'GET', '/api/v1/orders', token)],
    ];
    console.log(
      `\nMongoDB commands per operation: up to ${ROUND_TRIP_CALLS} calls each, one at a time, through a second service on the same database;` +
        '\nper command name: commands per call (mean ms per command)',
    );
    for (const [name, action] of measured) {
      const { calls, total, byName } = await counter.perCall(ROUND_TRIP_CALLS, action, performance.now() + ROUND_TRIP_MAX_MS_EACH);
      const detail = Object.entries(byName)
        .map(([command, { perCall, meanMs }]) => `${command} ${fixed(perCall, 2)} (${fixed(meanMs, 1)} ms)`)
        .join(', ');
      console.log(`  ${name.padEnd(20)} ${fixed(total, 2)}  ${detail}; ${calls} calls`);
    }
  } finally {
    await service.stop();
  }
};
