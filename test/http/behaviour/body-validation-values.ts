import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { postOrder, useApi, type StorageFactory } from '../harness';
import { expectInvalid } from '../problem-assertions';

const MAX_CENTS = 10 ** 13;
const product = (changes: Record<string, unknown> = {}) => ({ name: 'T-shirt', quantity: 1, unitPriceCents: 100, ...changes });
const amounts = (changes: Record<string, unknown>) => ({ ...(anOrderPayload().amounts as object), ...changes });
const tracking = (changes: Record<string, unknown>) => ({ ...(anOrderPayload().tracking as object), ...changes });

/** Where each money field lives in the payload, and how to set it. */
const MONEY_FIELDS: [string, (v: unknown) => Record<string, unknown>][] = [
  ...['grossCents', 'netToSellerCents', 'discountCents', 'shippingCents', 'taxesCents', 'totalFeesCents'].map(
    (f): [string, (v: unknown) => Record<string, unknown>] => [`amounts.${f}`, (v) => ({ amounts: amounts({ [f]: v }) })],
  ),
  ['products.0.unitPriceCents', (v) => ({ products: [product({ unitPriceCents: v })] })],
];

/** Strings limited to 1-255 characters, and how to set each. */
const STRING_FIELDS: [string, (v: string) => Record<string, unknown>][] = [
  ['externalId', (v) => ({ externalId: v })],
  ['platform', (v) => ({ platform: v })],
  ['paymentMethod', (v) => ({ paymentMethod: v })],
  ['products.0.name', (v) => ({ products: [product({ name: v })] })],
  ['products.0.externalId', (v) => ({ products: [product({ externalId: v })] })],
  ['products.0.sku', (v) => ({ products: [product({ sku: v })] })],
  ['tracking.utmSource', (v) => ({ tracking: tracking({ utmSource: v }) })],
  ['tracking.utmMedium', (v) => ({ tracking: tracking({ utmMedium: v }) })],
  ['tracking.utmCampaign', (v) => ({ tracking: tracking({ utmCampaign: v }) })],
];

const DATE_FIELDS = ['createdAt', 'paidAt', 'refundedAt', 'chargedbackAt'];

/** Values of the creation payload (decision 0003): money, quantities, sizes, strings, currency, dates. */
export const bodyValidationValuesBehaviour = (storageFactory: StorageFactory): void => {
  describe('POST /api/v1/orders: field values', () => {
    const h = useApi(storageFactory);

    for (const [path, set] of MONEY_FIELDS) {
      it(`rejects ${path} as a fraction, a negative, a string, above 10^13 or null`, async () => {
        for (const bad of [1.5, 0.01, -1, '100', MAX_CENTS + 1, 1e300, null]) {
          expectInvalid(await postOrder(h, set(bad)), [path]);
        }
      });

      it(`accepts ${path} at 0 and at 10^13`, async () => {
        expect((await postOrder(h, { externalId: 'zero', ...set(0) })).status).to.equal(201);
        expect((await postOrder(h, { externalId: 'max', ...set(MAX_CENTS) })).status).to.equal(201);
      });
    }

    it('rejects a quantity of 0, a negative or a fractional quantity', async () => {
      for (const quantity of [0, -1, 1.5, '2']) {
        expectInvalid(await postOrder(h, { products: [product({ quantity })] }), ['products.0.quantity']);
      }
    });

    it('accepts a quantity of 1', async () => {
      expect((await postOrder(h, { products: [product({ quantity: 1 })] })).status).to.equal(201);
    });

    it('rejects an empty products array', async () => {
      expectInvalid(await postOrder(h, { products: [] }), ['products']);
    });

    it('accepts 500 products and rejects 501', async () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => product({ name: `P${i}` }));
      expect((await postOrder(h, { externalId: 'p500', products: many(500) })).status).to.equal(201);
      expectInvalid(await postOrder(h, { externalId: 'p501', products: many(501) }), ['products']);
    });

    it('reports each bad product by its index', async () => {
      const res = await postOrder(h, { products: [product(), product({ quantity: 0 }), product(), product({ name: '' })] });
      expectInvalid(res, ['products.1.quantity', 'products.3.name']);
    });

    for (const [path, set] of STRING_FIELDS) {
      it(`rejects ${path} empty or of 256 characters, and accepts 255`, async () => {
        expectInvalid(await postOrder(h, set('')), [path]);
        expectInvalid(await postOrder(h, set('x'.repeat(256))), [path]);
        const ok = await postOrder(h, { externalId: 'len-255', ...set('y'.repeat(255)) });
        expect(ok.status, ok.text).to.equal(201);
      });
    }

    it('rejects currencies that are not three uppercase letters', async () => {
      for (const currency of ['brl', 'BRLX', 'BR', 'B1L', '', 986]) {
        expectInvalid(await postOrder(h, { amounts: amounts({ currency }) }), ['amounts.currency']);
      }
    });

    it('accepts a three-letter uppercase currency', async () => {
      expect((await postOrder(h, { amounts: amounts({ currency: 'EUR' }) })).status).to.equal(201);
    });

    for (const field of DATE_FIELDS) {
      it(`rejects ${field} without a timezone, not ISO 8601, or not a real date`, async () => {
        const bad = [
          '2026-01-02T03:04:05',
          '2026-01-02T03:04:05.000',
          '2026-01-02',
          '2026-02-30T00:00:00Z',
          '2026-13-01T00:00:00Z',
          '2026-01-02T25:00:00Z',
          '2026-01-02T03:04:05+25:00',
          '02/01/2026 03:04:05 +00:00',
          'yesterday',
          '',
        ];
        for (const value of bad) {
          const res = await postOrder(h, { [field]: value });
          expectInvalid(res, [field]);
        }
      });
    }

    it('rejects dates that an offset pushes outside the years 0000-9999 in UTC', async () => {
      expectInvalid(await postOrder(h, { createdAt: '0000-01-01T00:30:00+01:00' }), ['createdAt']);
      expectInvalid(await postOrder(h, { createdAt: '9999-12-31T23:30:00-01:00' }), ['createdAt']);
    });

    it('accepts dates with Z, with an offset, with fractions and on 29 February of a leap year', async () => {
      const good = ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05-03:00', '2026-01-02T03:04:05.123+05:30', '2028-02-29T12:00:00Z'];
      for (const [i, createdAt] of good.entries()) {
        const res = await postOrder(h, { externalId: `date-${i}`, createdAt });
        expect(res.status, `${createdAt}: ${res.text}`).to.equal(201);
      }
    });
  });
};
