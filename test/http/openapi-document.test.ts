import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { createHttpApp } from '../../src/adapters/http/app';
import { HeavyRequestTurns } from '../../src/adapters/system/heavy-request-turns';
import { DASHBOARD_SHARE, DashboardShares } from '../../src/adapters/system/dashboard-shares';
import { OrderPath } from '../../src/adapters/http/orders/order-routes';
import { parseIdempotencyKey } from '../../src/adapters/http/kit/middleware/idempotency';
import { HTTP_METHODS, type ResponseObject } from '../../src/adapters/http/kit/openapi/types';
import { sinkDestination } from '../../src/adapters/logging/log-destinations';
import { PinoLogger } from '../../src/adapters/logging/pino-logger';
import { compose } from '../../src/bootstrap/composition';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import {
  doc,
  escapePointer,
  resolveRef,
  deref,
  collectRefs,
  documentedOperations,
  operation,
  LINKS_PREFIX,
  operationsUnder,
  orderOperations,
  documentedCodes,
  validatesAgainst,
} from './openapi-support';

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
          heavyTurns: new HeavyRequestTurns(),
          shares: new DashboardShares(DASHBOARD_SHARE),
          readiness: async () => ({ draining: false, components: { store: 'up', workers: {} } }),
        },
        { bodyLimitBytes: 1024, batchBodyLimitBytes: 4096, adminToken: 'x', trustProxy: 0 },
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
      expect(operations).to.have.length(10);
      for (const [path, method, op] of operations) {
        const where = `${method.toUpperCase()} ${path}`;
        const tooMany = deref(op.responses['429']);
        // An operation with a body also waits for its dashboard's turns when the body is large (decision 0023).
        const codes = op.requestBody === undefined ? ['RATE_LIMIT_EXCEEDED'] : ['RATE_LIMIT_EXCEEDED', 'TOO_MANY_HEAVY_REQUESTS'];
        expect(documentedCodes(tooMany), where).to.deep.equal(codes);
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
});
