import { expect } from 'chai';
import { anOrderPayload } from '../support/order-builder';
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
