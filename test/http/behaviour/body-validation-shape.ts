import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { ORDERS, postOrder, useApi, type StorageFactory } from '../harness';
import { expectInvalid } from '../problem-assertions';

const REQUIRED = ['externalId', 'platform', 'paymentMethod', 'status', 'createdAt', 'isTest', 'amounts', 'products', 'tracking'];

const without = (field: string): Record<string, unknown> => {
  const payload = anOrderPayload();
  delete payload[field];
  return payload;
};

/** Required, unknown and mistyped fields of the creation payload (decision 0003). */
export const bodyValidationShapeBehaviour = (storageFactory: StorageFactory): void => {
  describe('POST /api/v1/orders: required, unknown and mistyped fields', () => {
    const h = useApi(storageFactory);

    it('reports every missing required field at once, one detail each', async () => {
      const res = await h.api.request('POST', ORDERS, { token: h.token, body: {} });
      expectInvalid(res, REQUIRED);
    });

    for (const field of REQUIRED) {
      it(`reports the missing required field ${field} alone`, async () => {
        const res = await h.api.request('POST', ORDERS, { token: h.token, body: without(field) });
        expectInvalid(res, [field]);
      });
    }

    it('reports the missing fields of amounts, products and tracking with dotted paths', async () => {
      const res = await postOrder(h, { amounts: {}, products: [{}], tracking: {} });
      expectInvalid(res, [
        'amounts.currency',
        'amounts.grossCents',
        'amounts.netToSellerCents',
        'products.0.name',
        'products.0.quantity',
        'products.0.unitPriceCents',
        'tracking.utmSource',
        'tracking.utmMedium',
        'tracking.utmCampaign',
      ]);
    });

    it('accepts products without externalId and sku', async () => {
      const res = await postOrder(h, { products: [{ name: 'Mug', quantity: 1, unitPriceCents: 100 }] });
      expect(res.status, res.text).to.equal(201);
    });

    it('rejects unknown fields at the root', async () => {
      expectInvalid(await postOrder(h, { foo: 1 }), ['foo']);
    });

    it('rejects unknown fields inside amounts, products and tracking', async () => {
      const base = anOrderPayload();
      const res = await postOrder(h, {
        amounts: { ...(base.amounts as object), foo: 1 },
        products: [
          { name: 'A', quantity: 1, unitPriceCents: 1 },
          { name: 'B', quantity: 1, unitPriceCents: 1, foo: 'x' },
        ],
        tracking: { ...(base.tracking as object), utmColour: 'not here' },
      });
      expectInvalid(res, ['amounts.foo', 'products.1.foo', 'tracking.utmColour']);
    });

    it('rejects an unknown field on the first product as products.0.foo', async () => {
      expectInvalid(await postOrder(h, { products: [{ name: 'A', quantity: 1, unitPriceCents: 1, foo: true }] }), ['products.0.foo']);
    });

    const wrongTypes: [string, Record<string, unknown>, string][] = [
      ['externalId as a number', { externalId: 123 }, 'externalId'],
      ['platform as null', { platform: null }, 'platform'],
      ['paymentMethod as an object', { paymentMethod: { a: 1 } }, 'paymentMethod'],
      ['status outside the known states', { status: 'shipped' }, 'status'],
      ['status in another case', { status: 'PAID' }, 'status'],
      ['createdAt as a number', { createdAt: 1767323045000 }, 'createdAt'],
      ['isTest as a string', { isTest: 'true' }, 'isTest'],
      ['isTest as 0', { isTest: 0 }, 'isTest'],
      ['amounts as a string', { amounts: '100' }, 'amounts'],
      ['amounts as an array', { amounts: [] }, 'amounts'],
      ['products as an object', { products: { name: 'A' } }, 'products'],
      ['a product as a string', { products: ['A'] }, 'products.0'],
      ['tracking as null', { tracking: null }, 'tracking'],
      ['tracking.utmSource as a number', { tracking: { utmSource: 1, utmMedium: 'cpc', utmCampaign: 'c' } }, 'tracking.utmSource'],
      ['paidAt as a boolean', { paidAt: true }, 'paidAt'],
    ];
    for (const [name, changes, path] of wrongTypes) {
      it(`rejects ${name} at ${path}`, async () => {
        expectInvalid(await postOrder(h, changes), [path]);
      });
    }

    it('rejects a body that is JSON but not an object', async () => {
      for (const body of [[], 'order', 42, null]) {
        const res = await h.api.request('POST', ORDERS, {
          token: h.token,
          rawBody: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status, `${JSON.stringify(body)}: ${res.text}`).to.equal(400);
        expect(res.body.code).to.equal('VALIDATION_FAILED');
      }
    });

    it('collects problems from every level in one response', async () => {
      const res = await postOrder(h, {
        externalId: '',
        status: 'unknown',
        createdAt: '2026-01-02T03:04:05',
        amounts: { currency: 'brl', grossCents: 1.5, netToSellerCents: -1 },
        products: [{ name: 'A', quantity: 0, unitPriceCents: 1 }],
        extra: true,
      });
      expectInvalid(res, [
        'externalId',
        'status',
        'createdAt',
        'amounts.currency',
        'amounts.grossCents',
        'amounts.netToSellerCents',
        'products.0.quantity',
        'extra',
      ]);
    });

    it('stores nothing when the body is invalid', async () => {
      await postOrder(h, { externalId: 'bad', isTest: 'yes' });
      const list = await h.api.request('GET', ORDERS, { token: h.token });
      expect(list.body.total).to.equal(0);
    });
  });
};
