import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { openSqliteStorage } from '../../../src/adapters/sqlite/sqlite-storage';
import type { Storage } from '../../../src/application/ports/storage';
import { compose } from '../../../src/bootstrap/composition';
import { DEMO_OWNER_EMAIL } from '../../../src/bootstrap/demo/demo-seed';
import { DEMO_PRODUCTS } from '../../../src/bootstrap/demo/demo-shop';
import { DEMO_SOURCE_DAYS } from '../../../src/bootstrap/demo/demo-source';
import { memoryLogger } from '../../support/memory-log';
import { temporaryFolder } from '../../support/sqlite-files';
import { ServiceProcess } from '../service-process';

const DEMO_JS = resolve(__dirname, '../../../src/bootstrap/demo/demo.js');

/** `npm run demo` as its script runs it, in a folder of the test's own, on a free port. */
const startDemo = async (dir: string) => {
  const demo = new ServiceProcess({ DEMO_DIR: dir, PORT: '0', ORDERS_PASSWORD: 'demo-process-password' }, DEMO_JS);
  const banner = await demo.waitForLine((line) => line.startsWith('Webhooks go to '), 150_000);
  const value = (label: string) =>
    demo.stdout
      .find((line) => line.startsWith(label))
      ?.slice(label.length)
      .trim();
  return { demo, banner, console: value('Console:'), email: value('Email:'), password: value('Password:') };
};

/** What the demo's file holds, read beside the running demo as a second process would. */
const lookInto = async <T>(path: string, read: (storage: Storage, useCases: ReturnType<typeof compose>['useCases']) => Promise<T>) => {
  const storage = openSqliteStorage({ path, logger: memoryLogger().logger });
  try {
    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 600, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    return await read(storage, useCases);
  } finally {
    await storage.health.close();
  }
};

describe('npm run demo', function () {
  this.timeout(300_000);
  const folder = temporaryFolder();
  const file = join(folder.dir, 'orders.sqlite');
  after(() => folder.remove());
  /** The first line without its timing: what was seeded. */
  const seededBy = (demo: ServiceProcess) => demo.stdout[0].replace(/seeded in [\d.]+ s/, '');
  let firstRun = '';

  it("prints the console's address and the owner's credentials, and its webhooks reach the demo's receiver", async () => {
    const { demo, banner, console: url, email, password } = await startDemo(folder.dir);
    try {
      expect(banner).to.match(/^Webhooks go to http:\/\/127\.0\.0\.1:\d+\/webhooks/);
      expect(demo.stdout[0]).to.match(/^Demo dashboard "Loja Demo": \d{4} orders from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d and a few today/);
      expect([email, password]).to.deep.equal([DEMO_OWNER_EMAIL, 'demo-process-password']);
      expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/console$/);
      firstRun = seededBy(demo);
      const signIn = await fetch(`${url}/sign-in`);
      expect(signIn.status).to.equal(200);
      expect(JSON.parse(readFileSync(join(folder.dir, 'transitions.json'), 'utf8'))).to.deep.equal({
        pending: ['paid', 'refused'],
        paid: ['refunded', 'chargedback'],
      });
      const succeeded = async (): Promise<string[]> =>
        lookInto(file, async (_storage, useCases) => {
          const [dashboard] = await useCases.listDashboards.execute();
          const [endpoint] = await useCases.listWebhooks.execute(dashboard.id);
          const page = await useCases.listDeliveries.execute(dashboard.id, endpoint.id, { status: 'succeeded', page: 1, pageSize: 100 });
          return E.isRight(page) ? page.right.deliveries.map((delivery) => delivery.eventType) : [];
        });
      const expected = ['order.created', 'order.paid', 'order.refused', 'webhook.test'];
      let types: string[] = [];
      for (let waited = 0; waited < 30_000 && !expected.every((type) => types.includes(type)); waited += 250) {
        types = await succeeded();
        await new Promise((done) => setTimeout(done, 250));
      }
      expect(types).to.include.members(expected);
      const sourced = await lookInto(file, async (_storage, useCases) => {
        const [dashboard] = await useCases.listDashboards.execute();
        const [source, ...others] = await useCases.listSources.execute(dashboard.id);
        const log = await useCases.listSourceDeliveries.execute(dashboard.id, source.id, { page: 1, pageSize: 100 });
        if (E.isLeft(log)) throw new Error(log.left._tag);
        const orders = await Promise.all(
          log.right.deliveries.map(async (line) => useCases.getOrder.execute(dashboard.id, line.externalId ?? 'none')),
        );
        return { platform: source.platform, others: others.length, log: log.right.deliveries, orders };
      });
      expect([sourced.platform, sourced.others]).to.deep.equal(['shopify', 0]);
      expect(sourced.log.map((line) => [line.topic, line.outcome])).to.deep.equal(
        Array.from({ length: DEMO_SOURCE_DAYS }, () => ['orders/create', 'created']),
      );
      expect(sourced.orders.filter((order) => E.isRight(order) && order.right.status === 'paid')).to.have.length(DEMO_SOURCE_DAYS);
      // The checkout's lines carry Shopify's product ids and the shop's SKUs: each product is one row, whichever way it sold.
      const products = await lookInto(file, async (_storage, useCases) => {
        const [dashboard] = await useCases.listDashboards.execute();
        const now = Date.now();
        const report = await useCases.getProducts.execute(dashboard.id, {
          from: new Date(now - 120 * 86_400_000),
          to: new Date(now + 86_400_000),
          model: 'last',
          isTest: undefined,
          filters: {},
          sort: 'orders',
          limit: 1_000,
        });
        if (E.isLeft(report)) throw new Error(report.left._tag);
        return report.right.rows.map((row) => row.product);
      });
      expect([...new Set(products)].sort()).to.deep.equal([...DEMO_PRODUCTS.map((product) => product.sku), 'TEST'].sort());
      expect(demo.stdout.find((line) => line.startsWith('Ad accounts:'))).to.match(/"Meta \(demo\)" reads the Facebook spend/);
      const synced = async () =>
        lookInto(file, async (_storage, useCases) => {
          const [dashboard] = await useCases.listDashboards.execute();
          const [account] = await useCases.listAdAccounts.execute(dashboard.id);
          const spend = await useCases.listSpend.execute(dashboard.id, { page: 1, pageSize: 1_000 });
          return { status: account?.sync.status, read: spend.entries.filter((entry) => entry.adAccount === 'meta:1000000001').length };
        });
      let account = await synced();
      for (let waited = 0; waited < 30_000 && account.status !== 'ok'; waited += 250) {
        await new Promise((done) => setTimeout(done, 250));
        account = await synced();
      }
      expect(account.status).to.equal('ok');
      expect(account.read).to.be.greaterThan(0);
      demo.kill('SIGTERM');
      expect(await demo.exited).to.deep.equal({ code: 0, signal: null });
    } finally {
      await demo.dispose();
    }
  });

  it('starts again cleanly on its folder: the file is made again, with one dashboard and the same orders', async () => {
    const before = await lookInto(file, async (storage) => (await storage.dashboards.list()).map((d) => d.id));
    const { demo, banner } = await startDemo(folder.dir);
    try {
      expect(banner).to.match(/^Webhooks go to /);
      const after = await lookInto(file, async (storage) => (await storage.dashboards.list()).map((d) => d.id));
      expect(after).to.have.length(1);
      expect(after).to.not.deep.equal(before);
      expect(seededBy(demo)).to.equal(firstRun);
      expect(existsSync(join(folder.dir, 'transitions.json'))).to.equal(true);
    } finally {
      demo.kill('SIGTERM');
      await demo.dispose();
    }
  });
});
