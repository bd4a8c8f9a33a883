import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { sinkDestination } from '../src/adapters/logging/log-destinations';
import { PinoLogger } from '../src/adapters/logging/pino-logger';
import { ensureIndexes, COLLECTIONS } from '../src/adapters/mongodb/mongo-indexes';
import { MongoReportRollup } from '../src/adapters/mongodb/reports/mongo-report-rollup';
import { createMongoStorage } from '../src/adapters/mongodb/mongo-storage';
import { newOrderDocument } from '../src/adapters/mongodb/orders/order-document';
import { openSqliteStorage } from '../src/adapters/sqlite/sqlite-storage';
import type { CellQuery, RankedBreakdownQuery } from '../src/application/ports/report-reader';
import type { Storage } from '../src/application/ports/storage';
import type { Order } from '../src/domain/order';
import type { OrderStatus } from '../src/domain/order-status';
import { bucketsBetween } from '../src/domain/time-zone';
import { random as seeded } from '../test/contract/report-reader.contract';
import { anOrder } from '../test/support/order-builder';

/**
 * MongoDB's reports beside SQLite's, in process, over the same orders (`npm run bench:mongo-reports`,
 * MONGODB_URI required): BENCH_ORDERS orders (20,600) over 365 days (20 sources, 200 campaigns, 5
 * contents each, Zipf; 60% paid; half with a first touch) written to a new MongoDB database as the
 * service writes them (marked for the rollup) and to a new SQLite file. Prints: the rollup from every
 * order marked to caught up, then a day's changes, with the commands sent and the documents they
 * answered; each report BENCH_ROUNDS times on each store, its p50, and on MongoDB the commands and
 * documents one report reads. Ratios are to the UTC daily timeseries of the same store and run, and
 * MongoDB's to SQLite's: a test server's speed (mongo-java-server scans a collection for every
 * command) says little about MongoDB's, the counts and the ratios more. Asserts nothing.
 */

const DAY = 86_400_000;
const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 20_600);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const START = Date.UTC(2025, 10, 1);
const END = START + 365 * DAY;
const DASHBOARD = 'dsh_bench';

/** The contract's generator (mulberry32), so that two runs write the same orders. */
const random = seeded(26);

const zipf = (n: number): (() => number) => {
  const cumulative: number[] = [];
  let sum = 0;
  for (let k = 0; k < n; k++) cumulative.push((sum += 1 / (k + 1) ** 1.07));
  return () => {
    const target = random() * sum;
    const found = cumulative.findIndex((c) => c >= target);
    return found < 0 ? n - 1 : found;
  };
};

const campaignOf = zipf(200);
const statusOf = (): OrderStatus => {
  const r = random();
  return r < 0.6 ? 'paid' : r < 0.75 ? 'pending' : r < 0.9 ? 'refused' : r < 0.97 ? 'refunded' : 'chargedback';
};
const touch = (campaign: number) => ({
  utmSource: `source-${campaign % 20}`,
  utmMedium: ['cpc', 'social', 'email', 'display'][campaign % 4],
  utmCampaign: `campaign-${campaign}`,
});

const theOrders = (): Order[] =>
  Array.from({ length: ORDERS }, (_, i) => {
    const campaign = campaignOf();
    const gross = 1_000 + Math.floor(random() * 50_000);
    return anOrder()
      .inDashboard(DASHBOARD)
      .with({
        id: `ord_bench_${i}`,
        externalId: `bench-${i}`,
        createdAt: new Date(START + Math.floor(random() * 365 * DAY)),
        status: statusOf(),
        isTest: random() < 0.02,
        amounts: {
          currency: random() < 0.9 ? 'BRL' : 'USD',
          grossCents: gross,
          netToSellerCents: Math.floor(gross * 0.9),
          discountCents: 0,
          shippingCents: 0,
          taxesCents: 0,
          totalFeesCents: 0,
        },
        tracking: touch(campaign),
        trackingExtras: {
          utmContent: `content-${Math.floor(random() * 5)}`,
          ...(random() < 0.5 ? { firstTouch: touch(campaignOf()) } : {}),
        },
      })
      .build();
  });

const scope = { model: 'last', isTest: false, filters: {}, costZone: 'UTC' } as const;
const daily = (zone: string): CellQuery => ({ ...scope, by: [], buckets: bucketsBetween(START, END - 1, 'day', zone) });

const WORKLOADS: readonly { name: string; cells?: CellQuery; breakdown?: RankedBreakdownQuery }[] = [
  { name: 'daily, the year, UTC', cells: daily('UTC') },
  { name: 'daily, the year, America/Sao_Paulo', cells: daily('America/Sao_Paulo') },
  { name: 'daily, the year, Asia/Kolkata (+05:30)', cells: daily('Asia/Kolkata') },
  { name: 'daily, the year, Asia/Kathmandu (+05:45)', cells: daily('Asia/Kathmandu') },
  {
    name: 'hourly, 31 days, Asia/Kathmandu',
    cells: { ...scope, by: [], buckets: bucketsBetween(END - 31 * DAY, END - 1, 'hour', 'Asia/Kathmandu') },
  },
  {
    name: 'daily, the year, one campaign, Sao Paulo',
    cells: { ...daily('America/Sao_Paulo'), filters: { utmCampaign: 'campaign-0' } },
  },
  {
    name: 'breakdown by campaign, the year',
    breakdown: { ...scope, range: { start: START, end: END }, by: ['utmCampaign'], sort: 'paidGrossCents', limit: 100, taxRate: 0 },
  },
  {
    name: 'breakdown source x campaign x content, 30 days',
    breakdown: {
      ...scope,
      range: { start: END - 30 * DAY + 5 * 3_600_000, end: END },
      by: ['utmSource', 'utmCampaign', 'utmContent'],
      sort: 'orders',
      limit: 100,
      taxRate: 0,
    },
  },
];

/** Commands sent and documents answered (the cursors' batches) by one client, since the last `reset`. */
class Traffic {
  commands = 0;
  documents = 0;
  /** Per command name: how many, and their time in ms. */
  byName = new Map<string, { count: number; ms: number }>();

  constructor(client: MongoClient) {
    client.on('commandStarted', () => this.commands++);
    client.on('commandSucceeded', (event) => {
      const cursor = (event.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] } }).cursor;
      this.documents += (cursor?.firstBatch?.length ?? 0) + (cursor?.nextBatch?.length ?? 0);
      const entry = this.byName.get(event.commandName) ?? { count: 0, ms: 0 };
      this.byName.set(event.commandName, { count: entry.count + 1, ms: entry.ms + event.duration });
    });
  }

  reset(): void {
    this.commands = 0;
    this.documents = 0;
    this.byName = new Map();
  }

  /** `find 12 (340 ms), update 3 (20 ms)`. */
  detail(): string {
    return [...this.byName].map(([name, { count, ms }]) => `${name} ${count} (${ms.toFixed(0)} ms)`).join(', ');
  }
}

const run = async (storage: Storage, workload: (typeof WORKLOADS)[number]): Promise<unknown> =>
  workload.cells !== undefined
    ? storage.reports.cells(DASHBOARD, workload.cells)
    : storage.reports.breakdown(DASHBOARD, workload.breakdown!);

const p50 = async (action: () => Promise<unknown>): Promise<number> => {
  await action();
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
};

const main = async (): Promise<void> => {
  const uri = process.env['MONGODB_URI'];
  if (uri === undefined || uri === '') throw new Error('MONGODB_URI is needed');
  const logger = new PinoLogger(
    'silent',
    sinkDestination(() => undefined),
  );
  const orders = theOrders();
  const client = new MongoClient(uri, { monitorCommands: true, ignoreUndefined: true });
  const dbName = `bench_reports_${randomBytes(4).toString('hex')}`;
  const folder = mkdtempSync(join(tmpdir(), 'bench-mongo-reports-'));
  const sqlite = openSqliteStorage({ path: join(folder, 'orders.db'), logger, durability: 'normal' });
  try {
    await client.connect();
    const db = client.db(dbName);
    await ensureIndexes(db);
    const mongo = createMongoStorage(client, dbName, logger);
    const traffic = new Traffic(client);
    for (let at = 0; at < orders.length; at += 1_000)
      await db
        .collection(COLLECTIONS.orders)
        .insertMany(orders.slice(at, at + 1_000).map((order) => newOrderDocument(order, [])) as never[]);
    for (let at = 0; at < orders.length; at += 5_000)
      await Promise.all(orders.slice(at, at + 5_000).map((order) => sqlite.orders.insert(order, [])));
    console.log(`${ORDERS.toLocaleString('en')} orders over 365 days on MongoDB (database ${dbName}) and SQLite`);

    const rollup = mongo.workers!.find((worker) => worker instanceof MongoReportRollup)!;
    const catchUp = async (): Promise<string> => {
      traffic.reset();
      const started = performance.now();
      let passes = 0;
      while ((await rollup.catchUp(0)) > 0) passes++;
      return `${((performance.now() - started) / 1000).toFixed(1)} s, ${passes} passes, ${traffic.commands} commands (${traffic.detail()}), ${traffic.documents.toLocaleString('en')} documents read`;
    };
    console.log(
      `rollup, every order marked: ${await catchUp()}; ${(await db.collection(COLLECTIONS.reportCells).countDocuments()).toLocaleString('en')} cells`,
    );
    const changed = orders.filter((order) => order.createdAt.getTime() >= END - 2 * DAY && order.createdAt.getTime() < END - DAY);
    for (const order of changed) await mongo.orders.replace({ ...order, status: 'refunded', version: order.version + 1 }, []);
    console.log(`rollup, ${changed.length} orders of one day changed: ${await catchUp()}`);

    console.log(`\n${ROUNDS} rounds each, p50; MongoDB's commands and documents are those of one report\n`);
    console.log(
      `${'report'.padEnd(48)}${'SQLite ms'.padStart(10)}${'ratio'.padStart(8)}${'MongoDB ms'.padStart(12)}${'ratio'.padStart(8)}${'commands'.padStart(10)}${'documents'.padStart(11)}${'Mongo/SQLite'.padStart(14)}`,
    );
    let base: { sqlite: number; mongo: number } | undefined;
    for (const workload of WORKLOADS) {
      const sqliteMs = await p50(() => run(sqlite, workload));
      const mongoMs = await p50(() => run(mongo, workload));
      traffic.reset();
      await run(mongo, workload);
      const { commands, documents } = traffic;
      base ??= { sqlite: sqliteMs, mongo: mongoMs };
      console.log(
        `${workload.name.padEnd(48)}${sqliteMs.toFixed(1).padStart(10)}${`${(sqliteMs / base.sqlite).toFixed(2)}x`.padStart(8)}${mongoMs.toFixed(1).padStart(12)}${`${(mongoMs / base.mongo).toFixed(2)}x`.padStart(8)}${String(commands).padStart(10)}${documents.toLocaleString('en').padStart(11)}${`${(mongoMs / sqliteMs).toFixed(1)}x`.padStart(14)}`,
      );
    }
  } finally {
    await client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
    await sqlite.health.close();
    rmSync(folder, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
