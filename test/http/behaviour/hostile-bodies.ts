import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { MAX_BODY_DEPTH } from '../../../src/adapters/http/kit/well-formed';
import { MAX_ORDER_VALUES } from '../../../src/adapters/http/orders/order-codecs';
import { anOrderAtItsLimits, anOrderPayload, jsonValuesOf } from '../../support/order-builder';
import { listOrders, ORDERS, orderPath, useApi, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';
import { parseRaw, rawExchange } from '../raw-request';

const JSON_TYPE = { 'content-type': 'application/json' };

/** `{"a":{"a":…{}…}}` nested `levels` deep. */
const nestedObjects = (levels: number): string => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);

/** The dotted path of the value at `level` in `nestedObjects`, under `prefix`. */
const nestedPath = (prefix: string, level: number): string => [prefix, ...Array<string>(level - 1).fill('a')].join('.');

/** Bodies built to cost the service more than their size: depth, width, numbers JSON cannot hold. */
export const hostileBodiesBehaviour = (storageFactory: StorageFactory): void => {
  describe('bodies nested too deep', () => {
    const h = useApi(storageFactory);
    const post = (rawBody: string) => h.api.request('POST', ORDERS, { token: h.token, rawBody, headers: JSON_TYPE });
    const inMetadata = (levels: number) => JSON.stringify(anOrderPayload({ metadata: 'x' })).replace('"x"', nestedObjects(levels));

    it(`answers 400 VALIDATION_FAILED at the path where a body nested 10,000 deep passes ${MAX_BODY_DEPTH} levels, and writes nothing`, async () => {
      // The body is level 1 and metadata level 2: its first object too deep is MAX_BODY_DEPTH - 1 levels down.
      expectInvalid(await post(inMetadata(10_000)), [nestedPath('metadata', MAX_BODY_DEPTH)]);
      const bareArray = '['.repeat(10_000) + ']'.repeat(10_000);
      expectInvalid(await post(bareArray), [Array<string>(MAX_BODY_DEPTH).fill('0').join('.')]);
      expect((await listOrders(h)).total).to.equal(0);
    });

    it('answers the same on every route with a body (a PATCH, a webhook, a link)', async () => {
      const deep = nestedObjects(10_000);
      const patch = await h.api.request('PATCH', orderPath('none'), {
        token: h.token,
        rawBody: `{"metadata":${deep}}`,
        headers: JSON_TYPE,
      });
      expectInvalid(patch, [nestedPath('metadata', MAX_BODY_DEPTH)]);
      for (const path of ['/api/v1/webhooks', '/api/v1/links', '/api/v1/links/build']) {
        const res = await h.api.request('POST', path, { token: h.token, rawBody: `{"url":${deep}}`, headers: JSON_TYPE });
        expectInvalid(res, [nestedPath('url', MAX_BODY_DEPTH)]);
      }
    });

    it('keeps the free-form limit of 5 levels for a body within the nesting limit', async () => {
      const res = await post(inMetadata(7));
      expect(expectProblem(res, 400, 'VALIDATION_FAILED').details).to.deep.equal([
        { path: nestedPath('metadata', 6), message: 'is nested more than 5 levels deep' },
      ]);
    });

    it('takes a body exactly at the limit to the codecs, which judge it as usual', async () => {
      const atLimit = '['.repeat(MAX_BODY_DEPTH) + ']'.repeat(MAX_BODY_DEPTH);
      const res = await post(atLimit);
      expect(expectProblem(res, 400, 'VALIDATION_FAILED').details.map((d: { path: string }) => d.path)).to.deep.equal(['(body)']);
    });
  });

  describe('bodies holding more values than their route takes (decision 0023)', () => {
    const h = useApi(storageFactory);
    const post = (path: string, rawBody: string) => h.api.request('POST', path, { token: h.token, rawBody, headers: JSON_TYPE });
    const CAP = 2 * MAX_ORDER_VALUES;
    const TOO_MANY = `holds more than ${CAP} JSON values (each object, array, string, number, boolean and null counts one)`;
    const numbers = (n: number) => `[${Array<string>(n).fill('0').join(',')}]`;

    it(`creates an order at every limit (${MAX_ORDER_VALUES} values), alone and twice in a batch`, async () => {
      expect(jsonValuesOf(anOrderAtItsLimits('largest-0'))).to.equal(MAX_ORDER_VALUES);
      const alone = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderAtItsLimits('largest-0') });
      expect(alone.status, alone.text).to.equal(201);
      const batch = await h.api.request('POST', `${ORDERS}/batch`, {
        token: h.token,
        body: { orders: [anOrderAtItsLimits('largest-1'), anOrderAtItsLimits('largest-2')] },
      });
      expect(batch.status, batch.text).to.equal(200);
      expect(batch.body).to.include({ created: 2, failed: 0 });
    });

    it(`answers 400 at (body) when an order holds more than ${CAP} values, before any codec reads it, and writes nothing`, async () => {
      const body = JSON.stringify(anOrderPayload({ metadata: 'x' })).replace('"x"', `{"a":${numbers(100_000)}}`);
      const res = await post(ORDERS, body);
      expect(expectProblem(res, 400, 'VALIDATION_FAILED').details).to.deep.equal([{ path: '(body)', message: TOO_MANY }]);
      expect((await listOrders(h)).total).to.equal(0);
    });

    it('answers 400 at the order of a batch that holds too many, and at orders past 500 items, creating none', async () => {
      const heavy = JSON.stringify(anOrderPayload({ externalId: 'heavy', metadata: 'x' })).replace('"x"', `{"a":${numbers(10_000)}}`);
      const light = JSON.stringify(anOrderPayload({ externalId: 'light' }));
      const res = await post(`${ORDERS}/batch`, `{"orders":[${light},${heavy}]}`);
      expect(expectProblem(res, 400, 'VALIDATION_FAILED').details).to.deep.equal([{ path: 'orders.1', message: TOO_MANY }]);
      const many = await post(`${ORDERS}/batch`, `{"orders":${numbers(1_000_000)}}`);
      expect(expectProblem(many, 400, 'VALIDATION_FAILED').details).to.deep.equal([
        { path: 'orders', message: 'must be an array of 1 to 500 orders' },
      ]);
      expect((await listOrders(h)).total).to.equal(0);
    });

    it('counts every route: a link, a webhook, a PATCH', async () => {
      for (const [method, path] of [
        ['POST', '/api/v1/links'],
        ['POST', '/api/v1/webhooks'],
        ['PATCH', orderPath('none')],
      ] as const) {
        const res = await h.api.request(method, path, { token: h.token, rawBody: `{"metadata":${numbers(20_000)}}`, headers: JSON_TYPE });
        expect(
          expectProblem(res, 400, 'VALIDATION_FAILED').details.map((d: { path: string }) => d.path),
          path,
        ).to.deep.equal(['(body)']);
      }
    });
  });

  describe('free-form numbers JSON cannot carry exactly', () => {
    const h = useApi(storageFactory);
    const post = (rawBody: string) => h.api.request('POST', ORDERS, { token: h.token, rawBody, headers: JSON_TYPE });

    it('answers 400 at their paths for non-finite numbers and integers beyond 2^53 - 1, and writes nothing', async () => {
      const metadata = '{"big":9007199254740993,"huge":1e400,"negative":-1e309,"list":[1,-9007199254740992]}';
      const body = JSON.stringify(anOrderPayload({ metadata: 'x', fees: 'y' }))
        .replace('"x"', metadata)
        .replace('"y"', '{"rate":1e999}');
      expectInvalid(await post(body), ['metadata.big', 'metadata.huge', 'metadata.negative', 'metadata.list.1', 'fees.rate']);
      expect((await listOrders(h)).total).to.equal(0);
    });

    it('keeps every number within ±(2^53 - 1), fractions and exponents included, as it was sent', async () => {
      const metadata = '{"max":9007199254740991,"min":-9007199254740991,"fraction":0.1,"exp":1.5e300,"small":5e-324}';
      const body = JSON.stringify(anOrderPayload({ externalId: 'num-1', metadata: 'x' })).replace('"x"', metadata);
      const created = await post(body.replace('"exp":1.5e300,', ''));
      expect(created.status, created.text).to.equal(201);
      const read = await h.api.request('GET', orderPath('num-1'), { token: h.token });
      expect(read.body.order.metadata).to.deep.equal({ max: 9007199254740991, min: -9007199254740991, fraction: 0.1, small: 5e-324 });
      expectInvalid(await post(body.replace('num-1', 'num-2')), ['metadata.exp']);
    });
  });

  describe('requests with several Authorization headers', () => {
    const h = useApi(storageFactory);

    it('answers 400 with a problem that says why, whichever token each one holds, on the API and the admin API', async () => {
      for (const [path, first] of [
        [ORDERS, h.token],
        ['/admin/v1/dashboards/dsh_none/tokens', 'not-the-admin-token'],
      ]) {
        for (const second of [first, 'ok_live_other']) {
          const text = await rawExchange(h.api.url, [
            `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${first}\r\nauthorization: Bearer ${second}\r\nConnection: close\r\n\r\n`,
          ]);
          const res = parseRaw(text);
          const body = expectProblem(res, 400, 'VALIDATION_FAILED');
          expect(body.details).to.deep.equal([{ path: 'header.Authorization', message: 'must be sent once' }]);
        }
      }
    });
  });

  describe('connections from one address', () => {
    const h = useApi(storageFactory, {
      config: {
        http: {
          headersTimeoutMs: 10_000,
          requestTimeoutMs: 30_000,
          keepAliveTimeoutMs: 5_000,
          maxConnections: 10,
          maxConnectionsPerAddress: 3,
        },
      },
    });

    it('closes those beyond HTTP_MAX_CONNECTIONS_PER_ADDRESS at once, while another address is served', async () => {
      const { port } = new URL(h.api.url);
      const from = (localAddress: string) =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress }, () => resolve(socket));
          socket.on('error', reject);
        });
      const held = await Promise.all(Array.from({ length: 3 }, () => from('127.0.0.2')));
      try {
        await new Promise((done) => setTimeout(done, 50));
        const extra = await from('127.0.0.2');
        const closed = await new Promise<boolean>((resolve) => {
          extra.once('close', () => resolve(true));
          setTimeout(() => resolve(false), 2_000);
        });
        expect(closed, 'a fourth connection from the same address is closed').to.equal(true);
        expect(parseRaw(await rawExchange(h.api.url, ['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'])).status).to.equal(
          200,
        );
      } finally {
        for (const socket of held) socket.destroy();
      }
      await new Promise((done) => setTimeout(done, 50));
      const again = await from('127.0.0.2');
      again.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        again.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        again.on('close', () => resolve(text));
      });
      expect(answer).to.match(/^HTTP\/1\.1 200/);
    });
  });
};
