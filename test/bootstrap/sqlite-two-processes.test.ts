import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { random } from '../contract/report-reader.contract';
import { anOrderPayload } from '../support/order-builder';
import { rollupsAndRebuild } from '../support/rollup-tables';
import { temporaryFolder } from '../support/sqlite-files';
import { SqliteMain, type Answer } from './sqlite-process';

/**
 * Two service processes on one SQLite file, as two instances on one machine: each commits its own
 * groups, and every decision that must have a single winner is one statement under the file's write
 * lock, so the guarantees hold across them (docs/operations.md, "SQLite store").
 */
describe('two service processes on one SQLite file', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof temporaryFolder>;
  let instances: SqliteMain[] = [];

  const alternating = (count: number, call: (main: SqliteMain, i: number) => Promise<Answer>): Promise<Answer[]> =>
    Promise.all(Array.from({ length: count }, (_, i) => call(instances[i % 2], i)));

  beforeEach(async () => {
    folder = temporaryFolder();
    const env = { RATE_LIMIT_MAX: '30', RATE_LIMIT_WINDOW_SECONDS: '86400' };
    instances = [await SqliteMain.start(folder.path, env)];
    instances.push(await SqliteMain.start(folder.path, env));
  });
  afterEach(async () => {
    await Promise.all(instances.map((main) => main.proc.dispose()));
    instances = [];
    folder.remove();
  });

  it('shares orders, the uniqueness of an externalId, Idempotency-Keys and rate limits, and both stop cleanly', async () => {
    const [a, b] = instances as [SqliteMain, SqliteMain];
    const { token } = await a.newDashboard();

    expect((await a.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: 'from-a' }))).status).to.equal(201);
    expect((await b.call('GET', '/api/v1/orders/from-a', token)).status).to.equal(200);

    const raced = await alternating(10, (main) => main.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: 'raced' })));
    expect(raced.map((res) => res.status).sort()).to.deep.equal([201, ...Array<number>(9).fill(409)]);

    const keyed = await alternating(10, (main) =>
      main.call('POST', '/api/v1/orders', token, anOrderPayload({ externalId: 'keyed' }), { 'idempotency-key': 'one-key' }),
    );
    const executed = keyed.filter((res) => res.status === 201);
    expect(keyed.filter((res) => res.status !== 201).map((res) => res.body.code)).to.satisfy((codes: string[]) =>
      codes.every((code) => code === 'IDEMPOTENCY_KEY_IN_PROGRESS'),
    );
    expect(new Set(executed.map((res) => res.body.order.id)).size).to.equal(1);
    expect(await b.externalIds(token)).to.have.members(['from-a', 'raced', 'keyed']);

    const limited = await a.newDashboard('Limited shop');
    const burst = await alternating(40, (main) => main.call('GET', '/api/v1/orders', limited.token));
    expect(burst.filter((res) => res.status === 200)).to.have.length(30);
    expect(burst.filter((res) => res.status === 429)).to.have.length(10);

    expect(await Promise.all(instances.map((main) => main.stop()))).to.deep.equal([0, 0]);
  });
});

/**
 * Each process adds what its own writes change to the rollups, in its own transactions, as additive
 * upserts: with both creating and PATCHing the same orders at once, the totals are the orders' sums.
 */
describe('rollups with two service processes on one SQLite file', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof temporaryFolder>;
  let instances: SqliteMain[] = [];

  beforeEach(async () => {
    folder = temporaryFolder();
    const file = join(folder.dir, 'transitions.json');
    writeFileSync(file, JSON.stringify({ pending: ['paid', 'refused'], paid: ['refunded', 'chargedback'], refused: ['paid'] }));
    instances = [await SqliteMain.start(folder.path, { ORDER_TRANSITIONS_FILE: file })];
    instances.push(await SqliteMain.start(folder.path, { ORDER_TRANSITIONS_FILE: file }));
  });
  afterEach(async () => {
    await Promise.all(instances.map((main) => main.proc.dispose()));
    instances = [];
    folder.remove();
  });

  /** `task(i)` for i in [0, count), 16 at a time (a process takes a bounded number of connections from one address). */
  const lanes = async <A>(count: number, task: (i: number) => Promise<A>): Promise<A[]> => {
    const results: A[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) {
          const i = next++;
          results[i] = await task(i);
        }
      }),
    );
    return results;
  };

  it('keeps every rollup equal to a rebuild from the orders while both create and PATCH the same orders', async () => {
    const { token } = await instances[0].newDashboard();
    const next = random(2);
    const pick = <A>(values: readonly A[]): A => values[Math.floor(next() * values.length)];
    const created = await lanes(160, (i) =>
      instances[i % 2].call(
        'POST',
        '/api/v1/orders',
        token,
        anOrderPayload({
          externalId: `two-${i}`,
          status: pick(['pending', 'pending', 'paid']),
          createdAt: new Date(Date.UTC(2026, 0, 31) + Math.floor(next() * 2 * 86_400_000)).toISOString(),
          amounts: { currency: pick(['BRL', 'USD']), grossCents: 100 + i, netToSellerCents: 90 + i },
          tracking: { utmSource: pick(['google', 'meta']), utmMedium: 'cpc', utmCampaign: pick(['a', 'b']) },
        }),
      ),
    );
    expect(created.every((res) => res.status === 201)).to.equal(true);
    // Both processes PATCH every order at once, each to a status of its own: one wins, or both in turn.
    const patched = await lanes(320, (i) =>
      instances[i % 2].call('PATCH', `/api/v1/orders/two-${i >> 1}`, token, { status: pick(['paid', 'refused', 'refunded']) }),
    );
    expect(patched.filter((res) => res.status === 200).length).to.be.greaterThan(100);
    expect(patched.every((res) => res.status === 200 || res.status === 409)).to.equal(true);
    expect(await Promise.all(instances.map((main) => main.stop()))).to.deep.equal([0, 0]);
    const { kept, rebuilt } = rollupsAndRebuild(folder.path, folder.dir);
    expect(kept['report_totals']).to.have.length.greaterThan(0);
    expect(kept).to.deep.equal(rebuilt);
  });
});
