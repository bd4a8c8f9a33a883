import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { ensureIndexes } from '../src/adapters/mongodb/mongo-indexes';
import { checkSchemaVersion } from '../src/adapters/mongodb/mongo-schema-version';
import { createMongoStorage } from '../src/adapters/mongodb/mongo-storage';
import { Sha256TokenSecrets } from '../src/adapters/system/sha256-token-secrets';
import { startService, type RunningService } from '../src/bootstrap/service';
import { ADMIN_TOKEN, benchConfig, call, orderBody } from './bench-api';
import { fixed } from './http-workloads';
import { CommandCounter, type CommandStats } from './store-ops';

const CALLS = 30;
const MAX_MS_EACH = 1_500;
/** PATCHes of one order sent at once, as in the test "50 concurrent PATCHes". */
const STORM = 50;
const STORM_ROUNDS = 3;

const line = (name: string, { calls, total, byName }: CommandStats, unit: string): string => {
  const detail = Object.entries(byName)
    .map(([command, { perCall, meanMs }]) => `${command} ${fixed(perCall, 2)} (${fixed(meanMs, 1)} ms)`)
    .join(', ');
  return `  ${name.padEnd(34)} ${fixed(total, 2).padStart(6)}  ${detail}; ${calls} ${unit}`;
};

/**
 * Commands sent to MongoDB per operation, counted by driver command monitoring (`commandStarted`)
 * on the one client of a service started in this process on database `dbName` (indexes created,
 * schema version checked, as at start-up): every command the service sends for a request, one
 * request at a time, and for a storm of concurrent PATCHes of one order. Reports, asserts nothing.
 */
export const commandsPerOperation = async (uri: string, dbName: string): Promise<void> => {
  const logger = new PinoLogger(
    'silent',
    sinkDestination(() => undefined),
  );
  const client = new MongoClient(uri, { monitorCommands: true, ignoreUndefined: true, appName: 'orders-bench' });
  const counter = new CommandCounter(client);
  const storage = createMongoStorage(client, dbName, logger);
  let service: RunningService;
  try {
    await ensureIndexes(client.db(dbName));
    await checkSchemaVersion(client.db(dbName), logger);
    service = await startService(benchConfig, { storage, logger });
  } catch (err) {
    await client.close();
    throw err;
  }
  try {
    const url = service.url;
    const dashboard = await call(url, 'POST', '/admin/v1/dashboards', ADMIN_TOKEN, { name: 'bench commands' });
    const tokenPath = `/admin/v1/dashboards/${dashboard.body['dashboard'].id}/tokens`;
    const issued = await call(url, 'POST', tokenPath, ADMIN_TOKEN, {});
    const token: string = issued.body['token'].token;
    const hash = new Sha256TokenSecrets().hash(token);
    const run = randomUUID().slice(0, 8);
    const subject = `bench-${run}`;
    const replayKey = { 'idempotency-key': `replay-${run}` };
    await call(url, 'POST', '/api/v1/orders', token, orderBody(`replayed-${run}`), replayKey);
    await call(url, 'POST', '/api/v1/orders', token, orderBody(`patched-${run}`));
    const spareTokens: string[] = [];
    for (let i = 0; i < CALLS; i++) spareTokens.push((await call(url, 'POST', tokenPath, ADMIN_TOKEN, {})).body['token'].id as string);

    const measured: [string, (i: number) => Promise<unknown>][] = [
      ['store: rateLimits.hit', () => storage.rateLimits.hit(subject, 60_000, new Date())],
      ['store: tokens.findByHash', () => storage.tokens.findByHash(hash)],
      ['POST /orders, no key', (i) => call(url, 'POST', '/api/v1/orders', token, orderBody(`plain-${run}-${i}`))],
      [
        'POST /orders, new key',
        (i) => call(url, 'POST', '/api/v1/orders', token, orderBody(`keyed-${run}-${i}`), { 'idempotency-key': `new-${run}-${i}` }),
      ],
      ['POST /orders, replay', () => call(url, 'POST', '/api/v1/orders', token, orderBody(`replayed-${run}`), replayKey)],
      ['PATCH /orders/{id}, no key', (i) => call(url, 'PATCH', `/api/v1/orders/patched-${run}`, token, { metadata: { i } })],
      [
        'PATCH /orders/{id}, new key',
        (i) =>
          call(
            url,
            'PATCH',
            `/api/v1/orders/patched-${run}`,
            token,
            { metadata: { keyed: i } },
            { 'idempotency-key': `patch-${run}-${i}` },
          ),
      ],
      ['GET /orders/{id}', () => call(url, 'GET', `/api/v1/orders/patched-${run}`, token)],
      ['GET /orders', () => call(url, 'GET', '/api/v1/orders', token)],
      ['POST /admin/.../revoke, first', (i) => call(url, 'POST', `/admin/v1/tokens/${spareTokens[i]}/revoke`, ADMIN_TOKEN)],
      ['POST /admin/.../revoke, again', (i) => call(url, 'POST', `/admin/v1/tokens/${spareTokens[i]}/revoke`, ADMIN_TOKEN)],
    ];
    console.log(
      `\nMongoDB commands per operation (commandStarted on the service's client), up to ${CALLS} calls each, one at a time;` +
        '\nper command name: commands per call (mean ms per command)',
    );
    for (const [name, action] of measured) {
      console.log(line(name, await counter.perCall(CALLS, action, performance.now() + MAX_MS_EACH), 'calls'));
    }

    console.log(`\n${STORM} concurrent PATCHes of one order (each changes it), ${STORM_ROUNDS} rounds; commands per PATCH:`);
    for (let round = 0; round < STORM_ROUNDS; round++) {
      const externalId = `storm-${run}-${round}`;
      await call(url, 'POST', '/api/v1/orders', token, orderBody(externalId));
      const statuses: number[] = [];
      const stats = await counter.perUnit(STORM, async () => {
        const answers = await Promise.all(
          Array.from({ length: STORM }, (_, i) => call(url, 'PATCH', `/api/v1/orders/${externalId}`, token, { metadata: { i } })),
        );
        statuses.push(...answers.map((answer) => answer.status));
      });
      const version: unknown = (await call(url, 'GET', `/api/v1/orders/${externalId}`, token)).body['order'].version;
      const ok = statuses.filter((status) => status === 200).length;
      console.log(`${line(`round ${round + 1}`, stats, 'PATCHes')}; ${ok} answered 200, version ${String(version)}`);
    }
  } finally {
    await service.stop();
  }
};

if (require.main === module) {
  const uri = process.env['MONGODB_URI'];
  if (uri === undefined || uri === '') {
    console.error('bench/mongo-commands: set MONGODB_URI');
    process.exit(1);
  }
  const dbName = `orders_bench_commands_${Date.now().toString(36)}_${process.pid}`;
  commandsPerOperation(uri, dbName)
    .catch((err: unknown) => {
      console.error('bench failed:', err instanceof Error ? err.message : err);
      process.exitCode = 1;
    })
    .finally(async () => {
      const client = new MongoClient(uri);
      await client
        .db(dbName)
        .dropDatabase()
        .finally(() => client.close());
    });
}
