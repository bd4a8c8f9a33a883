import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { connectMongoStorage, createMongoStorage } from '../../../src/adapters/mongodb/mongo-storage';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import type { Storage } from '../../../src/application/ports/storage';
import { memoryLogger } from '../../support/memory-log';
import { anOrder } from '../../support/order-builder';

/** Nothing listens on port 1 of the loopback: connections are refused at once. */
const CLOSED = 'mongodb://127.0.0.1:1/';

const timed = async (promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> => {
  const started = Date.now();
  try {
    await promise;
    return { error: undefined, ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
};

/** Needs no server: it is about the one that is not there. */
describe('MongoDB storage when the server cannot be reached', () => {
  let client: MongoClient;
  let storage: Storage;

  beforeEach(() => {
    client = new MongoClient(CLOSED, { serverSelectionTimeoutMS: 300, connectTimeoutMS: 300 });
    storage = createMongoStorage(client, 'orders_unreachable', memoryLogger().logger, { pingTimeoutMs: 200 });
  });
  afterEach(() => storage.health.close());

  const order = anOrder().build();
  const operations: [string, () => Promise<unknown>][] = [
    ['orders.insert', () => storage.orders.insert(order, [])],
    ['orders.findByExternalId', () => storage.orders.findByExternalId('dsh_a', 'x')],
    ['orders.replace', () => storage.orders.replace({ ...order, version: 2 }, [])],
    ['orders.outboxOf', () => storage.orders.outboxOf('dsh_a', 'x')],
    ['orders.list', () => storage.orders.list('dsh_a', { page: 1, pageSize: 20 })],
    ['dashboards.insert', () => storage.dashboards.insert({ id: 'dsh_x', name: 'x', timezone: 'UTC', taxRate: 0, createdAt: new Date() })],
    ['dashboards.findById', () => storage.dashboards.findById('dsh_x')],
    ['dashboards.list', () => storage.dashboards.list()],
    [
      'tokens.insert',
      () => storage.tokens.insert({ id: 'tok_x', dashboardId: 'dsh_x', hash: 'a', scopes: ['orders:read'], createdAt: new Date() }),
    ],
    ['tokens.findByHash', () => storage.tokens.findByHash('a')],
    ['tokens.listByDashboard', () => storage.tokens.listByDashboard('dsh_x')],
    ['tokens.revoke', () => storage.tokens.revoke('tok_x', new Date())],
  ];

  for (const [name, operation] of operations) {
    it(`${name} rejects with StorageUnavailableError within the server selection timeout`, async () => {
      const { error, ms } = await timed(operation());
      expect(error).to.be.instanceOf(StorageUnavailableError);
      expect((error as Error).message).not.to.include('127.0.0.1');
      expect(ms).to.be.below(2_000);
    });
  }

  it('pings false within its own timeout, and never rejects', async () => {
    const { error, ms } = await timed(storage.health.ping().then((ok) => expect(ok).to.equal(false)));
    expect(error).to.equal(undefined);
    expect(ms).to.be.below(1_000);
  });

  it('pings false after close', async () => {
    await storage.health.close();
    expect(await storage.health.ping()).to.equal(false);
  });
});

describe('connectMongoStorage when the server cannot be reached', () => {
  it('fails the start with StorageUnavailableError after the given server selection timeout', async () => {
    const { error, ms } = await timed(
      connectMongoStorage(CLOSED, 'orders_unreachable', memoryLogger().logger, { clientOptions: { serverSelectionTimeoutMS: 300 } }),
    );
    expect(error).to.be.instanceOf(StorageUnavailableError);
    expect(ms).to.be.below(2_000);
  });

  it('gives up within a few seconds by default, instead of the driver default of 30 s', async function () {
    this.timeout(15_000);
    const { error, ms } = await timed(connectMongoStorage(CLOSED, 'orders_unreachable', memoryLogger().logger));
    expect(error).to.be.instanceOf(StorageUnavailableError);
    expect(ms).to.be.below(6_000);
  });

  it('keeps a server selection timeout the URI sets itself', async () => {
    const { error, ms } = await timed(
      connectMongoStorage(`${CLOSED}?serverSelectionTimeoutMS=200`, 'orders_unreachable', memoryLogger().logger),
    );
    expect(error).to.be.instanceOf(StorageUnavailableError);
    expect(ms).to.be.below(1_500);
  });
});
