import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { createOrder, ORDERS, orderPath, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';
import { rawRequest } from '../raw-request';

const JSON_TYPE = { 'content-type': 'application/json' };

/** Bodies that are not JSON, not sent as JSON, or too large; routes and methods that do not exist (decisions 0001, 0002). */
export const requestErrorsBehaviour = (storageFactory: StorageFactory): void => {
  describe('bodies that are not JSON', () => {
    const h = useApi(storageFactory);

    const broken = ['{"externalId": "order-1",', "{'externalId': 'x'}", '{"a":1,}', 'undefined', '{"a":1}}', '\u0000'];
    for (const rawBody of broken) {
      it(`answers 400 MALFORMED_JSON for ${JSON.stringify(rawBody)}`, async () => {
        expectProblem(await h.api.request('POST', ORDERS, { token: h.token, rawBody, headers: JSON_TYPE }), 400, 'MALFORMED_JSON');
      });
    }

    it('answers 400 MALFORMED_JSON for an empty or blank body', async () => {
      for (const rawBody of ['', '   \n']) {
        expectProblem(await h.api.request('POST', ORDERS, { token: h.token, rawBody, headers: JSON_TYPE }), 400, 'MALFORMED_JSON');
      }
      const none = await h.api.request('POST', ORDERS, { token: h.token, headers: JSON_TYPE });
      expectProblem(none, 400, 'MALFORMED_JSON');
    });

    it("never echoes the body or the parser's message", async () => {
      const res = await h.api.request('POST', ORDERS, {
        token: h.token,
        rawBody: '{"externalId": "ECHO-CANARY-4411" oops',
        headers: JSON_TYPE,
      });
      expectProblem(res, 400, 'MALFORMED_JSON');
      expect(res.text).not.to.include('ECHO-CANARY-4411');
      expect(res.text).not.to.match(/position|JSON\.parse|SyntaxError/);
    });

    it('answers 415 UNSUPPORTED_MEDIA_TYPE for text/plain, forms and XML', async () => {
      const body = JSON.stringify(anOrderPayload());
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const res = await h.api.request('POST', ORDERS, { token: h.token, rawBody: body, headers: { 'content-type': type } });
        expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('answers 415 for a body without Content-Type', async () => {
      const res = await rawRequest(h.api.url, {
        method: 'POST',
        path: ORDERS,
        headers: { authorization: `Bearer ${h.token}` },
        chunks: [JSON.stringify(anOrderPayload())],
      });
      expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('accepts application/json with a charset', async () => {
      const res = await h.api.request('POST', ORDERS, {
        token: h.token,
        rawBody: JSON.stringify(anOrderPayload()),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.status, res.text).to.equal(201);
    });
  });

  describe('JSON under other media types, and JSON the parser refuses', () => {
    const h = useApi(storageFactory);

    it('answers 415 for +json media types on POST: only application/json is accepted (docs/api.md)', async () => {
      for (const type of ['application/vnd.orders+json', 'application/problem+json']) {
        const res = await h.api.request('POST', ORDERS, {
          token: h.token,
          rawBody: JSON.stringify(anOrderPayload()),
          headers: { 'content-type': type },
        });
        expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('answers 415 for application/merge-patch+json on PATCH, never calling the body empty', async () => {
      await createOrder(h, { externalId: 'mp' });
      const res = await h.api.request('PATCH', orderPath('mp'), {
        token: h.token,
        rawBody: '{"metadata":{"a":1}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(res.text).not.to.include('empty');
    });

    it('answers valid JSON holding a __proto__ key as a validation problem, not as MALFORMED_JSON', async () => {
      const res = await h.api.request('POST', ORDERS, { token: h.token, rawBody: '{"__proto__": {"x": 1}}', headers: JSON_TYPE });
      const body = expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(body.details.map((d: { path: string }) => d.path)).to.include('__proto__');
    });
  });

  describe('bodies over BODY_LIMIT_BYTES', () => {
    const h = useApi(storageFactory, { config: { bodyLimitBytes: 2048 } });
    /** A valid creation body of exactly `bytes` bytes, padded in metadata strings of at most 900 characters. */
    const sized = (bytes: number): string => {
      const pads: Record<string, string> = {};
      const render = () => JSON.stringify(anOrderPayload({ metadata: pads }));
      for (let i = 0; render().length < bytes; i++) {
        pads[`p${i}`] = '';
        pads[`p${i}`] = 'p'.repeat(Math.min(900, Math.max(0, bytes - render().length)));
      }
      return render();
    };

    it('accepts a body of exactly the limit', async () => {
      const body = sized(2048);
      expect(Buffer.byteLength(body)).to.equal(2048);
      const res = await h.api.request('POST', ORDERS, { token: h.token, rawBody: body, headers: JSON_TYPE });
      expect(res.status, res.text).to.equal(201);
    });

    it('answers 413 PAYLOAD_TOO_LARGE one byte over the limit', async () => {
      const body = sized(2049);
      expect(Buffer.byteLength(body)).to.equal(2049);
      const res = await h.api.request('POST', ORDERS, { token: h.token, rawBody: body, headers: JSON_TYPE });
      expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('counts bytes, not characters', async () => {
      const body = JSON.stringify(anOrderPayload({ metadata: { pad: '€'.repeat(700) } }));
      expect(body.length).to.be.below(2048);
      const res = await h.api.request('POST', ORDERS, { token: h.token, rawBody: body, headers: JSON_TYPE });
      expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('answers 413 for a chunked body without Content-Length', async () => {
      const body = sized(4000);
      const res = await rawRequest(h.api.url, {
        method: 'POST',
        path: ORDERS,
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        chunks: [body.slice(0, 1000), body.slice(1000, 2500), body.slice(2500)],
      });
      expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('answers 413 on PATCH too', async () => {
      await createOrder(h, { externalId: 'big' });
      const res = await h.api.request('PATCH', orderPath('big'), { token: h.token, body: { metadata: { pad: 'x'.repeat(3000) } } });
      expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  describe('routes and methods', () => {
    const h = useApi(storageFactory);

    const wrongMethods: [string, string, string[]][] = [
      ['DELETE', ORDERS, ['GET', 'POST']],
      ['PUT', ORDERS, ['GET', 'POST']],
      ['PATCH', ORDERS, ['GET', 'POST']],
      ['DELETE', orderPath('x'), ['GET', 'PATCH']],
      ['POST', orderPath('x'), ['GET', 'PATCH']],
      ['POST', '/healthz', ['GET']],
    ];
    for (const [method, path, allowed] of wrongMethods) {
      it(`answers ${method} ${path} with 405 METHOD_NOT_ALLOWED and Allow`, async () => {
        const res = await h.api.request(method, path, { token: h.token });
        expectProblem(res, 405, 'METHOD_NOT_ALLOWED');
        const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
        expect(allow).to.include.members(allowed);
        expect(allow).not.to.include(method);
      });
    }

    for (const path of ['/', '/api/v1', '/api/v2/orders', '/api/v1/order', '/api/v1/orders/a/b', '/admin/v1/nothing']) {
      it(`answers GET ${path} with 404 NOT_FOUND`, async () => {
        expectProblem(await h.api.request('GET', path, { token: h.token }), 404, 'NOT_FOUND');
      });
    }
  });
};
