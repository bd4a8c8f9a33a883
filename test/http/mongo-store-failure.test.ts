import { expect } from 'chai';
import { connectMongoStorage } from '../../src/adapters/mongodb/mongo-storage';
import { CuttableProxy } from '../support/cuttable-proxy';
import { memoryLogger } from '../support/memory-log';
import { describeWithMongo } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';
import { eventually } from '../support/webhook-receiver';
import { expectProblem } from './problem-assertions';

const BATCH = '/api/v1/orders/batch';

/** Heavy enough that the batch is checked and written in several stretches of the event loop. */
const ORDERS = Array.from({ length: 500 }, (_, i) =>
  anOrderPayload({
    externalId: `cut-${i}`,
    products: Array.from({ length: 60 }, (__, j) => ({ sku: `SKU-${j}`, name: `Item ${j}`, quantity: 1, unitPriceCents: 100 })),
    amounts: { currency: 'BRL', grossCents: 2_000, netToSellerCents: 1_800 },
  }),
);

/**
 * The service on a real MongoDB wire server reached through a proxy that the test cuts in the middle
 * of a batch: every connection reset, new ones too (a server gone, a network split). No driver
 * is mocked: the failures are the driver's own (a pool cleared, a server that cannot be selected).
 */
describeWithMongo('a MongoDB that fails in the middle of a batch', (mongo) => {
  const unhandled: unknown[] = [];
  const collect = (reason: unknown): void => {
    unhandled.push(reason);
  };
  let proxy: CuttableProxy;
  let api: TestApi;
  let lines: string[];

  beforeEach(async () => {
    unhandled.length = 0;
    process.on('unhandledRejection', collect);
    proxy = await CuttableProxy.start(mongo.uri);
    const log = memoryLogger();
    lines = log.lines;
    const storage = await connectMongoStorage(proxy.uriOf(mongo.uri), mongo.dbName, log.logger, {
      clientOptions: { serverSelectionTimeoutMS: 1_000, connectTimeoutMS: 1_000 },
    });
    api = await TestApi.start({ rateLimitMax: 100_000 }, { storage, logger: log.logger });
  });
  afterEach(async () => {
    await api.stop();
    await proxy.stop();
    process.off('unhandledRejection', collect);
  });

  it('answers the batch 503, leaves no rejection without a handler, keeps serving, and converges when the batch is sent again', async function () {
    this.timeout(60_000);
    const { token, dashboardId } = await api.newDashboard('Cut shop');
    let inserts = 0;
    proxy.onCommand = ({ name, collection }) => {
      if (name === 'insert' && collection === 'orders' && ++inserts === 20) proxy.cut();
    };
    const failed = await api.request('POST', BATCH, { token, body: { orders: ORDERS } });
    expectProblem(failed, 503, 'SERVICE_UNAVAILABLE');
    expect(failed.headers.get('retry-after')).to.equal('5');
    expect(inserts, 'the batch was cut in its middle').to.equal(20);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled, 'rejections nobody handled').to.deep.equal([]);

    // The process goes on: what needs no store answers, what needs it says "not now".
    expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
    expect((await fetch(`${api.url}/readyz`)).status).to.equal(503);
    expectProblem(await api.request('GET', '/api/v1/orders', { token }), 503, 'SERVICE_UNAVAILABLE');

    proxy.onCommand = () => undefined;
    proxy.restore();
    // The driver finds the server again at its next check; a loaded machine may take a while.
    let readiness = '';
    await eventually(
      'the store is back',
      async () => {
        const res = await fetch(`${api.url}/readyz`);
        readiness = `${res.status} ${await res.text()}`;
        return res.status === 200;
      },
      30_000,
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; /readyz answered ${readiness}`);
    });
    const orders = mongo.client.db(mongo.dbName).collection('orders');
    const storedBefore = await orders.countDocuments({ dashboardId });
    const again = await api.request('POST', BATCH, { token, body: { orders: ORDERS } });
    expect(again.status, again.text).to.equal(200);
    expect(again.body).to.include({ created: 500 - storedBefore, alreadyRecorded: storedBefore, failed: 0 });
    expect(storedBefore, 'part of the batch was stored before the cut').to.be.within(1, 20);
    expect(await orders.countDocuments({ dashboardId })).to.equal(500);

    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).to.deep.equal([]);
    const unavailable = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'storage unavailable');
    expect(unavailable.length).to.be.at.least(1);
    expect(unavailable[0]).to.include({ errorName: 'StorageUnavailableError' });
    expect(lines.join('\n')).not.to.include('cut-1');
  });
});
