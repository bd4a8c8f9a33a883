// The README's walk-through, through a client generated from the service's OpenAPI document by
// openapi-typescript and called with openapi-fetch, as an integrator would. scripts/generated-clients.sh
// generates ./schema.d.ts beside a copy of this file, compiles both with tsc --strict and runs the
// result against a running service (BASE_URL, ADMIN_TOKEN). Exits non-zero at the first surprise.
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const baseUrl = process.env['BASE_URL'] ?? 'http://127.0.0.1:3000';
const adminToken = process.env['ADMIN_TOKEN'] ?? '';

const check = (what: string, ok: boolean, seen?: unknown): void => {
  if (!ok) throw new Error(`${what}: ${JSON.stringify(seen)}`);
  console.log(`ok - ${what}`);
};

const main = async (): Promise<void> => {
  const admin = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${adminToken}` } });
  const dashboard = await admin.POST('/admin/v1/dashboards', { body: { name: 'My shop' } });
  if (dashboard.data === undefined) throw new Error(`create a dashboard: ${JSON.stringify(dashboard.error)}`);
  const dashboardId = dashboard.data.dashboard.id;
  const issued = await admin.POST('/admin/v1/dashboards/{dashboardId}/tokens', {
    params: { path: { dashboardId } },
    body: { name: 'checkout' },
  });
  if (issued.data === undefined) throw new Error(`create a token: ${JSON.stringify(issued.error)}`);
  check('the token is shown once, at creation', issued.data.token.token.length > 20);

  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${issued.data.token.token}` } });
  const order = {
    externalId: 'A-1001',
    platform: 'shopify',
    paymentMethod: 'credit_card',
    status: 'pending' as const,
    createdAt: '2026-11-20T14:03:00-03:00',
    isTest: false,
    amounts: { currency: 'BRL', grossCents: 15990, netToSellerCents: 14391, totalFeesCents: 1599 },
    products: [{ externalId: 'P-9', sku: 'TEE-M', name: 'T-shirt M', quantity: 1, unitPriceCents: 15990 }],
    tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'black-friday' },
    metadata: { note: 'gift', lines: [1, 2, { wrap: true }] },
  };
  const created = await api.POST('/api/v1/orders', { params: { header: { 'Idempotency-Key': '3f1c2d9e' } }, body: order });
  check(
    'POST /api/v1/orders answers 201 with the order',
    created.response.status === 201 && created.data?.order.externalId === 'A-1001',
    created.error,
  );
  check('with Location', created.response.headers.get('location') === '/api/v1/orders/A-1001', created.response.headers.get('location'));
  const replayed = await api.POST('/api/v1/orders', { params: { header: { 'Idempotency-Key': '3f1c2d9e' } }, body: order });
  check(
    'the same Idempotency-Key replays the answer',
    replayed.response.headers.get('idempotent-replayed') === 'true' && replayed.data?.order.id === created.data?.order.id,
  );
  const duplicate = await api.POST('/api/v1/orders', { body: order });
  check(
    'a second order with the same externalId is a typed 409 problem',
    duplicate.error?.code === 'DUPLICATE_EXTERNAL_ID',
    duplicate.error,
  );

  const all = await api.GET('/api/v1/orders');
  check('the list holds it', all.data?.total === 1 && all.data.orders[0]?.externalId === 'A-1001', all.error);
  const filtered = await api.GET('/api/v1/orders', {
    params: { query: { status: 'pending', from: '2026-11-01T00:00:00Z', page: 1, pageSize: 50 } },
  });
  check('and so does the filtered list', filtered.data?.orders.length === 1 && filtered.data.pageSize === 50, filtered.error);
  const bad = await api.GET('/api/v1/orders', { params: { query: { pageSize: 500 } } });
  check(
    'a bad query is a typed 400 with details',
    bad.error?.code === 'VALIDATION_FAILED' && bad.error.details?.[0]?.path === 'query.pageSize',
    bad.error,
  );

  const paid = await api.PATCH('/api/v1/orders/{externalId}', { params: { path: { externalId: 'A-1001' } }, body: { status: 'paid' } });
  check('PATCH marks it paid, with paidAt', paid.data?.order.status === 'paid' && typeof paid.data.order.paidAt === 'string', paid.error);
  const read = await api.GET('/api/v1/orders/{externalId}', { params: { path: { externalId: 'A-1001' } } });
  check(
    'GET reads it back whole',
    read.data?.order.status === 'paid' && read.data.order.products[0]?.sku === 'TEE-M' && read.data.order.metadata?.['note'] === 'gift',
    read.error,
  );
  const missing = await api.GET('/api/v1/orders/{externalId}', { params: { path: { externalId: 'no-such-order' } } });
  check('an unknown order is a typed 404 problem', missing.response.status === 404 && missing.error?.code === 'NOT_FOUND', missing.error);
};

main().catch((error: unknown) => {
  console.error(`not ok - ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
