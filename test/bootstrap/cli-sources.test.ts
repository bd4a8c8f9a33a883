import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { runCli } from '../../src/bootstrap/cli';
import { compose } from '../../src/bootstrap/composition';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';

const SECRET = 'shpss_the platform secret 42';

const cli = async (argv: string[], storage: Storage, env: Record<string, string> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, storage);
  return { code, out, err, json: () => JSON.parse(out.join('\n')), error: () => JSON.parse(err.join('\n')).error };
};

describe('orders-cli: sources (decision 0021)', () => {
  let storage: Storage;
  let dashboardId: string;

  beforeEach(async () => {
    storage = { ...inMemoryStorage(), persistent: true };
    dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
  });

  const create = (env: Record<string, string>, ...extra: string[]) =>
    cli(['sources', 'create', '--dashboard', dashboardId, '--platform', 'shopify', '--name', 'My Shopify', ...extra], storage, env);

  it('makes a source with the secret from SOURCE_SECRET, prints the URL to paste and never the secret, and its deliveries are checked with that secret', async () => {
    const made = await create({ SOURCE_SECRET: SECRET, PUBLIC_BASE_URL: 'https://orders.shop.example' });
    expect(made.code).to.equal(0);
    const { source } = made.json();
    expect(source).to.include({ platform: 'shopify', name: 'My Shopify', url: `https://orders.shop.example/in/v1/${source.id}` });
    expect(made.out.join('\n')).to.not.include(SECRET);

    const { useCases } = compose({
      storage,
      transitions: {},
      rateLimit: { max: 600, windowSeconds: 60 },
      idempotency: { ttlMs: 60_000, leaseMs: 10_000 },
    });
    const body = Buffer.from(
      JSON.stringify({
        id: 42,
        created_at: '2026-11-20T14:03:00-03:00',
        updated_at: '2026-11-20T14:03:00-03:00',
        financial_status: 'paid',
        currency: 'BRL',
        total_price: '79.90',
        line_items: [{ title: 'Camiseta', quantity: 1, price: '79.90' }],
      }),
    );
    const deliver = (secret: string) =>
      useCases.receiveSourceDelivery.execute(source.id, {
        body,
        headers: {
          'x-shopify-topic': 'orders/create',
          'x-shopify-shop-domain': 'loja.myshopify.com',
          'x-shopify-event-id': `event-${secret.length}`,
          'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
        },
      });
    expect(E.isLeft(await deliver('another secret'))).to.equal(true);
    const received = await deliver(SECRET);
    expect(E.isRight(received) && received.right.outcome).to.equal('created');

    const listed = await cli(['sources', 'list', '--dashboard', dashboardId], storage);
    expect(listed.json().sources.map((s: { id: string; path: string }) => [s.id, s.path])).to.deep.equal([
      [source.id, `/in/v1/${source.id}`],
    ]);
    expect(listed.out.join('\n')).to.not.include(SECRET);
  });

  it('refuses a secret given any way but SOURCE_SECRET, or one a platform cannot have, and a platform or dashboard it does not know', async () => {
    expect([(await create({})).code, (await create({})).error().message]).to.deep.equal([
      2,
      "sources create takes the platform's secret from SOURCE_SECRET, which is not set",
    ]);
    expect((await create({ SOURCE_SECRET: SECRET }, '--secret', SECRET)).code).to.equal(2);
    const control = await create({ SOURCE_SECRET: 'tab\there' });
    expect([control.code, control.error().code]).to.deep.equal([1, 'REFUSED']);
    expect(control.err.join('\n')).to.not.include('tab\there');
    const platform = await cli(['sources', 'create', '--dashboard', dashboardId, '--platform', 'magento', '--name', 'x'], storage, {
      SOURCE_SECRET: SECRET,
    });
    expect([platform.code, platform.error().message]).to.deep.equal([
      2,
      '--platform magento is not one of shopify, woocommerce, stripe, hotmart',
    ]);
    const unknown = await cli(['sources', 'list', '--dashboard', 'dsh_nothing'], storage);
    expect([unknown.code, unknown.error()]).to.deep.equal([1, { code: 'NOT_FOUND', message: 'no dashboard dsh_nothing' }]);
    expect((await cli(['sources', 'list', '--dashboard', dashboardId], storage)).json().sources).to.deep.equal([]);
  });

  it("deletes a source of the dashboard named, and no other dashboard's", async () => {
    const { source } = (await create({ SOURCE_SECRET: SECRET })).json();
    const other = (await cli(['dashboards', 'create', '--name', 'Other'], storage)).json().dashboard.id;
    const elsewhere = await cli(['sources', 'delete', source.id, '--dashboard', other], storage);
    expect([elsewhere.code, elsewhere.error().code]).to.deep.equal([1, 'NOT_FOUND']);
    const deleted = await cli(['sources', 'delete', source.id, '--dashboard', dashboardId], storage);
    expect([deleted.code, deleted.json()]).to.deep.equal([0, { deleted: { id: source.id, dashboardId } }]);
    expect((await cli(['sources', 'list', '--dashboard', dashboardId], storage)).json().sources).to.deep.equal([]);
  });
});
