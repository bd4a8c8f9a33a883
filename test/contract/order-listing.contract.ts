import { expect } from 'chai';
import { summaryOf, type OrderRepository } from '../../src/application/ports/order-repository';
import type { Order } from '../../src/domain/order';
import { anOrder } from '../support/order-builder';
import { scribbleOnSummary, aMinimalOrder } from './order-contract-fixtures';
import type { OrderContract } from './order-repository.contract';

/** The OrderRepository contract, its listing: pages, filters, totals and summaries. */
export const orderListingContract = ({ orders: current, found, inserted }: OrderContract): void => {
  let orders: OrderRepository;

  beforeEach(() => {
    orders = current();
  });

  describe('list', () => {
    const at = (iso: string, id: string, changes: Partial<Order> = {}): Order =>
      anOrder()
        .inDashboard('dsh_a')
        .with({ id, externalId: `ext-${id}`, createdAt: new Date(iso), ...changes })
        .build();

    it('resolves an empty page with total 0 for a dashboard without orders', async () => {
      await inserted(aMinimalOrder());
      expect(await orders.list('dsh_b', { page: 1, pageSize: 20 })).to.deep.equal({ orders: [], total: 0 });
    });

    it("lists only the dashboard's orders and counts only them", async () => {
      await inserted(at('2026-01-01T00:00:00.000Z', 'ord_a1'));
      await inserted({ ...at('2026-01-02T00:00:00.000Z', 'ord_b1'), dashboardId: 'dsh_b' });
      await inserted(at('2026-01-03T00:00:00.000Z', 'ord_a2'));
      const page = await orders.list('dsh_a', { page: 1, pageSize: 20 });
      expect(page.orders.map((order) => order.id)).to.deep.equal(['ord_a2', 'ord_a1']);
      expect(page.total).to.equal(2);
    });

    it('sorts by createdAt descending, then id descending when createdAt is equal', async () => {
      const same = '2026-01-02T00:00:00.000Z';
      // Inserted out of order; ids mix cases as random base62 ids do, and compare by code unit.
      for (const order of [
        at(same, 'ord_B'),
        at('2026-01-01T00:00:00.000Z', 'ord_z'),
        at(same, 'ord_a'),
        at('2026-01-02T00:00:00.001Z', 'ord_0'),
        at(same, 'ord_A'),
        at(same, 'ord_b'),
      ]) {
        await inserted(order);
      }
      const page = await orders.list('dsh_a', { page: 1, pageSize: 20 });
      expect(page.orders.map((order) => order.id)).to.deep.equal(['ord_0', 'ord_b', 'ord_a', 'ord_B', 'ord_A', 'ord_z']);
    });

    describe('filters', () => {
      beforeEach(async () => {
        await inserted(at('2026-01-01T00:00:00.000Z', 'ord_1', { status: 'pending' }));
        await inserted(at('2026-01-02T00:00:00.000Z', 'ord_2', { status: 'paid', paidAt: new Date('2026-01-02T01:00:00Z') }));
        await inserted(at('2026-01-03T00:00:00.000Z', 'ord_3', { status: 'paid', paidAt: new Date('2026-01-03T01:00:00Z') }));
        await inserted(at('2026-01-04T00:00:00.000Z', 'ord_4', { status: 'refused' }));
        await inserted({ ...at('2026-01-03T00:00:00.000Z', 'ord_other', { status: 'paid' }), dashboardId: 'dsh_b' });
      });

      const ids = async (query: Parameters<OrderRepository['list']>[1]): Promise<{ ids: string[]; total: number }> => {
        const page = await orders.list('dsh_a', query);
        return { ids: page.orders.map((order) => order.id), total: page.total };
      };

      it('keeps only the orders with the status asked for', async () => {
        expect(await ids({ page: 1, pageSize: 20, status: 'paid' })).to.deep.equal({ ids: ['ord_3', 'ord_2'], total: 2 });
        expect(await ids({ page: 1, pageSize: 20, status: 'chargedback' })).to.deep.equal({ ids: [], total: 0 });
      });

      it('keeps an order created exactly at `from`, and drops one created a millisecond before', async () => {
        const from = (iso: string) => ids({ page: 1, pageSize: 20, from: new Date(iso) });
        expect(await from('2026-01-03T00:00:00.000Z')).to.deep.equal({ ids: ['ord_4', 'ord_3'], total: 2 });
        expect(await from('2026-01-03T00:00:00.001Z')).to.deep.equal({ ids: ['ord_4'], total: 1 });
      });

      it('keeps an order created exactly at `to`, and drops one created a millisecond after', async () => {
        const to = (iso: string) => ids({ page: 1, pageSize: 20, to: new Date(iso) });
        expect(await to('2026-01-02T00:00:00.000Z')).to.deep.equal({ ids: ['ord_2', 'ord_1'], total: 2 });
        expect(await to('2026-01-01T23:59:59.999Z')).to.deep.equal({ ids: ['ord_1'], total: 1 });
      });

      it('keeps the order created at the instant when `from` equals `to`', async () => {
        const instant = new Date('2026-01-02T00:00:00.000Z');
        expect(await ids({ page: 1, pageSize: 20, from: instant, to: instant })).to.deep.equal({ ids: ['ord_2'], total: 1 });
      });

      it('combines status, from and to', async () => {
        const query = {
          page: 1,
          pageSize: 20,
          status: 'paid',
          from: new Date('2026-01-02T00:00:00.001Z'),
          to: new Date('2026-01-04T00:00:00.000Z'),
        } as const;
        expect(await ids(query)).to.deep.equal({ ids: ['ord_3'], total: 1 });
      });

      it('counts every matching order in total, whatever the page', async () => {
        expect(await ids({ page: 2, pageSize: 1, status: 'paid' })).to.deep.equal({ ids: ['ord_2'], total: 2 });
      });
    });

    describe('pagination', () => {
      beforeEach(async () => {
        for (let day = 1; day <= 5; day++) await inserted(at(`2026-01-0${day}T00:00:00.000Z`, `ord_${day}`));
      });

      it('cuts the sorted list into 1-based pages of pageSize, with the total on every page', async () => {
        const pages = await Promise.all([1, 2, 3].map((page) => orders.list('dsh_a', { page, pageSize: 2 })));
        expect(pages.map((page) => page.orders.map((order) => order.id))).to.deep.equal([
          ['ord_5', 'ord_4'],
          ['ord_3', 'ord_2'],
          ['ord_1'],
        ]);
        expect(pages.map((page) => page.total)).to.deep.equal([5, 5, 5]);
      });

      it('resolves an empty page with the real total past the end', async () => {
        expect(await orders.list('dsh_a', { page: 4, pageSize: 2 })).to.deep.equal({ orders: [], total: 5 });
        expect(await orders.list('dsh_a', { page: 1000, pageSize: 100 })).to.deep.equal({ orders: [], total: 5 });
      });

      it('gives one page with everything when pageSize covers it', async () => {
        const page = await orders.list('dsh_a', { page: 1, pageSize: 100 });
        expect(page.orders).to.have.lengthOf(5);
        expect(page.total).to.equal(5);
      });

      it('keeps pages stable across equal createdAt values', async () => {
        const same = '2026-02-01T00:00:00.000Z';
        for (const id of ['ord_q', 'ord_m', 'ord_x', 'ord_c']) await inserted(at(same, id));
        const first = await orders.list('dsh_a', { page: 1, pageSize: 3 });
        const second = await orders.list('dsh_a', { page: 2, pageSize: 3 });
        expect(first.orders.map((order) => order.id)).to.deep.equal(['ord_x', 'ord_q', 'ord_m']);
        expect(second.orders.map((order) => order.id)).to.deep.equal(['ord_c', 'ord_5', 'ord_4']);
      });
    });

    describe('listAfter (cursors, decision 0019)', () => {
      /** Every page from the start, each after the last order of the one before. */
      const walk = async (
        query: { status?: Order['status']; from?: Date; to?: Date; pageSize: number },
        between?: (n: number) => Promise<void>,
      ) => {
        const seen: string[] = [];
        let after: { createdAt: Date; id: string } | undefined;
        for (let n = 0; n < 1_000; n++) {
          const page = await orders.listAfter('dsh_a', { ...query, ...(after === undefined ? {} : { after }) });
          seen.push(...page.orders.map((order) => order.id));
          const last = page.orders[page.orders.length - 1];
          if (!page.more || last === undefined) return seen;
          after = { createdAt: last.createdAt, id: last.id };
          if (between !== undefined) await between(n);
        }
        throw new Error('did not end');
      };

      it('gives the same orders in the same order as the listing, under the same filters', async () => {
        const statuses = ['pending', 'paid', 'refused'] as const;
        for (let i = 0; i < 23; i++)
          await inserted(
            at(`2026-01-${String(1 + (i % 9)).padStart(2, '0')}T00:00:00.000Z`, `ord_${String(i).padStart(2, '0')}`, {
              status: statuses[i % 3],
            }),
          );
        await inserted({ ...at('2026-01-05T00:00:00.000Z', 'ord_other'), dashboardId: 'dsh_b' });
        for (const query of [
          {},
          { status: 'paid' as const },
          { from: new Date('2026-01-03T00:00:00.000Z'), to: new Date('2026-01-07T00:00:00.000Z') },
        ]) {
          const listed = (await orders.list('dsh_a', { ...query, page: 1, pageSize: 100 })).orders.map((order) => order.id);
          expect(await walk({ ...query, pageSize: 4 }), JSON.stringify(query)).to.deep.equal(listed);
        }
        const first = await orders.listAfter('dsh_a', { pageSize: 100 });
        expect(first.more).to.equal(false);
        expect(first.orders).to.deep.equal((await orders.list('dsh_a', { page: 1, pageSize: 100 })).orders);
      });

      it('sees every order that existed at the start exactly once while orders are created between pages', async () => {
        for (let i = 0; i < 30; i++)
          await inserted(at(`2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`, `ord_start_${String(i).padStart(2, '0')}`));
        const before = new Set((await orders.list('dsh_a', { page: 1, pageSize: 100 })).orders.map((order) => order.id));
        const seen = await walk({ pageSize: 7 }, async (n) => {
          // Newer ones (at the top, already passed), and older ones (ahead, at the bottom).
          await inserted(at(`2026-02-01T00:00:0${n}.000Z`, `ord_new_${n}`));
          await inserted(at(`2025-12-01T00:00:0${n}.000Z`, `ord_old_${n}`));
        });
        expect(new Set(seen).size, 'no order twice').to.equal(seen.length);
        expect(seen.filter((id) => before.has(id))).to.have.length(before.size);
        expect(
          seen.some((id) => id.startsWith('ord_new_')),
          'nothing newer than the start',
        ).to.equal(false);
      });
    });

    it('does not share listed orders with the store', async () => {
      await inserted(aMinimalOrder());
      const page = await orders.list('dsh_a', { page: 1, pageSize: 20 });
      scribbleOnSummary(page.orders[0]);
      expect(await found('dsh_a', 'min-1')).to.deep.equal(aMinimalOrder());
      expect((await orders.list('dsh_a', { page: 1, pageSize: 20 })).orders).to.deep.equal([summaryOf(aMinimalOrder())]);
    });
  });
};
