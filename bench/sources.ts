import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ServiceProcess } from '../test/bootstrap/service-process';
import { anOrderPayload } from '../test/support/order-builder';

/**
 * Sources figures (prints, asserts nothing), with the service as a process of its own on SQLite:
 * Shopify deliveries per second through a source (signature, reading, the order's creation, the log
 * line) against the same number of orders through POST /api/v1/orders, 8 connections each; the same
 * for WooCommerce's order.created and Hotmart's PURCHASE_APPROVED; then the cost of a delivery whose
 * signature is refused, and of one to an unknown source, against a creating delivery. Ratios of
 * figures measured in the same run. `npm run bench:sources`.
 */

const ORDERS = Number(process.env['BENCH_ORDERS'] ?? 3_000);
const CONNECTIONS = 8;
const ADMIN = 'bench-admin-token-0123456789';
const SECRET = 'shpss_bench_secret_0123456789abcdef';

const fixture = (path: string): Record<string, any> =>
  JSON.parse(readFileSync(join(__dirname, '../../test/fixtures/sources', path), 'utf8')) as Record<string, any>;
const FIXTURE = fixture('shopify/orders-create.json');
const WOOCOMMERCE = fixture('woocommerce/order.json');
const HOTMART = fixture('hotmart/purchase-approved.json');

const rate = async (count: number, send: (i: number) => Promise<number>, expected: number): Promise<number> => {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < count) {
        const status = await send(next++);
        if (status !== expected) throw new Error(`answered ${status}, expected ${expected}`);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
};

const main = async (): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), 'orders-bench-sources-'));
  const port = await freePort();
  const service = new ServiceProcess({
    PORT: String(port),
    ADMIN_TOKEN: ADMIN,
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
    SQLITE_PATH: join(dir, 'orders.db'),
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; (await fetch(`${base}/healthz`).catch(() => undefined))?.ok !== true; i++) {
      if (i > 400) throw new Error('the service did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const call = async (path: string, token: string, body: unknown) => {
      const res = await fetch(base + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const dashboard = (await call('/admin/v1/dashboards', ADMIN, { name: 'sources' })).body['dashboard'].id as string;
    const token = (await call(`/admin/v1/dashboards/${dashboard}/tokens`, ADMIN, {})).body['token'].token as string;
    const source = (await call('/api/v1/sources', token, { platform: 'shopify', name: 'bench', secret: SECRET })).body['source']
      .id as string;
    const deliver = async (i: number, secret = SECRET, to = source): Promise<number> => {
      const payload = JSON.stringify({ ...FIXTURE, id: 1_000_000 + i });
      const res = await fetch(`${base}/in/v1/${to}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/create',
          'x-shopify-shop-domain': 'bench.myshopify.com',
          'x-shopify-event-id': `bench-${i}`,
          'x-shopify-hmac-sha256': createHmac('sha256', secret).update(payload).digest('base64'),
        },
        body: payload,
      });
      await res.arrayBuffer();
      return res.status;
    };
    const sourceOf = async (platform: string) =>
      (await call('/api/v1/sources', token, { platform, name: `bench ${platform}`, secret: SECRET })).body['source'].id as string;
    const woocommerce = await sourceOf('woocommerce');
    const hotmart = await sourceOf('hotmart');
    const post = async (to: string, payload: string, headers: Record<string, string>): Promise<number> => {
      const res = await fetch(`${base}/in/v1/${to}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });
      await res.arrayBuffer();
      return res.status;
    };
    const fromWooCommerce = (i: number): Promise<number> => {
      const payload = JSON.stringify({ ...WOOCOMMERCE, id: 1_000_000 + i });
      return post(woocommerce, payload, {
        'x-wc-webhook-source': 'https://bench.example/',
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-delivery-id': `bench-${i}`,
        'x-wc-webhook-signature': createHmac('sha256', SECRET).update(payload).digest('base64'),
      });
    };
    const fromHotmart = (i: number): Promise<number> => {
      const data = { ...HOTMART['data'], product: { ...HOTMART['data'].product, id: 4774438 } };
      const payload = JSON.stringify({
        ...HOTMART,
        id: `bench-${i}`,
        data: { ...data, purchase: { ...data.purchase, transaction: `HP${i}` } },
      });
      return post(hotmart, payload, { 'x-hotmart-hottok': SECRET });
    };
    const api = await rate(
      ORDERS,
      async (i) => (await call('/api/v1/orders', token, anOrderPayload({ externalId: `api-${i}` }))).status,
      201,
    );
    const sourced = await rate(ORDERS, (i) => deliver(i), 200);
    const wooSourced = await rate(ORDERS, fromWooCommerce, 200);
    const hotmartSourced = await rate(ORDERS, fromHotmart, 200);
    const refused = await rate(ORDERS, (i) => deliver(ORDERS + i, 'wrong secret'), 401);
    const unknown = await rate(ORDERS, (i) => deliver(ORDERS + i, SECRET, 'src_0000000000000000000000'), 404);
    console.log(`POST /api/v1/orders: ${api.toFixed(0)} orders/s (${ORDERS}, ${CONNECTIONS} connections)`);
    console.log(`Shopify orders/create through a source: ${sourced.toFixed(0)} deliveries/s: ${(sourced / api).toFixed(2)}x the API`);
    console.log(
      `WooCommerce order.created through a source: ${wooSourced.toFixed(0)} deliveries/s: ${(wooSourced / api).toFixed(2)}x the API`,
    );
    console.log(
      `Hotmart PURCHASE_APPROVED through a source: ${hotmartSourced.toFixed(0)} deliveries/s: ${(hotmartSourced / api).toFixed(2)}x the API`,
    );
    console.log(
      `refused signature: ${refused.toFixed(0)} deliveries/s: ${(refused / sourced).toFixed(2)}x a creating delivery (each writes a refused line)`,
    );
    console.log(`unknown source: ${unknown.toFixed(0)} deliveries/s: ${(unknown / sourced).toFixed(2)}x a creating delivery`);
  } finally {
    service.kill('SIGTERM');
    await service.exited;
    rmSync(dir, { recursive: true, force: true });
  }
};

void main();
