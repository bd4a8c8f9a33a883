import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { createHttpApp } from '../../src/adapters/http/app';
import { CreateOrderBody, UpdateOrderBody } from '../../src/adapters/http/orders/order-codecs';
import { OrderPath } from '../../src/adapters/http/orders/order-routes';
import { CreateWebhookBody, UpdateWebhookBody } from '../../src/adapters/http/webhooks/webhook-codecs';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhook';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import { parseIdempotencyKey } from '../../src/adapters/http/kit/middleware/idempotency';
import { openApiDocument } from '../../src/adapters/http/openapi';
import {
  HTTP_METHODS,
  type HeaderObject,
  type JsonSchema,
  type OperationObject,
  type Reference,
  type ResponseObject,
} from '../../src/adapters/http/kit/openapi/types';
import type { IdempotencyStore } from '../../src/application/ports/idempotency-store';
import type { OrderRepository } from '../../src/application/ports/order-repository';
import { StorageUnavailableError } from '../../src/application/ports/storage-health';
import { sinkDestination } from '../../src/adapters/logging/log-destinations';
import { PinoLogger } from '../../src/adapters/logging/pino-logger';
import { compose } from '../../src/bootstrap/composition';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { anOrderPayload } from '../support/order-builder';
import { TestApi, type ApiResponse } from '../support/test-api';

const doc = openApiDocument;
const BASE = 'https://orders.test/openapi.json';

const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The node a local `$ref` names, or undefined. */
const resolveRef = (ref: string): unknown => {
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
const deref = <T extends object>(node: T): Exclude<T, Reference> =>
  ('$ref' in node && typeof node.$ref === 'string' ? resolveRef(node.$ref) : node) as Exclude<T, Reference>;

const collectRefs = (node: unknown, out: string[] = []): string[] => {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else collectRefs(value, out);
    }
  }
  return out;
};

const documentedOperations = (): string[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );

const operation = (path: string, method: string): OperationObject => {
  const found = doc.paths[path]?.[method.toLowerCase() as (typeof HTTP_METHODS)[number]];
  if (found === undefined) throw new Error(`${method} ${path} is not documented`);
  return found;
};

const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
// The document's own members are not schema keywords; the schemas inside them are reached by pointer.
ajv.addVocabulary(['openapi', 'info', 'tags', 'paths', 'webhooks', 'components']);
ajv.addSchema({ ...JSON.parse(JSON.stringify(doc)), $id: BASE });

/** A validator for the schema at `pointer` in the document; its `$ref`s resolve against the document. */
const validatorAt = (pointer: string) => ajv.compile({ $ref: `${BASE}${pointer}` });
/** `target` with some of its methods replaced; the others stay bound to it. */
const overriding = <T extends object>(target: T, methods: Partial<T>): T =>
  new Proxy(target, {
    get: (t, prop) => {
      if (Object.hasOwn(methods, prop)) return (methods as Record<PropertyKey, unknown>)[prop];
      const value: unknown = Reflect.get(t, prop);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });

const ORDERS_PREFIX = '/api/v1/orders';
const LINKS_PREFIX = '/api/v1/links';
const operationsUnder = (prefix: string): [string, string, OperationObject][] =>
  Object.entries(doc.paths)
    .filter(([path]) => path === prefix || path.startsWith(`${prefix}/`))
    .flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((method) => (item[method] ? [[path, method, item[method]] as [string, string, OperationObject]] : [])),
    );
const orderOperations = (): [string, string, OperationObject][] => operationsUnder(ORDERS_PREFIX);

/** The `code` values a problem response documents, read from its schema. */
const documentedCodes = (response: ResponseObject): string[] => {
  const schema = response.content?.['application/problem+json']?.schema;
  const enums = (schema?.allOf ?? []).map((part) => part.properties?.['code']?.enum ?? []);
  return enums.flat().map(String);
};

const validatesAgainst = (pointer: string, value: unknown): string | undefined => {
  const validate = validatorAt(pointer);
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
};

/** A header's text as its schema types it: integers (Retry-After) are numbers. */
const headerValue = (header: HeaderObject, text: string): unknown => {
  const schema: JsonSchema = header.schema;
  return schema.type === 'integer' && /^[0-9]+$/.test(text) ? Number(text) : text;
};

/** Calls every webhook operation, each answer checked by `conforms`: every success, and the errors of its own. */
const describesWebhookOperations = async (
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

describe('OpenAPI document', () => {
  describe('routes', () => {
    it('documents exactly the routes the router registers', () => {
      const storage = inMemoryStorage();
      const logger = new PinoLogger(
        'silent',
        sinkDestination(() => undefined),
      );
      const { useCases, ids } = compose({
        storage,
        transitions: {},
        rateLimit: { max: 600, windowSeconds: 60 },
        idempotency: { ttlMs: 86_400_000, leaseMs: 10_000 },
      });
      const { router } = createHttpApp(
        {
          useCases,
          ids,
          logger,
          metrics: new PrometheusMetrics(),
          trackerScript: Buffer.from(''),
          publicBaseUrl: () => 'http://127.0.0.1',
          readiness: async () => ({ draining: false, components: { store: 'up', workers: {} } }),
        },
        { bodyLimitBytes: 1024, adminToken: 'x' },
      );
      const routed = router.stack
        .filter((layer) => layer.methods.length > 0)
        .flatMap((layer) => {
          expect(layer.path, 'route paths are strings').to.be.a('string');
          const path = String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
          return layer.methods.filter((method) => method !== 'HEAD').map((method) => `${method} ${path}`);
        });
      expect(routed).to.have.length.greaterThan(10);
      expect(new Set(routed).size, 'no route is registered twice').to.equal(routed.length);
      expect([...routed].sort()).to.deep.equal(documentedOperations().sort());
    });

    it('declares every path parameter of every path, and no other', () => {
      for (const [path, item] of Object.entries(doc.paths)) {
        const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        for (const method of HTTP_METHODS) {
          const op = item[method];
          if (op === undefined) continue;
          const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])]
            .map((p) => deref(p))
            .filter((p) => p.in === 'path')
            .map((p) => p.name)
            .sort();
          expect(declared, `${method} ${path}`).to.deep.equal(inTemplate);
        }
      }
    });

    it('gives every operation a unique operationId, and X-Request-Id on every response', () => {
      const ops = Object.values(doc.paths).flatMap((item) => HTTP_METHODS.flatMap((m) => (item[m] ? [item[m]] : [])));
      expect(new Set(ops.map((op) => op.operationId)).size).to.equal(ops.length);
      for (const op of ops) {
        for (const [status, response] of Object.entries(op.responses)) {
          expect(deref(response).headers, `${op.operationId} ${status}`).to.have.property('X-Request-Id');
        }
      }
    });
  });

  describe('references', () => {
    it('resolves every $ref to an existing component', () => {
      const refs = collectRefs(doc);
      expect(refs).to.have.length.greaterThan(50);
      for (const ref of refs) {
        expect(ref, ref).to.match(/^#\/components\//);
        expect(resolveRef(ref), ref).to.be.an('object');
      }
    });

    it('carries the version of package.json', () => {
      const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
      expect(doc.info.version).to.equal(pkg.version);
    });
  });

  describe('rate limits and Idempotency-Key', () => {
    it('documents the rate-limit headers on every /api/v1/orders and /api/v1/links response but 401, and 429 on every operation', () => {
      const operations = [...orderOperations(), ...operationsUnder(LINKS_PREFIX)];
      expect(operations).to.have.length(9);
      for (const [path, method, op] of operations) {
        const where = `${method.toUpperCase()} ${path}`;
        const tooMany = deref(op.responses['429']);
        expect(documentedCodes(tooMany), where).to.deep.equal(['RATE_LIMIT_EXCEEDED']);
        expect(deref(tooMany.headers!['Retry-After']).required, where).to.equal(true);
        for (const [status, entry] of Object.entries(op.responses)) {
          const responseHeaders = deref(entry).headers ?? {};
          for (const name of ['RateLimit-Policy', 'RateLimit']) {
            if (status === '401') {
              expect(responseHeaders, `${where} ${status}`).not.to.have.property(name);
              continue;
            }
            expect(responseHeaders, `${where} ${status}`).to.have.property(name);
            const mayFailBeforeCounting = status === '500' || status === '503';
            expect(deref(responseHeaders[name]).required === true, `${where} ${status} ${name} required`).to.equal(!mayFailBeforeCounting);
          }
        }
      }
    });

    it('takes an Idempotency-Key on POST and PATCH only, with 409 in progress, 422 and the replay header', () => {
      for (const [path, method, op] of orderOperations()) {
        const where = `${method.toUpperCase()} ${path}`;
        const headerParameters = (op.parameters ?? [])
          .map((p) => deref(p))
          .filter((p) => p.in === 'header')
          .map((p) => p.name);
        const writes = method === 'post' || method === 'patch';
        expect(headerParameters.includes('Idempotency-Key'), where).to.equal(writes);
        if (!writes) continue;
        expect(documentedCodes(deref(op.responses['409'])), where).to.include('IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(documentedCodes(deref(op.responses['422'])), where).to.deep.equal(['IDEMPOTENCY_KEY_REUSED']);
        expect(documentedCodes(deref(op.responses['400'])), where).to.include('VALIDATION_FAILED');
        const success = Object.keys(op.responses).find((status) => status.startsWith('2'))!;
        expect(deref(op.responses[success]).headers, where).to.have.property('Idempotent-Replayed');
        expect(deref(op.responses['409']).headers, where).to.have.property('Retry-After');
      }
    });

    it('lists in the problem schema exactly the codes the documented responses answer', () => {
      // The answers outside the operations (unknown paths, other methods, requests Node refuses) are
      // components, each named in info.description; the operations' own responses are inline.
      const outside = Object.keys(doc.components.responses);
      expect(outside).to.include.members(['RouteNotFound', 'MethodNotAllowed']);
      for (const name of outside) expect(doc.info.description, name).to.include(`components/responses/${name}`);
      const responses: ResponseObject[] = [
        ...Object.values(doc.components.responses),
        ...Object.values(doc.paths).flatMap((item) =>
          HTTP_METHODS.flatMap((method) => Object.values(item[method]?.responses ?? {}).map((entry) => deref(entry))),
        ),
      ];
      const codes = new Set(responses.flatMap((response) => documentedCodes(response)));
      expect([...(doc.components.schemas['Problem'].properties!['code'].enum ?? [])].sort()).to.deep.equal([...codes].sort());
    });

    const keyCases: [string, string, boolean][] = [
      ['a plain key', '3f1c2d9e-7b1a', true],
      ['the structured-field form', '"3f1c2d9e"', true],
      ['255 characters', 'k'.repeat(255), true],
      ['256 characters', 'k'.repeat(256), false],
      ['255 characters in quotes', `"${'k'.repeat(255)}"`, true],
      ['256 characters in quotes', `"${'k'.repeat(256)}"`, false],
      ['escapes in quotes', '"a\\"b\\\\c"', true],
      ['an empty quoted string', '""', false],
      ['a quoted space', '"a b"', false],
      ['a space', 'a b', false],
      ['a tab', 'a\tb', false],
      ['a non-ASCII letter', 'clé', false],
      ['a quote inside', 'a"b', true],
      ['quotes that are not one string', '"a"b"', true],
      ['an unknown escape', '"\\x"', true],
      ['an opening quote only', '"abc', true],
      ['nothing', '', false],
    ];
    for (const [name, header, valid] of keyCases) {
      it(`Idempotency-Key: ${name} is ${valid ? 'accepted' : 'refused'} by the parameter schema and the middleware`, () => {
        expect(parseIdempotencyKey(header) !== undefined, 'middleware').to.equal(valid);
        const errors = validatesAgainst('#/components/parameters/IdempotencyKey/schema', header);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }
  });

  describe('path parameters agree with the codec', () => {
    const cases: [string, string, boolean][] = [
      ['255 characters', 'x'.repeat(255), true],
      ['256 characters', 'x'.repeat(256), false],
      ['the ~ form of a dot identifier of 255 characters', `${'~'.repeat(254)}..`, true],
      ['one character', 'x', true],
      ['nothing', '', false],
    ];
    const index = operation('/api/v1/orders/{externalId}', 'GET').parameters!.findIndex((p) => deref(p).name === 'externalId');
    const pointer = `#/paths/${escapePointer('/api/v1/orders/{externalId}')}/get/parameters/${index}/schema`;
    for (const [name, value, valid] of cases) {
      it(`externalId: ${name} is ${valid ? 'accepted' : 'refused'} by both`, async () => {
        const decoded = OrderPath.decode({ externalId: value });
        expect(isRight(decoded), 'codec').to.equal(valid);
        const errors = validatesAgainst(pointer, value);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }
  });

  describe('request schemas agree with the codecs', () => {
    const createPointer = '#/components/schemas/CreateOrderRequest';
    const updatePointer = '#/components/schemas/UpdateOrderRequest';
    const products = (n: number) => Array.from({ length: n }, () => ({ name: 'x', quantity: 1, unitPriceCents: 1 }));
    const nested = (levels: number): Record<string, unknown> => (levels === 1 ? { leaf: 'x' } : { a: nested(levels - 1) });
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const amounts = (changes: Record<string, unknown>) => ({
      amounts: { currency: 'BRL', grossCents: 1, netToSellerCents: 1, ...changes },
    });
    const withoutField = (field: string) => {
      const payload = anOrderPayload();
      delete payload[field];
      return payload;
    };

    const createCases: [string, unknown, boolean][] = [
      ['the minimal payload of the builder', anOrderPayload(), true],
      [
        'every optional field',
        anOrderPayload({
          status: 'paid',
          paidAt: '2026-01-02T03:05:00.123456789+05:30',
          refundedAt: '2024-02-29T00:00:00Z',
          chargedbackAt: '2026-01-02T03:05:00-03:00',
          customer: { email: 'a@example.com', tags: ['vip', null, 1.5, true] },
          fees: {},
          metadata: nested(5),
          trackingExtras: { a: [[[[1]]]] },
          ...amounts({ discountCents: 0, shippingCents: 10 ** 13, taxesCents: 1, totalFeesCents: 2 }),
          products: [{ name: '🙂'.repeat(255), quantity: 1_000_000, unitPriceCents: 0 }],
        }),
        true,
      ],
      ['500 products', anOrderPayload({ products: products(500) }), true],
      ['50 keys of metadata', anOrderPayload({ metadata: keys(50) }), true],
      ['a missing externalId', withoutField('externalId'), false],
      ['a missing tracking', withoutField('tracking'), false],
      ['an unknown field', anOrderPayload({ coupon: 'X' }), false],
      ['an unknown field in amounts', anOrderPayload(amounts({ vat: 1 })), false],
      ['an unknown field in a product', anOrderPayload({ products: [{ ...products(1)[0], color: 'red' }] }), false],
      ['negative cents', anOrderPayload(amounts({ grossCents: -1 })), false],
      ['cents above 10^13', anOrderPayload(amounts({ grossCents: 10 ** 13 + 1 })), false],
      ['fractional cents', anOrderPayload(amounts({ grossCents: 1.5 })), false],
      ['cents as a string', anOrderPayload(amounts({ grossCents: '100' })), false],
      ['a lowercase currency', anOrderPayload(amounts({ currency: 'brl' })), false],
      ['a four-letter currency', anOrderPayload(amounts({ currency: 'BRLX' })), false],
      ['quantity 0', anOrderPayload({ products: [{ name: 'x', quantity: 0, unitPriceCents: 1 }] }), false],
      ['quantity above a million', anOrderPayload({ products: [{ name: 'x', quantity: 1_000_001, unitPriceCents: 1 }] }), false],
      ['no products', anOrderPayload({ products: [] }), false],
      ['501 products', anOrderPayload({ products: products(501) }), false],
      ['an empty externalId', anOrderPayload({ externalId: '' }), false],
      ['an externalId of 256 characters', anOrderPayload({ externalId: 'x'.repeat(256) }), false],
      ['a date without timezone', anOrderPayload({ createdAt: '2026-01-02T03:04:05' }), false],
      ['a date that does not exist', anOrderPayload({ createdAt: '2026-02-30T00:00:00Z' }), false],
      ['a date with a space for T', anOrderPayload({ createdAt: '2026-01-02 03:04:05Z' }), false],
      ['hour 24', anOrderPayload({ createdAt: '2026-01-02T24:00:00Z' }), false],
      ['a leap second', anOrderPayload({ createdAt: '2026-06-30T23:59:60Z' }), false],
      ['a lowercase z', anOrderPayload({ createdAt: '2026-01-02T03:04:05z' }), false],
      ['ten fraction digits', anOrderPayload({ createdAt: '2026-01-02T03:04:05.1234567890Z' }), false],
      ['an unknown status', anOrderPayload({ status: 'shipped' }), false],
      ['isTest as a string', anOrderPayload({ isTest: 'true' }), false],
      ['metadata as an array', anOrderPayload({ metadata: [] }), false],
      ['metadata null', anOrderPayload({ metadata: null }), false],
      ['51 keys of metadata', anOrderPayload({ metadata: keys(51) }), false],
      ['metadata nested six levels', anOrderPayload({ metadata: nested(6) }), false],
      ['arrays nested six levels', anOrderPayload({ trackingExtras: { a: [[[[[1]]]]] } }), false],
      ['a key starting with $', anOrderPayload({ metadata: { $set: 1 } }), false],
      ['a key with a dot', anOrderPayload({ customer: { a: { 'b.c': 1 } } }), false],
      ['an empty key', anOrderPayload({ fees: { '': 1 } }), false],
      ['a nested string of 1001 characters', anOrderPayload({ metadata: { a: ['x'.repeat(1001)] } }), false],
      ['a nested array of 51 items', anOrderPayload({ metadata: { a: Array(51).fill(0) } }), false],
      ['an array body', [anOrderPayload()], false],
      ['a null body', null, false],
    ];

    for (const [name, payload, valid] of createCases) {
      it(`create: ${name} is ${valid ? 'accepted' : 'refused'} by both`, () => {
        expect(isRight(CreateOrderBody.decode(payload)), 'codec').to.equal(valid);
        const errors = validatesAgainst(createPointer, payload);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }

    const updateCases: [string, unknown, boolean][] = [
      ['a status', { status: 'paid' }, true],
      [
        'every field',
        {
          status: 'refunded',
          paidAt: '2026-01-02T03:04:05Z',
          refundedAt: '2026-01-03T00:00:00+01:00',
          chargedbackAt: '2026-01-04T00:00:00Z',
          metadata: {},
        },
        true,
      ],
      ['an empty object', {}, false],
      ['an unknown field', { status: 'paid', note: 'x' }, false],
      ['a date without timezone', { paidAt: '2026-01-02T03:04:05' }, false],
      ['metadata as a string', { metadata: 'x' }, false],
    ];
    for (const [name, payload, valid] of updateCases) {
      it(`update: ${name} is ${valid ? 'accepted' : 'refused'} by both`, () => {
        expect(isRight(UpdateOrderBody.decode(payload)), 'codec').to.equal(valid);
        const errors = validatesAgainst(updatePointer, payload);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }

    const webhookCases: [string, unknown, unknown, boolean][] = [
      ['the minimal webhook', CreateWebhookBody, { url: 'https://hooks.example.com/orders' }, true],
      [
        'every webhook field',
        CreateWebhookBody,
        { url: 'https://[2606:4700::1111]:8443/a/b?c=d&e', events: ['order.paid', 'webhook.test'], description: 'd'.repeat(200) },
        true,
      ],
      ['every event type once', CreateWebhookBody, { url: 'https://a.example', events: [...WEBHOOK_EVENT_TYPES] }, true],
      ['an IPv4 address with a port', CreateWebhookBody, { url: 'http://127.0.0.1:65535/x' }, true],
      ['an event type twice', CreateWebhookBody, { url: 'https://a.example', events: ['order.paid', 'order.paid'] }, false],
      ['an unknown event type', CreateWebhookBody, { url: 'https://a.example', events: ['order.shipped'] }, false],
      ['a description of 201 characters', CreateWebhookBody, { url: 'https://a.example', description: 'd'.repeat(201) }, false],
      ['a URL of 2,049 characters', CreateWebhookBody, { url: `https://a.example/${'x'.repeat(2031)}` }, false],
      ['a URL with credentials', CreateWebhookBody, { url: 'https://u:p@a.example/' }, false],
      ['a URL with a fragment', CreateWebhookBody, { url: 'https://a.example/#f' }, false],
      ['an ftp URL', CreateWebhookBody, { url: 'ftp://a.example/' }, false],
      ['a host that reads as a number', CreateWebhookBody, { url: 'https://0x7f.1/' }, false],
      ['a port past 65535', CreateWebhookBody, { url: 'https://a.example:65536/' }, false],
      ['an IPv6 address without brackets', CreateWebhookBody, { url: 'https://::1/' }, false],
      ['an unknown field', CreateWebhookBody, { url: 'https://a.example', secret: 'whsec_x' }, false],
      ['no url', CreateWebhookBody, {}, false],
      ['a change of description to null', UpdateWebhookBody, { description: null }, true],
      ['every change', UpdateWebhookBody, { url: 'https://b.example', events: [], description: 'x', enabled: false }, true],
      ['no change', UpdateWebhookBody, {}, false],
      ['enabled as a string', UpdateWebhookBody, { enabled: 'true' }, false],
    ];
    for (const [name, codec, value, valid] of webhookCases) {
      it(`webhooks: ${name} is ${valid ? 'accepted' : 'refused'} by both`, () => {
        const pointer =
          codec === CreateWebhookBody ? '#/components/schemas/CreateWebhookRequest' : '#/components/schemas/UpdateWebhookRequest';
        expect(isRight((codec as typeof CreateWebhookBody).decode(value)), 'codec').to.equal(valid);
        const errors = validatesAgainst(pointer, value);
        if (valid) expect(errors, 'schema').to.equal(undefined);
        else expect(errors, 'schema').to.be.a('string');
      });
    }

    it('accepts its own examples', () => {
      const examples = Object.entries(doc.paths).flatMap(([path, item]) =>
        HTTP_METHODS.flatMap((method) => {
          const body = item[method]?.requestBody;
          if (body === undefined) return [];
          return Object.entries(deref(body).content).flatMap(([media, content]) =>
            Object.values(content.examples ?? {}).map((example) => ({
              pointer: `#/paths/${escapePointer(path)}/${method}/requestBody/content/${escapePointer(media)}/schema`,
              value: example.value,
            })),
          );
        }),
      );
      expect(examples).to.have.length.greaterThan(3);
      for (const { pointer, value } of examples) expect(validatesAgainst(pointer, value), pointer).to.equal(undefined);
    });
  });

  describe('served over HTTP', () => {
    let api: TestApi;
    const checked = new Set<string>();

    /** The response matches `pointer`'s content type and body schema and carries its required headers. */
    const matches = (pointer: string, res: ApiResponse, where: string): void => {
      const response = deref<ResponseObject | Reference>({ $ref: pointer });
      const media = (res.headers.get('content-type') ?? '').split(';')[0].trim();
      if (response.content === undefined) {
        expect({ media, text: res.text }, `${where} has no content`).to.deep.equal({ media: '', text: '' });
      } else {
        expect(Object.keys(response.content), where).to.include(media);
        const body = /[/+]json$/.test(media) ? res.body : res.text;
        expect(validatesAgainst(`${pointer}/content/${escapePointer(media)}/schema`, body), where).to.equal(undefined);
      }
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        const value = res.headers.get(name);
        if (value === null) {
          if (deref(header).required === true) expect.fail(`${where}: header ${name} is missing`);
          continue;
        }
        const schemaPointer = '$ref' in header ? `${header.$ref}/schema` : `${pointer}/headers/${escapePointer(name)}/schema`;
        expect(validatesAgainst(schemaPointer, headerValue(deref(header), value)), `${where} header ${name}: ${value}`).to.equal(undefined);
      }
    };

    /** A real response of an operation: its status is documented there, and the response matches. */
    const conforms = (path: string, method: string, res: ApiResponse): void => {
      const where = `${method} ${path} -> ${res.status}`;
      const entry = operation(path, method).responses[String(res.status)];
      if (entry === undefined) expect.fail(`${where} is not documented`);
      const own = `#/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${res.status}`;
      matches('$ref' in entry ? entry.$ref : own, res, where);
      checked.add(`${method} ${path} ${res.status}`);
    };

    before(async () => {
      api = await TestApi.start({ bodyLimitBytes: 4096 });
    });

    after(async () => {
      await api.stop();
    });

    it('serves this document at /api/v1/openapi.json', async () => {
      const res = await api.request('GET', '/api/v1/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(doc)));
      conforms('/api/v1/openapi.json', 'GET', res);
    });

    it('describes real responses of every operation', async () => {
      const dashboard = await api.admin('POST', '/admin/v1/dashboards', { name: 'Shop' });
      conforms('/admin/v1/dashboards', 'POST', dashboard);
      const dashboardId: string = dashboard.body.dashboard.id;
      conforms('/admin/v1/dashboards', 'POST', await api.admin('POST', '/admin/v1/dashboards', { name: '' }));
      conforms('/admin/v1/dashboards', 'POST', await api.request('POST', '/admin/v1/dashboards', { token: 'wrong', body: { name: 'x' } }));

      const tokensPath = '/admin/v1/dashboards/{dashboardId}/tokens';
      const issued = await api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, { name: 'tests' });
      conforms(tokensPath, 'POST', issued);
      const token: string = issued.body.token.token;
      const unnamed = await api.admin('POST', `/admin/v1/dashboards/${dashboardId}/tokens`, {});
      conforms(tokensPath, 'POST', unnamed);
      conforms(tokensPath, 'POST', await api.admin('POST', '/admin/v1/dashboards/dsh_missing/tokens', {}));
      conforms(tokensPath, 'GET', await api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`));
      conforms(tokensPath, 'GET', await api.admin('GET', `/admin/v1/dashboards/${'x'.repeat(65)}/tokens`));

      const revokePath = '/admin/v1/tokens/{tokenId}/revoke';
      conforms(revokePath, 'POST', await api.admin('POST', `/admin/v1/tokens/${unnamed.body.token.id}/revoke`));
      conforms(revokePath, 'POST', await api.admin('POST', '/admin/v1/tokens/tok_missing/revoke'));
      conforms(tokensPath, 'GET', await api.admin('GET', `/admin/v1/dashboards/${dashboardId}/tokens`));

      const created = await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload() });
      expect(created.status).to.equal(201);
      conforms('/api/v1/orders', 'POST', created);
      const paid = await api.request('POST', '/api/v1/orders', {
        token,
        body: anOrderPayload({ externalId: 'order 2/b', status: 'paid' }),
      });
      conforms('/api/v1/orders', 'POST', paid);
      expect(paid.headers.get('location')).to.equal('/api/v1/orders/order%202%2Fb');
      conforms('/api/v1/orders', 'POST', await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload() }));
      const invalid = await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ createdAt: '2026-01-02T03:04:05' }) });
      expect(invalid.status).to.equal(400);
      conforms('/api/v1/orders', 'POST', invalid);
      conforms(
        '/api/v1/orders',
        'POST',
        await api.request('POST', '/api/v1/orders', { token, rawBody: '{', headers: { 'content-type': 'application/json' } }),
      );
      conforms(
        '/api/v1/orders',
        'POST',
        await api.request('POST', '/api/v1/orders', { token, rawBody: 'x', headers: { 'content-type': 'text/plain' } }),
      );
      conforms(
        '/api/v1/orders',
        'POST',
        await api.request('POST', '/api/v1/orders', { token, body: anOrderPayload({ metadata: { a: 'x'.repeat(5000) } }) }),
      );
      conforms('/api/v1/orders', 'POST', await api.request('POST', '/api/v1/orders', { body: anOrderPayload() }));

      const list = await api.request('GET', '/api/v1/orders?page=1&pageSize=10', { token });
      expect(list.status).to.equal(200);
      expect(list.body.orders).to.have.length(2);
      conforms('/api/v1/orders', 'GET', list);
      const badQuery = await api.request('GET', '/api/v1/orders?pageSize=0&colour=red', { token });
      expect(badQuery.status).to.equal(400);
      conforms('/api/v1/orders', 'GET', badQuery);
      conforms('/api/v1/orders', 'GET', await api.request('GET', '/api/v1/orders', { token: 'ok_live_' + 'x'.repeat(43) }));

      const orderPath = '/api/v1/orders/{externalId}';
      conforms(orderPath, 'GET', await api.request('GET', '/api/v1/orders/order%202%2Fb', { token }));
      conforms(orderPath, 'GET', await api.request('GET', '/api/v1/orders/missing', { token }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/order-1', { token, body: { status: 'paid' } }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/order-1', { token, body: { metadata: { note: 'x' } } }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/order-1', { token, body: {} }));
      conforms(orderPath, 'PATCH', await api.request('PATCH', '/api/v1/orders/missing', { token, body: { status: 'paid' } }));

      const link = { destinationUrl: 'https://shop.example/p?a=1#top', utmSource: 'google', utmMedium: 'cpc', utmCampaign: '{campaignid}' };
      conforms(
        `${LINKS_PREFIX}/build`,
        'POST',
        await api.request('POST', `${LINKS_PREFIX}/build`, { token, body: { ...link, params: { gclid: '{gclid}' } } }),
      );
      conforms(
        `${LINKS_PREFIX}/build`,
        'POST',
        await api.request('POST', `${LINKS_PREFIX}/build`, { token, body: { ...link, utmSource: '' } }),
      );
      const savedLink = await api.request('POST', LINKS_PREFIX, {
        token,
        body: { ...link, name: 'BF', utmTerm: 't', utmContent: 'c', utmId: 'i', params: { z: '1' } },
      });
      expect(savedLink.status).to.equal(201);
      conforms(LINKS_PREFIX, 'POST', savedLink);
      conforms(LINKS_PREFIX, 'POST', await api.request('POST', LINKS_PREFIX, { token, body: link }));
      conforms(LINKS_PREFIX, 'POST', await api.request('POST', LINKS_PREFIX, { token, body: { ...link, destinationUrl: 'ftp://x' } }));
      conforms(LINKS_PREFIX, 'GET', await api.request('GET', `${LINKS_PREFIX}?page=1&pageSize=1`, { token }));
      conforms(LINKS_PREFIX, 'GET', await api.request('GET', `${LINKS_PREFIX}?pageSize=0`, { token }));
      const linkPath = `${LINKS_PREFIX}/{id}`;
      conforms(linkPath, 'GET', await api.request('GET', savedLink.headers.get('location')!, { token }));
      conforms(linkPath, 'GET', await api.request('GET', `${LINKS_PREFIX}/lnk_missing`, { token }));
      const shortLink = '/l/{slug}';
      const slug = String(savedLink.body.link.shortUrl).split('/').pop()!;
      const redirected = await api.request('GET', `/l/${slug}?fbclid=x`);
      expect(redirected.status).to.equal(302);
      conforms(shortLink, 'GET', redirected);
      conforms(shortLink, 'GET', await api.request('GET', '/l/unknownSlug'));
      conforms(shortLink, 'GET', await api.request('GET', '/l/%FF'));
      const deleted = await api.request('DELETE', savedLink.headers.get('location')!, { token });
      expect(deleted.status).to.equal(204);
      conforms(linkPath, 'DELETE', deleted);
      conforms(linkPath, 'DELETE', await api.request('DELETE', savedLink.headers.get('location')!, { token }));

      conforms(revokePath, 'POST', await api.admin('POST', `/admin/v1/tokens/${issued.body.token.id}/revoke`));
      const revoked = await api.request('GET', '/api/v1/orders', { token });
      expect(revoked.body.code).to.equal('TOKEN_REVOKED');
      conforms('/api/v1/orders', 'GET', revoked);

      await describesWebhookOperations(api, (await api.newDashboard('Webhooks shop')).token, conforms);

      conforms('/healthz', 'GET', await api.request('GET', '/healthz'));
      conforms('/readyz', 'GET', await api.request('GET', '/readyz'));
      conforms('/tracker.js', 'GET', await api.request('GET', '/tracker.js'));

      for (const op of documentedOperations()) {
        const [method, path] = op.split(' ') as [string, string];
        const successes = Object.keys(operation(path, method).responses).filter((status) => status.startsWith('2'));
        for (const status of successes) expect(checked.has(`${method} ${path} ${status}`), `${op} ${status} was checked`).to.equal(true);
      }
    });

    it('describes the webhook requests the service sends: each event type under webhooks, bodies and headers', async () => {
      const receiver = await WebhookReceiver.start();
      try {
        const { token } = await api.newDashboard('Receiving shop');
        const endpoint = (await api.request('POST', '/api/v1/webhooks', { token, body: { url: receiver.url() } })).body.webhook;
        const full = { customer: { name: 'Zoë' }, fees: { a: 1 }, metadata: { b: [1] }, trackingExtras: { c: null } };
        for (const status of ['paid', 'refused', 'refunded', 'chargedback']) {
          expect(
            (
              await api.request('POST', '/api/v1/orders', {
                token,
                body: anOrderPayload({ externalId: `hook-${status}`, status, ...full }),
              })
            ).status,
          ).to.equal(201);
        }
        expect((await api.request('PATCH', '/api/v1/orders/hook-paid', { token, body: { metadata: { d: 1 } } })).status).to.equal(200);
        expect((await api.request('POST', `/api/v1/webhooks/${endpoint.id}/test`, { token })).status).to.equal(202);
        const requests = await receiver.waitFor(10);
        const types = new Set<string>();
        for (const request of requests) {
          const event = receiver.verified(endpoint.secret, [request])[0];
          types.add(event.type);
          const operation = doc.webhooks[event.type];
          expect(operation, event.type).to.not.equal(undefined);
          expect(validatesAgainst('#/components/schemas/WebhookEvent', event), event.type).to.equal(undefined);
          expect(request.headers['content-type']).to.be.oneOf(Object.keys(operation.post.requestBody.content));
          for (const header of operation.post.parameters) {
            const value = request.headers[header.name];
            expect(value, header.name).to.be.a('string');
            expect(ajv.compile(header.schema)(value), `${header.name}: ${String(value)}`).to.equal(true);
          }
        }
        expect([...types].sort()).to.deep.equal([...WEBHOOK_EVENT_TYPES].sort());
        expect(Object.keys(doc.webhooks).sort()).to.deep.equal([...WEBHOOK_EVENT_TYPES].sort());
      } finally {
        await receiver.stop();
      }
    });

    it('describes the tracking script: JavaScript as it is or gzipped, and 304 without a body', async () => {
      const plain = await api.request('GET', '/tracker.js', { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
      expect(plain.headers.get('content-encoding')).to.equal(null);
      conforms('/tracker.js', 'GET', plain);
      const gzipped = await api.request('GET', '/tracker.js', { headers: { 'accept-encoding': 'gzip' } });
      expect(gzipped.headers.get('content-encoding')).to.equal('gzip');
      expect(gzipped.text).to.equal(plain.text);
      conforms('/tracker.js', 'GET', gzipped);
      const notModified = await api.request('GET', '/tracker.js', {
        headers: { 'if-none-match': plain.headers.get('etag')!, 'accept-encoding': 'identity' },
      });
      expect(notModified.status).to.equal(304);
      conforms('/tracker.js', 'GET', notModified);
      const op = operation('/tracker.js', 'GET');
      expect(Object.keys(op.responses).sort()).to.deep.equal(['200', '304']);
      expect(Object.keys(deref(op.responses['200']).content ?? {})).to.deep.equal(['text/javascript']);
      expect(deref(op.responses['304']).content).to.equal(undefined);
      expect(op.security).to.deep.equal([]);
      const headerParameters = (op.parameters ?? [])
        .map((p) => deref(p))
        .filter((p) => p.in === 'header')
        .map((p) => p.name);
      expect(headerParameters).to.deep.equal(['X-Request-Id', 'If-None-Match', 'Accept-Encoding']);
    });

    it('describes the answers outside the operations: unknown paths, other methods, HEAD and OPTIONS', async () => {
      matches('#/components/responses/RouteNotFound', await api.request('GET', '/api/v1/nothing-here'), 'unknown path');
      const other = await api.request('DELETE', '/api/v1/orders');
      expect(other.status).to.equal(405);
      matches('#/components/responses/MethodNotAllowed', other, 'DELETE /api/v1/orders');
      expect((await api.request('HEAD', '/healthz')).status).to.equal(200);
      const options = await api.request('OPTIONS', '/api/v1/orders');
      expect(options.status).to.equal(200);
      expect(options.headers.get('allow')).to.include('POST');
    });

    it('describes real responses of the rate limit: 429 with Retry-After on every operation, and no headers on 401', async () => {
      const limited = await TestApi.start({ rateLimitMax: 2, rateLimitWindowSeconds: 60 });
      try {
        const calls: [string, string, string, unknown][] = [
          [ORDERS_PREFIX, 'POST', ORDERS_PREFIX, anOrderPayload({ externalId: 'limited' })],
          [ORDERS_PREFIX, 'GET', ORDERS_PREFIX, undefined],
          [`${ORDERS_PREFIX}/{externalId}`, 'GET', `${ORDERS_PREFIX}/limited`, undefined],
          [`${ORDERS_PREFIX}/{externalId}`, 'PATCH', `${ORDERS_PREFIX}/limited`, { metadata: { note: 'x' } }],
        ];
        for (const [path, method, url, body] of calls) {
          const { token } = await limited.newDashboard();
          const answers = [];
          for (let i = 0; i < 3; i++) answers.push(await limited.request(method, url, { token, body }));
          for (const res of answers) conforms(path, method, res);
          expect(
            answers.map((res) => res.headers.get('ratelimit')?.replace(/;t=\d+$/, '')),
            `${method} ${path}`,
          ).to.deep.equal(['"default";r=1', '"default";r=0', '"default";r=0']);
          const tooMany = answers[2];
          expect(tooMany.status).to.equal(429);
          expect(tooMany.body.code).to.equal('RATE_LIMIT_EXCEEDED');
          expect(tooMany.headers.get('ratelimit-policy')).to.equal('"default";q=2;w=60');
          const retryAfter = Number(tooMany.headers.get('retry-after'));
          expect(retryAfter).to.be.within(1, 60);
          expect(tooMany.headers.get('ratelimit')).to.equal(`"default";r=0;t=${retryAfter}`);
        }
        const unauthorized = await limited.request('GET', ORDERS_PREFIX, { token: 'ok_live_' + 'x'.repeat(43) });
        conforms(ORDERS_PREFIX, 'GET', unauthorized);
        expect(unauthorized.headers.get('ratelimit')).to.equal(null);
        expect(unauthorized.headers.get('ratelimit-policy')).to.equal(null);
      } finally {
        await limited.stop();
      }
    });

    it('describes real responses of an Idempotency-Key: replays, 422 and a bad key', async () => {
      const { token } = await api.newDashboard('Idempotency');
      const key = (value: string) => ({ token, headers: { 'idempotency-key': value } });
      const post = (value: string, body: unknown) => api.request('POST', ORDERS_PREFIX, { ...key(value), body });
      const orderPath = `${ORDERS_PREFIX}/{externalId}`;

      const first = await post('create-1', anOrderPayload({ externalId: 'idem-1' }));
      expect(first.status).to.equal(201);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      conforms(ORDERS_PREFIX, 'POST', first);
      const replayed = await post('"create-1"', anOrderPayload({ externalId: 'idem-1' }));
      expect(replayed.status).to.equal(201);
      expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
      expect(replayed.headers.get('location')).to.equal(first.headers.get('location'));
      expect(replayed.body).to.deep.equal(first.body);
      conforms(ORDERS_PREFIX, 'POST', replayed);

      const reused = await post('create-1', anOrderPayload({ externalId: 'idem-other' }));
      expect(reused.status).to.equal(422);
      expect(reused.body.code).to.equal('IDEMPOTENCY_KEY_REUSED');
      conforms(ORDERS_PREFIX, 'POST', reused);

      for (const bad of ['a b', 'k'.repeat(256), '""', '']) {
        const refused = await post(bad, anOrderPayload({ externalId: 'idem-bad' }));
        expect(refused.status, bad).to.equal(400);
        expect(refused.body.details, bad).to.deep.equal([
          { path: 'header.Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters, optionally in double quotes' },
        ]);
        conforms(ORDERS_PREFIX, 'POST', refused);
      }

      const patch = (value: string, url: string, body: unknown) => api.request('PATCH', url, { ...key(value), body });
      const updated = await patch('update-1', `${ORDERS_PREFIX}/idem-1`, { metadata: { note: 'x' } });
      expect(updated.status).to.equal(200);
      conforms(orderPath, 'PATCH', updated);
      const updateReused = await patch('update-1', `${ORDERS_PREFIX}/idem-1`, { metadata: { note: 'y' } });
      expect(updateReused.status).to.equal(422);
      conforms(orderPath, 'PATCH', updateReused);
    });

    it('describes real replays of responses without Location: 409, 404 and a PATCH 200', async () => {
      const { token } = await api.newDashboard('Replays');
      const key = (value: string) => ({ token, headers: { 'idempotency-key': value } });
      const post = (value: string, body: unknown) => api.request('POST', ORDERS_PREFIX, { ...key(value), body });
      const patch = (value: string, url: string, body: unknown) => api.request('PATCH', url, { ...key(value), body });
      const orderPath = `${ORDERS_PREFIX}/{externalId}`;
      expect((await post('create-1', anOrderPayload({ externalId: 'replay-1' }))).status).to.equal(201);

      const duplicate = await post('create-2', anOrderPayload({ externalId: 'replay-1' }));
      expect(duplicate.body.code).to.equal('DUPLICATE_EXTERNAL_ID');
      const duplicateAgain = await post('create-2', anOrderPayload({ externalId: 'replay-1' }));
      expect(duplicateAgain.status).to.equal(409);
      expect(duplicateAgain.headers.get('idempotent-replayed')).to.equal('true');
      expect(duplicateAgain.body, 'the stored body, with the first request id').to.deep.equal(duplicate.body);
      expect(duplicateAgain.headers.get('retry-after')).to.equal(null);
      conforms(ORDERS_PREFIX, 'POST', duplicateAgain);

      const updated = await patch('update-1', `${ORDERS_PREFIX}/replay-1`, { metadata: { note: 'x' } });
      const updatedAgain = await patch('update-1', `${ORDERS_PREFIX}/replay-1`, { metadata: { note: 'x' } });
      expect(updatedAgain.status).to.equal(200);
      expect(updatedAgain.headers.get('idempotent-replayed')).to.equal('true');
      expect(updatedAgain.body).to.deep.equal(updated.body);
      conforms(orderPath, 'PATCH', updatedAgain);
      const refusedTransition = await patch('update-2', `${ORDERS_PREFIX}/replay-1`, { status: 'paid' });
      expect(refusedTransition.body.code).to.equal('INVALID_TRANSITION');
      const refusedAgain = await patch('update-2', `${ORDERS_PREFIX}/replay-1`, { status: 'paid' });
      expect(refusedAgain.headers.get('idempotent-replayed')).to.equal('true');
      conforms(orderPath, 'PATCH', refusedAgain);
      await patch('update-3', `${ORDERS_PREFIX}/missing`, { status: 'paid' });
      const missingAgain = await patch('update-3', `${ORDERS_PREFIX}/missing`, { status: 'paid' });
      expect(missingAgain.status).to.equal(404);
      expect(missingAgain.headers.get('idempotent-replayed')).to.equal('true');
      conforms(orderPath, 'PATCH', missingAgain);
    });

    it('describes real responses while a key is in progress, and storage failures after counting', async () => {
      let reached!: () => void;
      const completing = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const base = inMemoryStorage();
      const storage = {
        ...base,
        idempotency: overriding<IdempotencyStore>(base.idempotency, {
          complete: async (scope, claimId, response) => {
            reached();
            await released;
            return base.idempotency.complete(scope, claimId, response);
          },
        }),
        orders: overriding<OrderRepository>(base.orders, {
          list: async () => Promise.reject(new StorageUnavailableError('list is down')),
          findByExternalId: async () => Promise.reject(new TypeError('read is broken')),
        }),
      };
      const instrumented = await TestApi.start({}, { storage });
      try {
        const { token } = await instrumented.newDashboard();
        const request = { token, headers: { 'idempotency-key': 'slow-1' }, body: anOrderPayload({ externalId: 'slow' }) };
        const first = instrumented.request('POST', ORDERS_PREFIX, request);
        await completing;
        const inProgress = await instrumented.request('POST', ORDERS_PREFIX, request);
        release();
        expect(inProgress.status).to.equal(409);
        expect(inProgress.body.code).to.equal('IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(Number(inProgress.headers.get('retry-after'))).to.be.within(1, 10);
        conforms(ORDERS_PREFIX, 'POST', inProgress);
        const created = await first;
        expect(created.status).to.equal(201);
        conforms(ORDERS_PREFIX, 'POST', created);

        const unavailable = await instrumented.request('GET', ORDERS_PREFIX, { token });
        expect(unavailable.status).to.equal(503);
        expect(unavailable.headers.get('ratelimit')).to.be.a('string');
        conforms(ORDERS_PREFIX, 'GET', unavailable);
        const broken = await instrumented.request('GET', `${ORDERS_PREFIX}/slow`, { token });
        expect(broken.status).to.equal(500);
        expect(broken.headers.get('ratelimit')).to.be.a('string');
        conforms(`${ORDERS_PREFIX}/{externalId}`, 'GET', broken);
      } finally {
        release();
        await instrumented.stop();
      }
    });

    it('describes readiness when storage does not answer, and the admin API when it is disabled', async () => {
      const down = { ...inMemoryStorage(), health: { ping: async () => false, close: async () => undefined } };
      const unready = await TestApi.start({ adminToken: undefined }, { storage: down });
      try {
        conforms('/readyz', 'GET', await unready.request('GET', '/readyz'));
        const disabled = await unready.admin('POST', '/admin/v1/dashboards', { name: 'x' });
        expect(disabled.status).to.equal(404);
        conforms('/admin/v1/dashboards', 'POST', disabled);
      } finally {
        await unready.stop();
      }
    });
  });
});
