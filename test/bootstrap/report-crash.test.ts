import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { CellQuery } from '../../src/application/ports/report-reader';
import type { Storage } from '../../src/application/ports/storage';
import { openSqliteStorage } from '../../src/adapters/sqlite/sqlite-storage';
import { REPORT_DIRTY } from '../../src/adapters/mongodb/orders/order-document';
import { COLLECTIONS } from '../../src/adapters/mongodb/mongo-indexes';
import type { Order } from '../../src/domain/order';
import { unitCostLookup, unitCostOfLine } from '../../src/domain/product-cost';
import { bucketsBetween } from '../../src/domain/time-zone';
import { asStrings, directCells, random } from '../contract/report-reader.contract';
import { memoryLogger } from '../support/memory-log';
import { describeWithMongo, type MongoTestDatabase } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { repricingDone, rollupsAndRebuild } from '../support/rollup-tables';
import { temporaryFolder } from '../support/sqlite-files';
import { SqliteMain } from './sqlite-process';
import { ProductCollector } from '../../src/adapters/persistence/product-cells';
import { rankProducts } from '../../src/application/reports/rank-products';
import { reportLineOf, reportLinesOf, type Range } from '../../src/domain/report';

/**
 * The report totals after kill -9 in the middle of creations, PATCHes and (SQLite) cost uploads (decisions 0016, 0020): each store
 * answers every report as a direct sum over the orders it kept does, on SQLite where the totals move
 * in the write's transaction, and on MongoDB where a killed process may leave marked orders and a
 * rollup half done.
 */
const START = Date.parse('2026-03-01T00:00:00Z');
const PRODUCTS = ['p-1', 'p-2', 'p-3'];
const DAYS = 12;

const QUERIES: readonly { name: string; query: CellQuery }[] = [
  {
    name: 'by campaign and content over arbitrary instants',
    query: {
      buckets: [{ start: START + 3_600_000 * 7 + 123, end: START + (DAYS - 2) * 86_400_000 + 4_567 }],
      by: ['utmCampaign', 'utmContent'],
      model: 'last',
      isTest: undefined,
      filters: {},
      costZone: 'UTC',
    },
  },
  {
    name: 'by first-touch source',
    query: {
      buckets: [{ start: START, end: START + DAYS * 86_400_000 }],
      by: ['utmSource'],
      model: 'first',
      isTest: false,
      filters: {},
      costZone: 'UTC',
    },
  },
  {
    name: 'daily in Asia/Kathmandu',
    query: {
      buckets: bucketsBetween(START, START + DAYS * 86_400_000, 'day', 'Asia/Kathmandu'),
      by: [],
      model: 'last',
      isTest: false,
      filters: {},
      costZone: 'UTC',
    },
  },
  {
    name: 'daily in America/Sao_Paulo for one source',
    query: {
      buckets: bucketsBetween(START, START + DAYS * 86_400_000, 'day', 'America/Sao_Paulo'),
      by: [],
      model: 'last',
      isTest: undefined,
      filters: { utmSource: 'meta' },
      costZone: 'UTC',
    },
  },
];

interface Writer {
  readonly acknowledged: Set<string>;
  stop(): Promise<void>;
}

/** Lanes of clients that create orders and PATCH some of them, and one that uploads product costs, until stopped; errors after a kill are expected. */
const write = (main: SqliteMain, token: string, seed: number, lanes = 12): Writer => {
  const next = random(seed);
  const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
  const acknowledged = new Set<string>();
  let stopped = false;
  const lane = async (n: number): Promise<void> => {
    for (let i = 0; !stopped; i++) {
      const externalId = `c-${seed}-${n}-${i}`;
      const gross = 100 + Math.floor(next() * 50_000);
      try {
        const created = await main.call(
          'POST',
          '/api/v1/orders',
          token,
          anOrderPayload({
            externalId,
            createdAt: new Date(START + Math.floor(next() * DAYS * 86_400_000)).toISOString(),
            isTest: next() < 0.2,
            amounts: { currency: pick(['BRL', 'USD']), grossCents: gross, netToSellerCents: Math.floor(gross * 0.9) },
            tracking: { utmSource: pick(['google', 'meta']), utmMedium: 'cpc', utmCampaign: pick(['launch', 'spring']) },
            products: [
              { externalId: pick(PRODUCTS), name: 'Mug', quantity: 1 + Math.floor(next() * 3), unitPriceCents: 2_000 },
              ...(next() < 0.5 ? [{ sku: pick(PRODUCTS), name: 'Cap', quantity: 1, unitPriceCents: 1_500 }] : []),
            ],
            ...(next() < 0.6
              ? { trackingExtras: { utmContent: pick(['ad-a', 'ad-b']), ...(next() < 0.5 ? { firstTouch: { utmSource: 'email' } } : {}) } }
              : {}),
          }),
        );
        if (created.status !== 201) throw new Error(`POST answered ${created.status}`);
        acknowledged.add(externalId);
        if (next() < 0.5) {
          const status = pick(['paid', 'refused']);
          const changed = await main.call('PATCH', `/api/v1/orders/${externalId}`, token, { status });
          if (changed.status !== 200) throw new Error(`PATCH answered ${changed.status}`);
          if (status === 'paid' && next() < 0.3) await main.call('PATCH', `/api/v1/orders/${externalId}`, token, { status: 'refunded' });
        }
      } catch (err) {
        if (!stopped) throw err;
      }
    }
  };
  /** Cost uploads beside the orders: each re-prices the paid orders from its earliest day on, in its own transaction. */
  const costLane = async (): Promise<void> => {
    while (!stopped) {
      const entries = Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        product: pick(PRODUCTS),
        currency: pick(['BRL', 'USD']),
        unitCostCents: Math.floor(next() * 3_000),
        from: new Date(START + Math.floor(next() * DAYS) * 86_400_000).toISOString().slice(0, 10),
      }));
      try {
        const put = await main.call('PUT', '/api/v1/product-costs', token, { entries });
        if (put.status !== 200) throw new Error(`PUT product-costs answered ${put.status}`);
      } catch (err) {
        if (!stopped) throw err;
      }
    }
  };
  const running = Promise.all([...Array.from({ length: lanes }, (_, n) => lane(n)), costLane()]);
  return {
    acknowledged,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
};

/** Writes until `count` orders are acknowledged, then kill -9 while the writes go on. */
const killWhileWriting = async (main: SqliteMain, token: string, seed: number, count: number): Promise<Set<string>> => {
  const writer = write(main, token, seed);
  while (writer.acknowledged.size < count) await new Promise((resolve) => setTimeout(resolve, 5));
  main.proc.kill('SIGKILL');
  await writer.stop();
  expect(await main.proc.exited).to.deep.include({ signal: 'SIGKILL' });
  return writer.acknowledged;
};

/** Every order of the dashboard, whole, read through the repository. */
const ordersOf = async (storage: Storage, dashboardId: string): Promise<Order[]> => {
  const orders: Order[] = [];
  for (let page = 1; ; page++) {
    const listed = await storage.orders.list(dashboardId, { page, pageSize: 100 });
    for (const summary of listed.orders) {
      const found = await storage.orders.findByExternalId(dashboardId, summary.externalId);
      if (found._tag === 'Some') orders.push(found.value);
    }
    if (listed.orders.length < 100) return orders;
  }
};

const expectReportsAgree = async (storage: Storage, dashboardId: string, when: string): Promise<void> => {
  const orders = await ordersOf(storage, dashboardId);
  for (const { name, query } of QUERIES) {
    expect(asStrings(await storage.reports.cells(dashboardId, query), query.by), `${name}, ${when}`).to.deep.equal(
      directCells(orders, query),
    );
  }
};

/** The HTTP breakdown by campaign against the direct sum of what the store holds. */
const expectBreakdownAgrees = async (main: SqliteMain, token: string, storage: Storage, dashboardId: string): Promise<void> => {
  const orders = (await ordersOf(storage, dashboardId)).filter((order) => !order.isTest);
  const dashboard = await storage.dashboards.findById(dashboardId);
  const unitCostOf = unitCostLookup(
    await storage.productCosts.priceList(dashboardId),
    dashboard._tag === 'Some' ? dashboard.value.timezone : 'UTC',
  );
  const from = new Date(START).toISOString();
  const to = new Date(START + DAYS * 86_400_000).toISOString();
  const answer = await main.call('GET', `/api/v1/reports/breakdown?from=${from}&to=${to}&by=utmCampaign&limit=1000`, token);
  expect(answer.status).to.equal(200);
  type Row = {
    orders: number;
    paid: number;
    paidGrossCents: number;
    refundedCents: number;
    productCostCents: number;
    uncostedUnits: number;
  };
  const direct = new Map<string, Row>();
  for (const order of orders) {
    const id = `${order.tracking.utmCampaign} ${order.amounts.currency}`;
    const row = direct.get(id) ?? { orders: 0, paid: 0, paidGrossCents: 0, refundedCents: 0, productCostCents: 0, uncostedUnits: 0 };
    row.orders += 1;
    if (order.status === 'paid') [row.paid, row.paidGrossCents] = [row.paid + 1, row.paidGrossCents + order.amounts.grossCents];
    if (order.status === 'refunded') row.refundedCents += order.amounts.grossCents;
    if (order.status === 'paid')
      for (const line of order.products) {
        const unitCost = unitCostOfLine(unitCostOf, reportLineOf(line), order.amounts.currency, order.createdAt.getTime());
        if (unitCost === undefined) row.uncostedUnits += line.quantity;
        else row.productCostCents += line.quantity * unitCost;
      }
    direct.set(id, row);
  }
  const served = new Map(
    (answer.body.rows as ({ key: { utmCampaign: string }; currency: string } & Row)[]).map((row) => [
      `${row.key.utmCampaign} ${row.currency}`,
      {
        orders: row.orders,
        paid: row.paid,
        paidGrossCents: row.paidGrossCents,
        refundedCents: row.refundedCents,
        productCostCents: row.productCostCents,
        uncostedUnits: row.uncostedUnits,
      },
    ]),
  );
  expect(served).to.deep.equal(direct);
};

/** The products report (decision 0020) over arbitrary instants, both periods, against the orders the store kept, priced and named directly. */
const expectProductsAgree = async (storage: Storage, dashboardId: string): Promise<void> => {
  const orders = await ordersOf(storage, dashboardId);
  const dashboard = await storage.dashboards.findById(dashboardId);
  const costZone = dashboard._tag === 'Some' ? dashboard.value.timezone : 'UTC';
  const unitCostOf = unitCostLookup(await storage.productCosts.priceList(dashboardId), costZone);
  const range = { start: START + 6 * 86_400_000 + 3_600_000 * 5 + 321, end: START + DAYS * 86_400_000 - 900_000 * 3 - 17 };
  const previous = { start: 2 * range.start - range.end, end: range.start };
  const direct = (within: Range) => {
    const collector = new ProductCollector(unitCostOf);
    for (const order of orders) {
      const at = order.createdAt.getTime();
      if (at >= within.start && at < within.end)
        collector.add({
          id: order.id,
          status: order.status,
          currency: order.amounts.currency,
          createdAt: at,
          lines: reportLinesOf(order.products),
        });
    }
    return collector.result();
  };
  const query = {
    range,
    previous: { range: previous },
    model: 'last',
    isTest: undefined,
    filters: {},
    costZone,
    sort: 'orders',
    limit: 1_000,
  } as const;
  expect(await storage.reports.products(dashboardId, query)).to.deep.equal(await rankProducts(direct(range), query, direct(previous)));
};

const transitions = (dir: string): string => {
  const file = join(dir, 'transitions.json');
  writeFileSync(file, JSON.stringify({ pending: ['paid', 'refused'], paid: ['refunded'] }));
  return file;
};

describe('reports after kill -9 on SQLite', function () {
  this.timeout(120_000);
  let folder: ReturnType<typeof temporaryFolder>;
  const running: SqliteMain[] = [];
  const opened: Storage[] = [];

  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((main) => main.proc.dispose()));
    await Promise.all(opened.splice(0).map((storage) => storage.health.close()));
    folder.remove();
  });

  it('agree with a direct sum over the orders and costs the file kept, twice killed in the middle of writes and cost uploads', async () => {
    const env = { ORDER_TRANSITIONS_FILE: transitions(folder.dir) };
    const first = await SqliteMain.start(folder.path, env);
    running.push(first);
    const { dashboardId, token } = await first.newDashboard();
    const acknowledged = await killWhileWriting(first, token, 1, 300);
    const second = await SqliteMain.start(folder.path, env);
    running.push(second);
    for (const externalId of await killWhileWriting(second, token, 2, 300)) acknowledged.add(externalId);
    const third = await SqliteMain.start(folder.path, env);
    running.push(third);

    const storage = openSqliteStorage({ path: folder.path, logger: memoryLogger().logger });
    opened.push(storage);
    const kept = new Set((await ordersOf(storage, dashboardId)).map((order) => order.externalId));
    expect([...acknowledged].filter((externalId) => !kept.has(externalId))).to.deep.equal([]);
    await expectReportsAgree(storage, dashboardId, 'after two kills');
    await expectBreakdownAgrees(third, token, storage, dashboardId);
    // Every row of every rollup (each grain and model, the counts per status), not only what the queries above read,
    // once the re-pricing jobs a killed process left are done.
    await repricingDone(folder.path);
    await expectProductsAgree(storage, dashboardId);
    const { kept: rollups, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(rollups['report_totals']).to.have.length.greaterThan(0);
    expect(rollups).to.deep.equal(rebuilt);
  });
});

describeWithMongo('reports after kill -9 on MongoDB', (mongo: MongoTestDatabase) => {
  let folder: ReturnType<typeof temporaryFolder>;
  const running: SqliteMain[] = [];

  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((main) => main.proc.dispose()));
    folder.remove();
  });

  it('agree with a direct sum over the orders, while marks remain and once the rollup has caught up', async function () {
    this.timeout(180_000);
    const env = { ORDER_TRANSITIONS_FILE: transitions(folder.dir), STORE: 'mongodb', MONGODB_URI: mongo.uri, MONGODB_DB: mongo.dbName };
    const first = await SqliteMain.start(folder.path, env);
    running.push(first);
    const { dashboardId, token } = await first.newDashboard();
    await killWhileWriting(first, token, 3, 120);
    // The second process rolls up what the first left marked while it writes: kill it in the middle.
    const second = await SqliteMain.start(folder.path, env);
    running.push(second);
    await killWhileWriting(second, token, 4, 120);

    const storage = await mongo.connect();
    await expectReportsAgree(storage, dashboardId, 'with the marks the killed processes left');
    const third = await SqliteMain.start(folder.path, env);
    running.push(third);
    await expectBreakdownAgrees(third, token, storage, dashboardId);
    const orders = mongo.client.db(mongo.dbName).collection(COLLECTIONS.orders);
    const deadline = Date.now() + 60_000;
    while ((await orders.countDocuments({ [REPORT_DIRTY]: true })) > 0) {
      if (Date.now() > deadline) throw new Error('the rollup did not clear the marks within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await expectReportsAgree(storage, dashboardId, 'once the rollup caught up');
    await expectBreakdownAgrees(third, token, storage, dashboardId);
  });
});
