import { expect } from 'chai';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { COLLECTIONS } from '../../../src/adapters/mongodb/mongo-indexes';
import { MongoProfitReads } from '../../../src/adapters/mongodb/reports/mongo-profit-reads';
import { MongoReportReader } from '../../../src/adapters/mongodb/reports/mongo-report-reader';
import { MongoReportRollup } from '../../../src/adapters/mongodb/reports/mongo-report-rollup';
import { REPORT_DIRTY } from '../../../src/adapters/mongodb/orders/order-document';
import type { CellQuery } from '../../../src/application/ports/report-reader';
import type { Storage } from '../../../src/application/ports/storage';
import { bucketsBetween } from '../../../src/domain/time-zone';
import { asStrings, directCells } from '../../contract/report-reader.contract';
import { memoryLogger } from '../../support/memory-log';
import { describeWithMongo } from '../../support/mongo-server';
import { anOrder } from '../../support/order-builder';

const DAY = 86_400_000;
const START = Date.parse('2026-01-01T00:00:00Z');
const DAYS = 90;

/**
 * What a report reads once the rollup has counted every order : a zone whose days begin on a
 * quarter hour (+05:45) or half hour (+05:30) answers from the cells in a command per grain, as a zone
 * on whole hours does. A command per run of periods was two a day there (three quarters, then twenty-three
 * hours): 730 for a year of daily buckets, 126 s on a test server against 0.84 s in São Paulo.
 */
describeWithMongo('MongoDB reports in zones off the hour', (mongo) => {
  let storage: Storage;
  let client: MongoClient | undefined;
  const finds: { collection: string; filter: Record<string, unknown> }[] = [];
  const orders = Array.from({ length: 3 * DAYS }, (_, i) =>
    anOrder()
      .inDashboard('dsh_z')
      .with({ id: `ord_z_${i}`, externalId: `z-${i}`, createdAt: new Date(START + Math.floor((i * DAY) / 3) + (i % 7) * 600_000) })
      .build(),
  );

  before(async () => {
    storage = await mongo.connect();
    await mongo.empty();
    for (const order of orders) await storage.orders.insert(order, []);
    const rollup = storage.workers?.find((worker) => worker instanceof MongoReportRollup);
    while ((await rollup!.catchUp(0)) > 0);
    client = new MongoClient(mongo.uri, { monitorCommands: true });
    client.on('commandStarted', (event: CommandStartedEvent) => {
      if (event.commandName === 'find')
        finds.push({ collection: event.command['find'] as string, filter: event.command['filter'] as Record<string, unknown> });
    });
    await client.connect();
  });

  after(async () => {
    // Unset when the before hook failed part-way: its error is the one to read, not a TypeError here.
    await client?.close();
  });

  it('reads the days of a month whose cells lag them, until the rollup sums the month again', async () => {
    const rollup = storage.workers!.find((worker) => worker instanceof MongoReportRollup)!;
    const changed = { ...orders[40], status: 'refunded' as const, version: orders[40].version + 1 };
    expect(await storage.orders.replace(changed, [])).to.equal(true);
    const now = orders.map((order) => (order.id === changed.id ? changed : order));
    const query: CellQuery = {
      buckets: bucketsBetween(START, START + DAYS * DAY - 1, 'month', 'UTC'),
      by: ['utmSource'],
      model: 'last',
      isTest: undefined,
      filters: {},
      costZone: 'UTC',
    };
    const states = mongo.client.db(mongo.dbName).collection(COLLECTIONS.reportState);
    try {
      // Its day counted again, its month not yet (MONTH_DELAY_MS): the month's cells are those of before.
      while ((await rollup.catchUp()) > 0);
      expect(await states.countDocuments({ staleSince: { $exists: true } })).to.equal(1);
      expect(asStrings(await storage.reports.cells('dsh_z', query), query.by)).to.deep.equal(directCells(now, query));
      while ((await rollup.catchUp(0)) > 0);
      expect(await states.countDocuments({ staleSince: { $exists: true } })).to.equal(0);
      expect(asStrings(await storage.reports.cells('dsh_z', query), query.by)).to.deep.equal(directCells(now, query));
    } finally {
      // Back as it was, for the tests that follow.
      expect(await storage.orders.replace({ ...orders[40], version: changed.version + 1 }, [])).to.equal(true);
      while ((await rollup.catchUp(0)) > 0);
    }
  });

  for (const [interval, zone, span] of [
    ['day', 'Asia/Kathmandu', DAYS - 2],
    ['day', 'Asia/Kolkata', DAYS - 2],
    ['day', 'America/Sao_Paulo', DAYS - 2],
    ['hour', 'Asia/Kathmandu', 20],
    ['hour', 'Asia/Kolkata', 20],
  ] as const) {
    it(`answers ${interval === 'day' ? 'daily' : 'hourly'} buckets in ${zone} from the cells, a command per grain, and reads no order`, async () => {
      // The buckets begin where the zone's days do: nothing is left for the orders to answer.
      const first = bucketsBetween(START + DAY, START + DAY, 'day', zone)[0].start;
      const query: CellQuery = {
        buckets: bucketsBetween(first, first + span * DAY - 1, interval, zone),
        by: [],
        model: 'last',
        isTest: undefined,
        filters: {},
        costZone: 'UTC',
      };
      finds.length = 0;
      const { logger } = memoryLogger();
      const db = client!.db(mongo.dbName);
      const reader = new MongoReportReader(db, logger, storage.spend, new MongoProfitReads(db, logger, storage.productCosts));
      expect(asStrings(await reader.cells('dsh_z', query), [])).to.deep.equal(directCells(orders, query));
      // Besides the marks, the orders are read once, for the cost of the paid ones' lines (mongo-profit-reads.ts).
      const ofOrders = finds.filter((find) => find.collection === COLLECTIONS.orders && !(REPORT_DIRTY in find.filter));
      expect(
        ofOrders.map((find) => find.filter['status']),
        'finds of the orders themselves',
      ).to.deep.equal(['paid']);
      expect(finds.filter((find) => find.collection === COLLECTIONS.reportCells).length).to.be.at.most(4);
    });
  }
});
