import { createHmac } from 'node:crypto';
/** What the OpenAPI tests share: the document, its references resolved, ajv on it, the webhook operations called. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { eventually } from '../support/webhook-receiver';
import { openApiDocument } from '../../src/adapters/http/openapi';
import {
  HTTP_METHODS,
  type HeaderObject,
  type JsonSchema,
  type OperationObject,
  type Reference,
  type ResponseObject,
} from '../../src/adapters/http/kit/openapi/types';
import { type TestApi, type ApiResponse } from '../support/test-api';

export const doc = openApiDocument;
export const BASE = 'https://orders.test/openapi.json';

export const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The node a local `$ref` names, or undefined. */
export const resolveRef = (ref: string): unknown => {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, key) =>
        node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined,
      doc,
    );
};

/** The object itself, or the one its `$ref` names. */
export const deref = <T extends object>(node: T): Exclude<T, Reference> =>
  ('$ref' in node && typeof node.$ref === 'string' ? resolveRef(node.$ref) : node) as Exclude<T, Reference>;

export const collectRefs = (node: unknown, out: string[] = []): string[] => {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
};

export const documentedOperations = (): string[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );

export const operation = (path: string, method: string): OperationObject => {
  const found = doc.paths[path]?.[method.toLowerCase() as (typeof HTTP_METHODS)[number]];
  if (found === undefined) throw new Error(`${method} ${path} is not documented`);
  return found;
};

export const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
// The document's own members are not schema keywords; the schemas inside them are reached by pointer.
// OpenAPI's `discriminator` is an annotation for generators: `oneOf` alone decides.
ajv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'paths', 'webhooks', 'components', 'discriminator']);
ajv.addSchema({ ...JSON.parse(JSON.stringify(doc)), $id: BASE });

/** A validator for the schema at `pointer` in the document; its `$ref`s resolve against the document. */
export const validatorAt = (pointer: string) => ajv.compile({ $ref: `${BASE}${pointer}` });
/** `target` with some of its methods replaced; the others stay bound to it. */
export const overriding = <T extends object>(target: T, methods: Partial<T>): T =>
  new Proxy(target, {
    get: (t, prop) => {
      if (Object.hasOwn(methods, prop)) return (methods as Record<PropertyKey, unknown>)[prop];
      const value: unknown = Reflect.get(t, prop);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });

export const ORDERS_PREFIX = '/api/v1/orders';
export const LINKS_PREFIX = '/api/v1/links';
export const operationsUnder = (prefix: string): [string, string, OperationObject][] =>
  Object.entries(doc.paths)
    .filter(([path]) => path === prefix || path.startsWith(`${prefix}/`))
    .flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((method) => (item[method] ? [[path, method, item[method]] as [string, string, OperationObject]] : [])),
    );
export const orderOperations = (): [string, string, OperationObject][] => operationsUnder(ORDERS_PREFIX);

/** The `code` values a problem response documents, read from its schema. */
export const documentedCodes = (response: ResponseObject): string[] => {
  const examples = response.content?.['application/problem+json']?.examples ?? {};
  return Object.keys(examples);
};

export const validatesAgainst = (pointer: string, value: unknown): string | undefined => {
  const validate = validatorAt(pointer);
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
};

/** A header's text as its schema types it: integers (Retry-After) are numbers. */
export const headerValue = (header: HeaderObject, text: string): unknown => {
  const schema: JsonSchema = header.schema;
  return schema.type === 'integer' && /^[0-9]+$/.test(text) ? Number(text) : text;
};

/** Calls every webhook operation, each answer checked by `conforms`: every success, and the errors of its own. */
export const describesWebhookOperations = async (
  api: TestApi,
  token: string,
  conforms: (path: string, method: string, res: ApiResponse) => void,
): Promise<void> => {
  const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token, body });
  const W = '/api/v1/webhooks';
  const one = `${W}/{webhookId}`;
  const created = await call('POST', W, { url: 'http://127.0.0.1:9/closed', events: ['webhook.test'], description: 'Docs' });
  expect(created.status).to.equal(201);
  conforms(W, 'POST', created);
  const id: string = created.body.webhook.id;
  conforms(W, 'POST', await call('POST', W, { url: 'https://u:p@a.example', colour: 'red' }));
  conforms(
    W,
    'POST',
    await call('POST', W, { url: 'https://a.example' })
      .then(() => call('GET', W))
      .then(() => api.request('POST', W, { token: 'x', body: {} })),
  );
  conforms(W, 'GET', await call('GET', W));
  conforms(one, 'GET', await call('GET', `${W}/${id}`));
  conforms(one, 'GET', await call('GET', `${W}/whk_missing`));
  conforms(one, 'PATCH', await call('PATCH', `${W}/${id}`, { description: null, events: [] }));
  conforms(one, 'PATCH', await call('PATCH', `${W}/${id}`, {}));
  conforms(`${one}/rotate-secret`, 'POST', await call('POST', `${W}/${id}/rotate-secret`));
  const tested = await call('POST', `${W}/${id}/test`);
  conforms(`${one}/test`, 'POST', tested);
  const deliveryId: string = tested.body.delivery.id;
  await eventually('an attempt', async () => (await call('GET', `${W}/${id}/deliveries`)).body.deliveries[0]?.attempts.length > 0);
  conforms(`${one}/deliveries`, 'GET', await call('GET', `${W}/${id}/deliveries?status=pending&pageSize=5`));
  conforms(`${one}/deliveries`, 'GET', await call('GET', `${W}/${id}/deliveries`));
  conforms(`${one}/deliveries`, 'GET', await call('GET', `${W}/${id}/deliveries?page=0`));
  const retry = `${one}/deliveries/{deliveryId}/retry`;
  conforms(retry, 'POST', await call('POST', `${W}/${id}/deliveries/${deliveryId}/retry`));
  conforms(retry, 'POST', await call('POST', `${W}/${id}/deliveries/dlv_missing/retry`));
  conforms(one, 'PATCH', await call('PATCH', `${W}/${id}`, { enabled: false }));
  conforms(`${one}/test`, 'POST', await call('POST', `${W}/${id}/test`));
  conforms(retry, 'POST', await call('POST', `${W}/${id}/deliveries/${deliveryId}/retry`));
  for (let i = 0; i < 18; i++) await call('POST', W, { url: `https://a.example/${i}` });
  const full = await call('POST', W, { url: 'https://a.example/full' });
  expect(full.body.code).to.equal('WEBHOOK_LIMIT_REACHED');
  conforms(W, 'POST', full);
  conforms(one, 'DELETE', await call('DELETE', `${W}/${id}`));
  conforms(one, 'DELETE', await call('DELETE', `${W}/${id}`));
};

/** Calls every report and spend operation, each answer checked by `conforms`: every success, and the errors of its own. */
export const describesReportOperations = async (
  api: TestApi,
  token: string,
  conforms: (path: string, method: string, res: ApiResponse) => void,
): Promise<void> => {
  const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token, body });
  const spend = '/api/v1/spend';
  const entry = { date: '2026-01-02', utmSource: 'google', utmCampaign: 'launch', currency: 'BRL', amountCents: 12_345 };
  conforms(spend, 'PUT', await call('PUT', spend, { entries: [entry, { ...entry, utmMedium: 'cpc', utmContent: 'ad-1' }] }));
  conforms(spend, 'PUT', await call('PUT', spend, { entries: [{ ...entry, date: '2026-02-30' }] }));
  conforms(spend, 'GET', await call('GET', `${spend}?from=2026-01-01&to=2026-01-31&pageSize=5`));
  conforms(spend, 'GET', await call('GET', `${spend}?from=2026-13-01`));
  const breakdown = '/api/v1/reports/breakdown';
  const range = 'from=2025-12-01T00:00:00Z&to=2026-11-30T23:59:59.999Z';
  conforms(breakdown, 'GET', await call('GET', `${breakdown}?${range}&by=utmSource,utmCampaign&sort=roas&limit=5`));
  conforms(breakdown, 'GET', await call('GET', `${breakdown}?${range}&by=platform&model=first&isTest=all`));
  conforms(breakdown, 'GET', await call('GET', `${breakdown}?${range}&by=nope`));
  const timeseries = '/api/v1/reports/timeseries';
  conforms(
    timeseries,
    'GET',
    await call('GET', `${timeseries}?from=2026-01-01T00:00:00Z&to=2026-01-10T00:00:00Z&interval=day&timezone=Asia/Kathmandu`),
  );
  conforms(timeseries, 'GET', await call('GET', `${timeseries}?from=2026-01-01T00:00:00Z&to=2026-03-10T00:00:00Z&interval=hour`));
  // Before any cost: every product sold is without one.
  const uncosted = '/api/v1/reports/uncosted-products';
  const unpriced = await call('GET', `${uncosted}?${range}&isTest=all&limit=1`);
  expect(unpriced.body.rows, unpriced.text).to.have.length(1);
  conforms(uncosted, 'GET', unpriced);
  conforms(uncosted, 'GET', await call('GET', `${uncosted}?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`));
  const costs = '/api/v1/product-costs';
  const cost = { product: 'p-1', currency: 'BRL', unitCostCents: 900_000, from: '2025-12-01' };
  conforms(costs, 'PUT', await call('PUT', costs, { entries: [cost, { ...cost, product: 'SKU-1', from: '2026-01-01' }] }));
  conforms(costs, 'PUT', await call('PUT', costs, { entries: [{ ...cost, unitCostCents: 1.5, from: '2026-02-30' }] }));
  const firstPage = await call('GET', `${costs}?pageSize=1`);
  conforms(costs, 'GET', firstPage);
  conforms(costs, 'GET', await call('GET', `${costs}?pageSize=1&after=${String(firstPage.body.nextCursor)}`));
  conforms(costs, 'GET', await call('GET', `${costs}?after=made-up&currency=brl`));
  // With a cost above the price, profit, contribution and margin are negative.
  conforms(breakdown, 'GET', await call('GET', `${breakdown}?${range}&by=utmSource,utmCampaign&sort=profitCents&compare=previous`));
  conforms(breakdown, 'GET', await call('GET', `${breakdown}?${range}&by=platform&compare=previous&sort=marginRate`));
  conforms(
    timeseries,
    'GET',
    await call('GET', `${timeseries}?from=2026-01-01T00:00:00Z&to=2026-01-10T00:00:00Z&interval=day&compare=previous&utmTerm=x`),
  );
  const products = '/api/v1/reports/products';
  conforms(products, 'GET', await call('GET', `${products}?${range}&compare=previous&sort=grossMarginCents&limit=2`));
  conforms(products, 'GET', await call('GET', `${products}?${range}&utmSource=google&model=first&isTest=all`));
  conforms(products, 'GET', await call('GET', `${products}?${range}&sort=profitCents&compare=next`));
};

/** Calls every source operation, each answer checked by `conforms`: every success, and the errors of its own. */
export const describesSourceOperations = async (
  api: TestApi,
  token: string,
  conforms: (path: string, method: string, res: ApiResponse) => void,
): Promise<void> => {
  const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token, body });
  const S = '/api/v1/sources';
  const one = `${S}/{sourceId}`;
  const secret = 'shpss_docs_secret';
  const created = await call('POST', S, { platform: 'shopify', name: 'Docs', secret });
  expect(created.status).to.equal(201);
  conforms(S, 'POST', created);
  conforms(S, 'POST', await call('POST', S, { platform: 'paypal', name: 'x', secret }));
  const id: string = created.body.source.id;
  conforms(S, 'GET', await call('GET', S));
  conforms(one, 'GET', await call('GET', `${S}/${id}`));
  conforms(one, 'GET', await call('GET', `${S}/src_missing`));
  conforms(one, 'PATCH', await call('PATCH', `${S}/${id}`, { name: 'Renamed' }));
  conforms(`${one}/secret`, 'PUT', await call('PUT', `${S}/${id}/secret`, { secret }));
  const inbound = '/in/v1/{sourceId}';
  const body = JSON.stringify({ id: 1 });
  const signed = createHmac('sha256', secret).update(body).digest('base64');
  const post = (to: string, hmac: string) =>
    api.request('POST', `/in/v1/${to}`, {
      rawBody: body,
      headers: { 'x-shopify-topic': 'products/update', 'x-shopify-hmac-sha256': hmac },
    });
  conforms(inbound, 'POST', await post(id, signed));
  conforms(inbound, 'POST', await post(id, 'wrong'));
  conforms(inbound, 'POST', await post('src_missing', signed));
  conforms(`${one}/deliveries`, 'GET', await call('GET', `${S}/${id}/deliveries?pageSize=2`));
  conforms(`${one}/deliveries`, 'GET', await call('GET', `${S}/${id}/deliveries?pageSize=0`));
  conforms(one, 'DELETE', await call('DELETE', `${S}/${id}`));
  conforms(one, 'DELETE', await call('DELETE', `${S}/${id}`));
};

/** Every ad account operation, each of its documented answers once (the platforms unreachable: the syncs fail, which changes no answer). */
export const describesAdAccountOperations = async (
  api: TestApi,
  token: string,
  conforms: (path: string, method: string, res: ApiResponse) => void,
): Promise<void> => {
  const call = (method: string, path: string, body?: unknown) => api.request(method, path, { token, body });
  const A = '/api/v1/ad-accounts';
  const one = `${A}/{adAccountId}`;
  const body = { platform: 'meta', name: 'Docs', accountId: 'act_123', credentials: { accessToken: 'EAAB-docs' }, campaignKey: 'name' };
  const created = await call('POST', A, { ...body, conversions: { enabled: false, pixelId: '42' } });
  expect(created.status).to.equal(201);
  conforms(A, 'POST', created);
  conforms(A, 'POST', await call('POST', A, body));
  conforms(A, 'POST', await call('POST', A, { ...body, platform: 'google' }));
  const id: string = created.body.adAccount.id;
  conforms(A, 'GET', await call('GET', A));
  conforms(one, 'GET', await call('GET', `${A}/${id}`));
  conforms(one, 'GET', await call('GET', `${A}/ada_missing`));
  conforms(one, 'PATCH', await call('PATCH', `${A}/${id}`, { name: 'Renamed', conversions: null }));
  conforms(one, 'PATCH', await call('PATCH', `${A}/${id}`, { credentials: { refreshToken: 'x' } }));
  conforms(`${one}/sync`, 'POST', await call('POST', `${A}/${id}/sync`));
  conforms(`${one}/sync`, 'POST', await call('POST', `${A}/ada_missing/sync`));
  conforms(`${one}/conversions`, 'GET', await call('GET', `${A}/${id}/conversions?pageSize=2`));
  conforms(`${one}/conversions`, 'GET', await call('GET', `${A}/${id}/conversions?status=lost`));
  conforms(`${one}/conversions`, 'GET', await call('GET', `${A}/ada_missing/conversions`));
  conforms(one, 'DELETE', await call('DELETE', `${A}/${id}`));
  conforms(one, 'DELETE', await call('DELETE', `${A}/${id}`));
};
