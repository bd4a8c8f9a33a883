import { expect } from 'chai';
import { postOrder, useApi, type StorageFactory } from '../harness';
import { expectInvalid } from '../problem-assertions';

const FREE_FORM = ['customer', 'fees', 'metadata', 'trackingExtras'];

/** An object `depth` levels deep, counting itself: nested(1) is { leaf: 'x' }. */
const nested = (depth: number): Record<string, unknown> => (depth <= 1 ? { leaf: 'x' } : { level: nested(depth - 1) });

const withKeys = (count: number): Record<string, number> => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));

/** customer, fees, metadata and trackingExtras: free-form JSON objects within limits (decision 0003). */
export const freeFormValidationBehaviour = (storageFactory: StorageFactory): void => {
  describe('POST /api/v1/orders: free-form objects', () => {
    const h = useApi(storageFactory);

    for (const field of FREE_FORM) {
      it(`rejects ${field} as null, an array, a string or a number`, async () => {
        for (const value of [null, [], [{ a: 1 }], 'text', 7]) {
          expectInvalid(await postOrder(h, { [field]: value }), [field]);
        }
      });

      it(`accepts ${field} as any JSON object within the limits`, async () => {
        const value = { text: 'a'.repeat(1000), n: 1.5, yes: false, none: null, list: [1, 'two', { three: 3 }], deep: nested(4) };
        const res = await postOrder(h, { [field]: value });
        expect(res.status, res.text).to.equal(201);
      });
    }

    it('accepts metadata 5 levels deep and rejects 6', async () => {
      expect((await postOrder(h, { externalId: 'd5', metadata: nested(5) })).status).to.equal(201);
      const res = await postOrder(h, { externalId: 'd6', metadata: nested(6) });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.code).to.equal('VALIDATION_FAILED');
      expect(res.body.details).to.have.length(1);
      expect(res.body.details[0].path).to.match(/^metadata(\.level)+$/);
    });

    it('accepts 50 keys and rejects 51, at the top and inside', async () => {
      expect((await postOrder(h, { externalId: 'k50', metadata: withKeys(50) })).status).to.equal(201);
      expectInvalid(await postOrder(h, { externalId: 'k51', metadata: withKeys(51) }), ['metadata']);
      expectInvalid(await postOrder(h, { externalId: 'k51in', metadata: { inner: withKeys(51) } }), ['metadata.inner']);
    });

    it('accepts strings of 1000 characters and rejects 1001, at their own path', async () => {
      expect((await postOrder(h, { externalId: 's1000', customer: { note: 'n'.repeat(1000) } })).status).to.equal(201);
      expectInvalid(await postOrder(h, { externalId: 's1001', customer: { note: 'n'.repeat(1001) } }), ['customer.note']);
      expectInvalid(await postOrder(h, { externalId: 's1001d', fees: { a: { b: 'n'.repeat(1001) } } }), ['fees.a.b']);
    });

    it('reports a problem in each free-form object at once', async () => {
      const res = await postOrder(h, {
        customer: [],
        fees: null,
        metadata: nested(6),
        trackingExtras: { long: 'x'.repeat(1001) },
      });
      expect(res.status, res.text).to.equal(400);
      const paths: string[] = res.body.details.map((d: { path: string }) => d.path);
      expect(paths).to.include.members(['customer', 'fees', 'trackingExtras.long']);
      expect(paths.some((p) => p.startsWith('metadata'))).to.equal(true);
    });
  });
};
