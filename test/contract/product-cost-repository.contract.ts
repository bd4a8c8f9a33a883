import { expect } from 'chai';
import type { ProductCostListQuery, ProductCostRepository } from '../../src/application/ports/product-cost-repository';
import { MAX_CENTS } from '../../src/domain/money';
import type { ProductCostEntry } from '../../src/domain/product-cost';

/** Products that sort differently by UTF-16 units and by code points, with case and accents. */
const PRODUCTS = ['\u{1F600}-emoji', '\uFF5E-fullwidth', 'sku-b', 'SKU-A', 'sku-a', 'é-accent', 'Z-last-upper'];

const entries = (): ProductCostEntry[] =>
  PRODUCTS.flatMap((product, i) =>
    ['USD', 'BRL'].flatMap((currency) =>
      ['2026-03-01', '2026-01-15', '2025-12-31'].map((from, j) => ({
        product,
        currency,
        from,
        unitCostCents: 100 * i + 10 * j + (currency === 'USD' ? 1 : 0),
      })),
    ),
  );

/** The listing order of the port, worked out on UTF-8 bytes: code point order. */
const inOrder = (list: readonly ProductCostEntry[]): ProductCostEntry[] =>
  [...list].sort(
    (a, b) =>
      Buffer.compare(Buffer.from(a.product), Buffer.from(b.product)) ||
      Buffer.compare(Buffer.from(a.currency), Buffer.from(b.currency)) ||
      Buffer.compare(Buffer.from(a.from), Buffer.from(b.from)),
  );

/** Every page of a listing, walked by its cursor. */
const walk = async (costs: ProductCostRepository, dashboardId: string, query: Omit<ProductCostListQuery, 'after'>) => {
  const pages: ProductCostEntry[][] = [];
  let after: ProductCostListQuery['after'];
  for (;;) {
    const page = await costs.list(dashboardId, { ...query, ...(after === undefined ? {} : { after }) });
    pages.push([...page.entries]);
    const last = page.entries[page.entries.length - 1];
    if (!page.more || last === undefined) return pages;
    after = { product: last.product, currency: last.currency, from: last.from };
  }
};

/** Every store's product costs (decision 0020): set not added, one per (product, currency, from), listed by cursor in code point order. */
export const productCostRepositoryContract = (adapterName: string, factory: () => Promise<ProductCostRepository>): void => {
  describe(`ProductCostRepository contract: ${adapterName}`, () => {
    let costs: ProductCostRepository;
    let stored: ProductCostEntry[];

    beforeEach(async () => {
      costs = await factory();
      stored = entries();
      expect(await costs.put('dsh_a', stored)).to.equal(stored.length);
      await costs.put('dsh_other', [{ product: 'sku-a', currency: 'BRL', from: '2026-01-01', unitCostCents: 1 }]);
    });

    it('gives every entry of the dashboard to a report, and none of another', async () => {
      expect(inOrder(await costs.priceList('dsh_a'))).to.deep.equal(inOrder(stored));
      expect(await costs.priceList('dsh_other')).to.deep.equal([
        { product: 'sku-a', currency: 'BRL', from: '2026-01-01', unitCostCents: 1 },
      ]);
      expect(await costs.priceList('dsh_none')).to.deep.equal([]);
    });

    it('sets the cost of a key (product, currency, from), not adding to it, and keeps the other keys', async () => {
      const changed = { product: 'sku-a', currency: 'BRL', from: '2026-01-15', unitCostCents: MAX_CENTS };
      const added = { product: 'sku-a', currency: 'BRL', from: '2026-01-16', unitCostCents: 0 };
      expect(await costs.put('dsh_a', [changed, added])).to.equal(2);
      await costs.put('dsh_a', [changed]);
      const expected = [
        ...stored.map((e) => (e.product === 'sku-a' && e.currency === 'BRL' && e.from === '2026-01-15' ? changed : e)),
        added,
      ];
      expect(inOrder(await costs.priceList('dsh_a'))).to.deep.equal(inOrder(expected));
    });

    it('lists by product, currency and from, each by code point, page after page from a cursor', async () => {
      const pages = await walk(costs, 'dsh_a', { pageSize: 5 });
      expect(pages.flat()).to.deep.equal(inOrder(stored));
      expect(pages.length).to.equal(Math.ceil(stored.length / 5));
      expect(pages.slice(0, -1).every((page) => page.length === 5)).to.equal(true);
      const whole = await costs.list('dsh_a', { pageSize: stored.length });
      expect(whole.more).to.equal(false);
      expect(whole.entries.map((e) => e.product).slice(0, 6)).to.deep.equal(['SKU-A', 'SKU-A', 'SKU-A', 'SKU-A', 'SKU-A', 'SKU-A']);
      expect(whole.entries[whole.entries.length - 1].product).to.equal('\u{1F600}-emoji');
    });

    it('lists one product, one currency, or both, each from a cursor as well', async () => {
      for (const filter of [
        { product: 'sku-a' },
        { currency: 'USD' },
        { product: '\uFF5E-fullwidth', currency: 'BRL' },
        { product: 'none' },
      ]) {
        const expected = inOrder(stored.filter((e) => Object.entries(filter).every(([k, v]) => e[k as keyof ProductCostEntry] === v)));
        expect((await walk(costs, 'dsh_a', { ...filter, pageSize: 2 })).flat(), JSON.stringify(filter)).to.deep.equal(expected);
      }
    });

    it('answers an empty last page after a cursor at the end, and copies that change nothing stored', async () => {
      const last = inOrder(stored)[stored.length - 1];
      expect(await costs.list('dsh_a', { pageSize: 10, after: last })).to.deep.equal({ entries: [], more: false });
      const page = await costs.list('dsh_a', { pageSize: 1 });
      (page.entries[0] as { unitCostCents: number }).unitCostCents = -1;
      expect((await costs.list('dsh_a', { pageSize: 1 })).entries[0].unitCostCents).not.to.equal(-1);
    });
  });
};
