import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { describeWithMongo, type MongoTestDatabase } from '../support/mongo-server';
import { anOrderPayload } from '../support/order-builder';
import { temporaryFolder } from '../support/sqlite-files';
import { SqliteMain } from './sqlite-process';

interface FeedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: { readonly order: { readonly externalId: string; readonly version: number } };
}

/**
 * decision 0019 on MongoDB with two instances: a consumer polling the events feed of one while both
 * create and update orders, and one is killed and restarted, receives every event once, each order's
 * in version order.
 */
describeWithMongo('the events feed with two instances on one MongoDB database', (mongo: MongoTestDatabase) => {
  let folder: ReturnType<typeof temporaryFolder>;
  const running: SqliteMain[] = [];

  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((main) => main.proc.dispose()));
    folder.remove();
  });

  it('gives a polling consumer every event once, in version order per order, across kill -9 and a restart', async function () {
    this.timeout(120_000);
    const transitions = join(folder.dir, 'transitions.json');
    writeFileSync(transitions, JSON.stringify({ pending: ['paid'] }));
    const env = { STORE: 'mongodb', MONGODB_URI: mongo.uri, MONGODB_DB: mongo.dbName, ORDER_TRANSITIONS_FILE: transitions };
    const a = await SqliteMain.start(folder.path, env);
    running.push(a);
    let b = await SqliteMain.start(folder.path, env);
    running.push(b);
    const { token } = await a.newDashboard('Feed shop');

    const created = new Set<string>();
    const paid = new Set<string>();
    let stopped = false;
    const writer = async (lane: number): Promise<void> => {
      for (let i = 0; !stopped; i++) {
        const via = i % 2 === 0 ? a : b;
        const externalId = `f-${lane}-${i}`;
        try {
          const res = await via.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId }));
          if (res.status !== 201) continue;
          created.add(externalId);
          const patched = await (i % 3 === 0 ? b : a).call('PATCH', `/api/v1/orders/${externalId}`, token, { status: 'paid' });
          if (patched.status === 200) paid.add(externalId);
        } catch {
          // The instance was killed mid-request: that write may or may not have happened.
        }
      }
    };

    const received: FeedEvent[] = [];
    let after: string | undefined;
    const poll = async (): Promise<number> => {
      let got = 0;
      for (;;) {
        const res = await a.call('GET', `/api/v1/events?limit=100${after === undefined ? '' : `&after=${after}`}`, token);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const events = res.body.events as FeedEvent[];
        received.push(...events);
        got += events.length;
        if (events.length > 0) after = events[events.length - 1].id;
        if (!res.body.hasMore) return got;
      }
    };
    let consuming = true;
    const consumer = (async () => {
      while (consuming) {
        await poll();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();

    const writers = Array.from({ length: 4 }, (_, lane) => writer(lane));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    b.proc.kill('SIGKILL');
    await b.proc.exited;
    b = await SqliteMain.start(folder.path, env);
    running.push(b);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    stopped = true;
    await Promise.all(writers);

    // One reader at a time: the polling loop stops, and this one goes on alone with its cursor.
    consuming = false;
    await consumer;
    // Past the settling delay, and until the restarted instance has relayed what the dead one left.
    const deadline = Date.now() + 60_000;
    let quiet = 0;
    while (quiet < 3) {
      if (Date.now() > deadline) throw new Error('the feed did not settle within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      quiet = (await poll()) === 0 && received.length >= created.size + 2 * paid.size ? quiet + 1 : 0;
    }

    const ids = received.map((event) => event.id);
    expect(new Set(ids).size, 'no event twice').to.equal(ids.length);
    const lastVersion = new Map<string, number>();
    for (const event of received) {
      const { externalId, version } = event.data.order;
      expect(version, `${event.type} of ${externalId} after version ${lastVersion.get(externalId)}`).to.be.at.least(
        lastVersion.get(externalId) ?? 1,
      );
      lastVersion.set(externalId, version);
    }
    const has = (type: string, externalId: string) => received.some((e) => e.type === type && e.data.order.externalId === externalId);
    expect(
      [...created].filter((id) => !has('order.created', id)),
      'acknowledged creations without their event',
    ).to.deep.equal([]);
    expect(
      [...paid].filter((id) => !has('order.paid', id) || !has('order.updated', id)),
      'acknowledged PATCHes without their events',
    ).to.deep.equal([]);
    expect(created.size).to.be.greaterThan(10);
  });
});
