import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { createMongoStorage } from '../../src/adapters/mongodb/mongo-storage';
import { Sha256TokenSecrets } from '../../src/adapters/system/sha256-token-secrets';
import { StorageUnavailableError } from '../../src/application/ports/storage-health';
import { mongoDatabaseName } from '../../src/bootstrap/open-storage';
import { startService } from '../../src/bootstrap/service';
import { expectProblem } from '../http/problem-assertions';
import { memoryLogger } from '../support/memory-log';
import { describeWithMongo, withDatabasePath } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';
import { TEST_ADMIN_TOKEN, testConfig } from '../support/test-config';
import { RunningMain } from './running-main';
import { freePort, ServiceProcess } from './service-process';

describeWithMongo('restarting the service on MongoDB', (mongo) => {
  let running: RunningMain | undefined;
  afterEach(async () => {
    await running?.proc.dispose();
    running = undefined;
  });

  it('finds the dashboard, its token and its orders again after a restart on the same database', async function () {
    this.timeout(60_000);
    const env = { MONGODB_URI: mongo.uri, MONGODB_DB: mongo.dbName };

    running = await RunningMain.start(env);
    const first = running;
    expect(first.proc.stdout[0]).to.include(`MongoDB database \\"${mongo.dbName}\\"`);
    const dashboard = await first.call('POST', '/admin/v1/dashboards', TEST_ADMIN_TOKEN, { name: 'Restart shop' });
    expect(dashboard.status).to.equal(201);
    const dashboardId: string = dashboard.body.dashboard.id;
    const issued = await first.call('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, TEST_ADMIN_TOKEN, { name: 'restart' });
    expect(issued.status).to.equal(201);
    const token: string = issued.body.token.token;
    for (const [externalId, changes] of [
      ['r-1', {}],
      [
        'r-2',
        {
          status: 'paid',
          createdAt: '2026-01-03T00:00:00.000Z',
          amounts: { currency: 'BRL', grossCents: 10_000_000_000_000, netToSellerCents: 1 },
        },
      ],
      ['r-3', { createdAt: '2026-01-04T00:00:00.000-03:00', metadata: { nested: [[1], { a: null }] } }],
    ] as const) {
      const created = await first.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId, ...changes }));
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
    const patched = await first.call('PATCH', '/api/v1/orders/r-1', token, { metadata: { patched: true } });
    expect(patched.status).to.equal(200);
    const listedBefore = await first.call('GET', '/api/v1/orders', token);
    expect(listedBefore.body.total).to.equal(3);
    const readBefore = await Promise.all(['r-1', 'r-2', 'r-3'].map((id) => first.call('GET', `/api/v1/orders/${id}`, token)));
    expect(readBefore[0]?.body.order.metadata).to.deep.equal({ patched: true });
    expect(readBefore[2]?.body.order.metadata).to.deep.equal({ nested: [[1], { a: null }] });
    expect(await first.stop()).to.equal(0);
    expect(first.proc.logs.some((entry) => entry['msg'] === 'stopped')).to.equal(true);

    running = await RunningMain.start(env);
    const second = running;
    expect(await second.call('GET', '/api/v1/orders', token)).to.deep.equal(listedBefore);
    const readAfter = await Promise.all(['r-1', 'r-2', 'r-3'].map((id) => second.call('GET', `/api/v1/orders/${id}`, token)));
    expect(readAfter.map((r) => r.body)).to.deep.equal(readBefore.map((r) => r.body));
    const { amounts: _amounts, ...patchedItem } = patched.body.order;
    expect(readAfter[0]?.body.order).to.deep.include(patchedItem);
    expect((await second.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: 'r-2' }))).status).to.equal(409);
    const tokens = await second.call('GET', `/admin/v1/dashboards/${dashboardId}/tokens`, TEST_ADMIN_TOKEN);
    expect(tokens.body.tokens.map((t: { id: string }) => t.id)).to.deep.equal([issued.body.token.id]);

    expect((await second.call('POST', `/admin/v1/tokens/${issued.body.token.id}/revoke`, TEST_ADMIN_TOKEN)).status).to.equal(200);
    expect(await second.stop()).to.equal(0);

    running = await RunningMain.start(env);
    const third = await running.call('GET', '/api/v1/orders', token);
    expect(third.status).to.equal(401);
    expect(third.body.code).to.equal('TOKEN_REVOKED');
  });

  it('takes the database from the URI path when MONGODB_DB is unset (decision 0010)', async function () {
    this.timeout(30_000);
    const pathDb = `${mongo.dbName}_path`.slice(0, 63);
    try {
      running = await RunningMain.start({ MONGODB_URI: withDatabasePath(mongo.uri, pathDb) });
      expect(running.proc.stdout[0]).to.include(`MongoDB database \\"${pathDb}\\"`);
      expect((await running.call('POST', '/admin/v1/dashboards', TEST_ADMIN_TOKEN, { name: 'In the path' })).status).to.equal(201);
      expect(await running.stop()).to.equal(0);
      expect(await mongo.client.db(pathDb).collection('dashboards').countDocuments({ name: 'In the path' })).to.equal(1);
    } finally {
      await mongo.client.db(pathDb).dropDatabase();
    }
  });
});

describe('choosing the MongoDB database (decision 0010)', () => {
  it('takes MONGODB_DB first, then the database in the URI, then orders', () => {
    expect(mongoDatabaseName('mongodb://h:1/from_uri', 'configured')).to.equal('configured');
    expect(mongoDatabaseName('mongodb://h:1/from_uri?authSource=admin', undefined)).to.equal('from_uri');
    expect(mongoDatabaseName('mongodb://h:1/?authSource=admin', undefined)).to.equal('orders');
    expect(mongoDatabaseName('mongodb://h:1', undefined)).to.equal('orders');
  });
});

/** Needs no server: it is about the one that is not there. */
describe('the service when MongoDB cannot be reached', () => {
  it('answers /readyz and the orders API with 503 SERVICE_UNAVAILABLE quickly, while /healthz stays 200', async () => {
    const client = new MongoClient('mongodb://127.0.0.1:1/', { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
    const storage = createMongoStorage(client, 'orders', memoryLogger().logger, { pingTimeoutMs: 300 });
    const api = await TestApi.start({}, { storage });
    try {
      const started = Date.now();
      expect(expectProblem(await api.request('GET', '/readyz'), 503, 'SERVICE_UNAVAILABLE', ['components']).components.store).to.equal(
        'down',
      );
      expect((await api.request('GET', '/healthz')).status).to.equal(200);
      const listed = await api.request('GET', '/api/v1/orders', { token: new Sha256TokenSecrets().generate() });
      expectProblem(listed, 503, 'SERVICE_UNAVAILABLE');
      expect(Number(listed.headers.get('retry-after'))).to.be.above(0);
      expectProblem(await api.admin('POST', '/admin/v1/dashboards', { name: 'Nowhere' }), 503, 'SERVICE_UNAVAILABLE');
      expect(Date.now() - started).to.be.below(4_000);
    } finally {
      await api.stop();
    }
  });

  it('does not start in-process: startService rejects with StorageUnavailableError', async () => {
    const failure = await startService(testConfig({ mongodbUri: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300' })).catch(
      (err: unknown) => err,
    );
    expect(failure).to.be.instanceOf(StorageUnavailableError);
  });

  it('does not start as a process: exits 1 with one clear line, and never prints the credentials', async function () {
    this.timeout(15_000);
    const proc = new ServiceProcess({
      PORT: String(await freePort()),
      MONGODB_URI: 'mongodb://orders_app:hunter2-secret@127.0.0.1:1/shop?serverSelectionTimeoutMS=500',
    });
    try {
      expect((await proc.exited).code).to.equal(1);
      expect(proc.stderr.join('\n')).to.match(/failed to start: MongoDB cannot be reached/);
      const output = [...proc.stdout, ...proc.stderr].join('\n');
      expect(output).not.to.include('hunter2');
      expect(output).not.to.include('orders_app');
    } finally {
      await proc.dispose();
    }
  });
});
