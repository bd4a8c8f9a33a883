import { expect } from 'chai';
import { costUseCases } from '../../../src/application/costs/cost-use-cases';
import type { ProductCostRepository } from '../../../src/application/ports/product-cost-repository';
import { StorageUnavailableError } from '../../../src/application/ports/storage-health';
import { storeInSlices, UPLOAD_SLICE_ROWS, UploadInterrupted } from '../../../src/application/shared/sliced-upload';
import type { ProductCostEntry } from '../../../src/domain/product-cost';
import { rejectionOf } from '../../support/failures';
import { anOrder } from '../../support/order-builder';
import { repricingDone, rollupsAndRebuild } from '../../support/rollup-tables';
import { temporarySqliteDatabase } from '../../support/sqlite-files';

const costs = (count: number, cents = 100): ProductCostEntry[] =>
  Array.from({ length: count }, (_, i) => ({ product: `P-${i}`, currency: 'BRL', unitCostCents: cents + i, from: '2026-03-01' }));

/** A file's rows stored slice by slice, the event loop free between two slices. */
describe('uploads stored in slices', () => {
  it('stores the rows in file order, at most UPLOAD_SLICE_ROWS a write, and lets a timer run between two writes', async () => {
    const slices: number[][] = [];
    let timerFiredAfter: number | undefined;
    const rows = Array.from({ length: 2 * UPLOAD_SLICE_ROWS + 7 }, (_, i) => i);
    const stored = storeInSlices(rows, async (slice) => {
      slices.push([...slice]);
      // A write holds the event loop a while: long enough for the timer to be due when it ends.
      const until = performance.now() + 3;
      while (performance.now() < until);
      return slice.length;
    });
    setTimeout(() => (timerFiredAfter = slices.length), 0);
    expect(await stored).to.equal(rows.length);
    expect(slices.map((slice) => slice.length)).to.deep.equal([UPLOAD_SLICE_ROWS, UPLOAD_SLICE_ROWS, 7]);
    expect(slices.flat()).to.deep.equal(rows);
    expect(timerFiredAfter, 'a timer set when the upload began fired before its last slice').to.be.lessThan(3);
  });

  it('stops at a failed slice with how many rows were stored before it', async () => {
    const failure = new StorageUnavailableError('the disk is full');
    const refused = await rejectionOf(
      storeInSlices(
        Array.from({ length: 1_200 }, (_, i) => i),
        async (slice) => {
          if (slice[0] >= UPLOAD_SLICE_ROWS) throw failure;
          return slice.length;
        },
      ),
    );
    expect(refused).to.be.instanceOf(UploadInterrupted);
    expect(refused).to.deep.include({ storedRows: UPLOAD_SLICE_ROWS, rows: 1_200, cause: failure });
  });

  describe('a costs file on SQLite', () => {
    let sqlite: ReturnType<typeof temporarySqliteDatabase>;
    beforeEach(async () => {
      sqlite = temporarySqliteDatabase();
      await sqlite.storage.dashboards.insert({ id: 'dsh_a', name: 'Shop', timezone: 'UTC', taxRate: 0, createdAt: new Date(0) });
      // Paid orders of P-1 and P-2 (the builder's line is p-1: these are its SKU-less twins), to be re-priced.
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          sqlite.storage.orders.insert(
            anOrder()
              .inDashboard('dsh_a')
              .withExternalId(`o-${i}`)
              .paid()
              .with({
                createdAt: new Date(Date.UTC(2026, 2, 2) + i * 3_600_000),
                products: [{ externalId: `P-${i % 3}`, name: 'Jogger', quantity: 1, unitPriceCents: 5_000 }],
              })
              .build(),
            [],
          ),
        ),
      );
    });
    afterEach(() => sqlite.close());

    it('shows a reader the first slices while the rest are being stored, and every rollup exact once all are', async () => {
      const { importProductCosts } = costUseCases({ productCosts: sqlite.storage.productCosts });
      const entries = costs(5 * UPLOAD_SLICE_ROWS);
      let seenMeanwhile: number | undefined;
      const imported = importProductCosts.execute('dsh_a', entries);
      const reader = setInterval(() => {
        void sqlite.storage.productCosts.priceList('dsh_a').then((list) => (seenMeanwhile ??= list.length > 0 ? list.length : undefined));
      }, 0);
      expect(await imported).to.equal(entries.length);
      clearInterval(reader);
      expect(seenMeanwhile, 'a part of the file, read while it was stored').to.be.within(1, entries.length - 1);
      expect(seenMeanwhile! % UPLOAD_SLICE_ROWS, 'whole slices').to.equal(0);
      expect(await sqlite.storage.productCosts.priceList('dsh_a')).to.have.length(entries.length);
      await repricingDone(sqlite.folder.path);
      const { kept, rebuilt } = rollupsAndRebuild(sqlite.folder.path, sqlite.folder.dir);
      expect(kept).to.deep.equal(rebuilt);
    });

    it('keeps the slices stored before a full disk, and the same file sent again converges, later lines winning', async () => {
      let calls = 0;
      const filling: ProductCostRepository = {
        ...sqlite.storage.productCosts,
        put: (dashboardId, slice) => {
          // The disk fills once two slices are stored: the file may not grow by a page more.
          if (++calls === 3)
            sqlite.db.prepare(`PRAGMA max_page_count = ${sqlite.db.prepare('PRAGMA page_count').pluck().get() as number}`).get();
          return sqlite.storage.productCosts.put(dashboardId, slice);
        },
        list: (dashboardId, query) => sqlite.storage.productCosts.list(dashboardId, query),
        priceList: (dashboardId) => sqlite.storage.productCosts.priceList(dashboardId),
      };
      const entries = [...costs(4 * UPLOAD_SLICE_ROWS), { product: 'P-1', currency: 'BRL', unitCostCents: 7, from: '2026-03-01' }];
      const refused = await rejectionOf(costUseCases({ productCosts: filling }).importProductCosts.execute('dsh_a', entries));
      expect(refused).to.be.instanceOf(UploadInterrupted);
      expect((refused as UploadInterrupted).storedRows).to.equal(2 * UPLOAD_SLICE_ROWS);
      expect((refused as UploadInterrupted).cause).to.be.instanceOf(StorageUnavailableError);
      expect(await sqlite.storage.productCosts.priceList('dsh_a')).to.have.length(2 * UPLOAD_SLICE_ROWS);
      sqlite.db.prepare('PRAGMA max_page_count = 1073741823').get();
      expect(await costUseCases({ productCosts: filling }).importProductCosts.execute('dsh_a', entries)).to.equal(entries.length);
      const stored = await sqlite.storage.productCosts.priceList('dsh_a');
      expect(stored).to.have.length(4 * UPLOAD_SLICE_ROWS);
      expect(stored.find((entry) => entry.product === 'P-1')?.unitCostCents, 'the later line of a key given twice').to.equal(7);
      await repricingDone(sqlite.folder.path);
      const { kept, rebuilt } = rollupsAndRebuild(sqlite.folder.path, sqlite.folder.dir);
      expect(kept).to.deep.equal(rebuilt);
    });
  });
});
