import Router from '@koa/router';
import Koa from 'koa';
import { jsonBody } from '../../src/adapters/http/kit/middleware/json-body';
import { valuesFor } from '../../src/adapters/http/kit/well-formed';
import { MAX_ORDER_VALUES } from '../../src/adapters/http/orders/order-codecs';
import type { RequestState } from '../../src/adapters/http/kit/request-state';
import { created, loadFixtures, port } from './baseline-fixtures';

/**
 * Bare Koa: the service's framework, router (@koa/router) and body parser (its own `jsonBody`, with
 * the service's default limit), answering the field benchmark's routes with the service's bytes (see
 * baseline-fixtures.ts), and nothing else: no request id, access log, error mapping, authentication,
 * rate limit, idempotency or store. The ratios of the service are taken to this.
 */

const fixtures = loadFixtures();
const BODY_LIMIT_BYTES = 262_144;
const JSON_TYPE = 'application/json; charset=utf-8';
let sequence = 0;
// The reader the service's order routes use: its byte limit, and the count of values an order may hold.
const orderBody = jsonBody(BODY_LIMIT_BYTES)({ values: valuesFor(MAX_ORDER_VALUES) });

const router = new Router<RequestState>();
router.post('/api/v1/orders', orderBody, (ctx) => {
  const answer = created(++sequence, ctx.request.body);
  ctx.status = 201;
  ctx.set('Location', answer.location);
  ctx.type = JSON_TYPE;
  ctx.body = answer.json;
});
router.get('/api/v1/orders', (ctx) => {
  ctx.type = JSON_TYPE;
  ctx.body = fixtures.page;
});
router.get('/api/v1/orders/:externalId', (ctx) => {
  ctx.type = JSON_TYPE;
  ctx.body = fixtures.order;
});
router.patch('/api/v1/orders/:externalId', orderBody, (ctx) => {
  ctx.type = JSON_TYPE;
  ctx.body = fixtures.order;
});
router.get('/l/:slug', (ctx) => {
  ctx.status = 302;
  ctx.set('Location', fixtures.redirectTo);
  ctx.body = '';
});
router.get('/tracker.js', (ctx) => {
  ctx.type = 'application/javascript; charset=utf-8';
  ctx.body = fixtures.tracker;
});
router.get('/healthz', (ctx) => {
  ctx.type = JSON_TYPE;
  ctx.body = '{"status":"ok"}';
});

const app = new Koa<RequestState>();
app.use(router.routes());
app.use(router.allowedMethods());

const server = app.listen(port(), '127.0.0.1');
const stop = (): void => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
