import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { summaryOf, type OrderRepository } from '../../src/application/ports/order-repository';
import { MAX_CENTS } from '../../src/domain/money';
import type { Order } from '../../src/domain/order';
import { anOrder } from '../support/order-builder';
import { scribbleOn, aFullOrder, aMinimalOrder } from './order-contract-fixtures';
import { orderListingContract } from './order-listing.contract';
import { orderOutboxContract } from './order-outbox.contract';

/** What each part of the contract reads of the store under test; `orders` is a new store before each test. */
export interface OrderContract {
  readonly orders: () => OrderRepository;
  readonly found: (dashboardId: string, externalId: string) => Promise<Order>;
  readonly inserted: (order: Order) => Promise<Order>;
}

export const orderRepositoryContract = (adapterName: string, factory: () => Promise<OrderRepository>): void => {
  describe(`OrderRepository contract: ${adapterName}`, () => {
    let orders: OrderRepository;

    beforeEach(async () => {
      orders = await factory();
    });

    const found = async (dashboardId: string, externalId: string): Promise<Order> => {
      const result = await orders.findByExternalId(dashboardId, externalId);
      if (O.isNone(result)) throw new Error(`expected ${externalId} in ${dashboardId}, found none`);
      return result.value;
    };

    const inserted = async (order: Order): Promise<Order> => {
      const result = await orders.insert(order, []);
      if (E.isLeft(result)) throw new Error(`expected the insert of ${order.externalId} to succeed`);
      return result.right;
    };

    describe('insert', () => {
      it('stores a new order and resolves Right with it', async () => {
        const order = aMinimalOrder();
        expect(await orders.insert(order, [])).to.deep.equal(E.right(order));
        expect(await found('dsh_a', 'min-1')).to.deep.equal(order);
      });

      it('refuses a second order with the same externalId in the same dashboard, and keeps the first', async () => {
        const first = anOrder().inDashboard('dsh_a').withExternalId('dup').with({ platform: 'first' }).build();
        await inserted(first);
        const second = anOrder().inDashboard('dsh_a').withExternalId('dup').with({ platform: 'second' }).build();
        expect(await orders.insert(second, [])).to.deep.equal(E.left({ _tag: 'DuplicateExternalId', externalId: 'dup' }));
        expect(await found('dsh_a', 'dup')).to.deep.equal(first);
        expect((await orders.list('dsh_a', { page: 1, pageSize: 100 })).total).to.equal(1);
      });

      it('accepts the same externalId in another dashboard, as a separate order', async () => {
        const inA = anOrder().inDashboard('dsh_a').withExternalId('shared').with({ platform: 'a' }).build();
        const inB = anOrder().inDashboard('dsh_b').withExternalId('shared').with({ platform: 'b' }).build();
        await inserted(inA);
        expect(await orders.insert(inB, [])).to.deep.equal(E.right(inB));
        expect(await found('dsh_a', 'shared')).to.deep.equal(inA);
        expect(await found('dsh_b', 'shared')).to.deep.equal(inB);
      });

      it('lets exactly one of 20 parallel inserts of one externalId win; the others get DuplicateExternalId', async () => {
        const candidates = Array.from({ length: 20 }, (_, i) =>
          anOrder()
            .inDashboard('dsh_a')
            .withExternalId('race')
            .with({ platform: `p${i}` })
            .build(),
        );
        const results = await Promise.all(candidates.map((order) => orders.insert(order, [])));
        const winners = results.filter(E.isRight);
        expect(winners).to.have.lengthOf(1);
        for (const loser of results.filter(E.isLeft)) {
          expect(loser.left).to.deep.equal({ _tag: 'DuplicateExternalId', externalId: 'race' });
        }
        expect(await found('dsh_a', 'race')).to.deep.equal(winners[0].right);
        expect((await orders.list('dsh_a', { page: 1, pageSize: 100 })).total).to.equal(1);
      });

      it('does not share the returned order with the store', async () => {
        const returned = await inserted(aMinimalOrder());
        scribbleOn(returned);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(aMinimalOrder());
      });

      it('does not keep a reference to the order it was given', async () => {
        const given = aMinimalOrder();
        await inserted(given);
        scribbleOn(given);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(aMinimalOrder());
      });
    });

    describe('findByExternalId', () => {
      it('resolves none when the dashboard has no order with this externalId', async () => {
        await inserted(aMinimalOrder());
        expect(await orders.findByExternalId('dsh_a', 'missing')).to.deep.equal(O.none);
      });

      it("resolves none for another dashboard's order", async () => {
        await inserted(aMinimalOrder());
        expect(await orders.findByExternalId('dsh_b', 'min-1')).to.deep.equal(O.none);
      });

      it('does not share the found order with the store', async () => {
        await inserted(aMinimalOrder());
        scribbleOn(await found('dsh_a', 'min-1'));
        expect(await found('dsh_a', 'min-1')).to.deep.equal(aMinimalOrder());
      });
    });

    describe('round trip', () => {
      it('gives back every field of a full order exactly: amounts, products, tracking and free-form objects', async () => {
        await inserted(aFullOrder());
        expect(await found('dsh_a', 'full-1')).to.deep.equal(aFullOrder());
      });

      it('gives back a minimal order without inventing optional fields', async () => {
        await inserted(aMinimalOrder());
        const back = await found('dsh_a', 'min-1');
        expect(back).to.deep.equal(aMinimalOrder());
        const optional = ['paidAt', 'refundedAt', 'chargedbackAt', 'customer', 'fees', 'metadata', 'trackingExtras'];
        expect(back).not.to.have.any.keys(...optional);
        expect(back.products[0]).to.deep.equal(aMinimalOrder().products[0]);
      });

      it('gives back dates as Date instants with their milliseconds', async () => {
        await inserted(aFullOrder());
        const back = await found('dsh_a', 'full-1');
        for (const field of ['createdAt', 'paidAt', 'refundedAt', 'chargedbackAt', 'updatedAt'] as const) {
          expect(back[field], field).to.be.instanceOf(Date);
          expect(back[field]!.getTime(), field).to.equal(aFullOrder()[field]!.getTime());
        }
        expect(back.createdAt.toISOString()).to.equal('2026-01-02T03:04:05.123Z');
      });

      it('gives back a date sent with a timezone offset as the same instant', async () => {
        const order = anOrder().inDashboard('dsh_a').withExternalId('tz').createdAt('2026-01-02T00:30:00.250-03:00').build();
        await inserted(order);
        expect((await found('dsh_a', 'tz')).createdAt.toISOString()).to.equal('2026-01-02T03:30:00.250Z');
      });

      it('gives back the summary of a full order exactly through list: every field a list item shows', async () => {
        await inserted(aFullOrder());
        expect(await orders.list('dsh_a', { page: 1, pageSize: 20 })).to.deep.equal({
          orders: [
            {
              id: 'ord_full',
              externalId: 'full-1',
              status: 'chargedback',
              isTest: true,
              platform: 'plataforma-ção',
              paymentMethod: 'pix',
              createdAt: new Date('2026-01-02T03:04:05.123Z'),
              paidAt: new Date('2026-01-02T03:05:00.001Z'),
              refundedAt: new Date('2026-01-03T00:00:00.999Z'),
              chargedbackAt: new Date('2026-01-04T23:59:59.500Z'),
              amounts: { currency: 'USD', grossCents: MAX_CENTS, netToSellerCents: MAX_CENTS - 1 },
              tracking: { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'natal "2026"' },
            },
          ],
          total: 1,
        });
      });

      it('lists a full order with the summary keys and nothing else: no products, customer, fees, metadata, trackingExtras, version', async () => {
        await inserted(aFullOrder());
        const [listed] = (await orders.list('dsh_a', { page: 1, pageSize: 20 })).orders;
        expect(Object.keys(listed)).to.have.members([
          'id',
          'externalId',
          'status',
          'isTest',
          'platform',
          'paymentMethod',
          'createdAt',
          'paidAt',
          'refundedAt',
          'chargedbackAt',
          'amounts',
          'tracking',
        ]);
        expect(Object.keys(listed.amounts)).to.have.members(['currency', 'grossCents', 'netToSellerCents']);
        expect(Object.keys(listed.tracking)).to.have.members(['utmSource', 'utmMedium', 'utmCampaign']);
      });

      it('lists a minimal order without inventing optional dates', async () => {
        await inserted(aMinimalOrder());
        const [listed] = (await orders.list('dsh_a', { page: 1, pageSize: 20 })).orders;
        expect(listed).to.deep.equal(summaryOf(aMinimalOrder()));
        expect(listed).not.to.have.any.keys('paidAt', 'refundedAt', 'chargedbackAt');
      });
    });

    describe('replace', () => {
      it('writes the order when the stored version is the previous one, and resolves true', async () => {
        await inserted(aMinimalOrder());
        const next: Order = {
          ...aMinimalOrder(),
          status: 'paid',
          paidAt: new Date('2026-02-01T00:00:00.001Z'),
          metadata: { a: [1, null] },
          version: 2,
          updatedAt: new Date('2026-02-01T00:00:00.002Z'),
        };
        expect(await orders.replace(next, [])).to.equal(true);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(next);
      });

      it('accepts a chain of replaces, each from the version before', async () => {
        await inserted(aMinimalOrder());
        expect(await orders.replace({ ...aMinimalOrder(), metadata: { step: 2 }, version: 2 }, [])).to.equal(true);
        expect(await orders.replace({ ...aMinimalOrder(), metadata: { step: 3 }, version: 3 }, [])).to.equal(true);
        const back = await found('dsh_a', 'min-1');
        expect(back.version).to.equal(3);
        expect(back.metadata).to.deep.equal({ step: 3 });
      });

      it('can remove an optional field that the new order no longer has', async () => {
        await inserted({ ...aMinimalOrder(), metadata: { old: true } });
        const { metadata: _dropped, ...withoutMetadata } = { ...aMinimalOrder(), metadata: { old: true }, version: 2 };
        expect(await orders.replace(withoutMetadata, [])).to.equal(true);
        expect(await found('dsh_a', 'min-1')).not.to.have.property('metadata');
      });

      it('resolves false and writes nothing when the stored version is not the previous one', async () => {
        await inserted(aMinimalOrder());
        expect(await orders.replace({ ...aMinimalOrder(), status: 'paid', version: 1 }, [])).to.equal(false);
        expect(await orders.replace({ ...aMinimalOrder(), status: 'paid', version: 3 }, [])).to.equal(false);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(aMinimalOrder());
      });

      it('resolves false when another write got there first', async () => {
        await inserted(aMinimalOrder());
        expect(await orders.replace({ ...aMinimalOrder(), metadata: { by: 'first' }, version: 2 }, [])).to.equal(true);
        expect(await orders.replace({ ...aMinimalOrder(), metadata: { by: 'late' }, version: 2 }, [])).to.equal(false);
        expect((await found('dsh_a', 'min-1')).metadata).to.deep.equal({ by: 'first' });
      });

      it('resolves false and creates nothing when the order is not stored', async () => {
        expect(await orders.replace({ ...aMinimalOrder(), version: 2 }, [])).to.equal(false);
        expect(await orders.findByExternalId('dsh_a', 'min-1')).to.deep.equal(O.none);
        expect(await orders.list('dsh_a', { page: 1, pageSize: 100 })).to.deep.equal({ orders: [], total: 0 });
      });

      it("never writes over another dashboard's order with the same externalId", async () => {
        await inserted(aMinimalOrder());
        expect(await orders.replace({ ...aMinimalOrder(), dashboardId: 'dsh_b', version: 2 }, [])).to.equal(false);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(aMinimalOrder());
        expect(await orders.findByExternalId('dsh_b', 'min-1')).to.deep.equal(O.none);
      });

      // The races below rely on an atomic conditional update of one document: on a server that
      // checks an update's filter apart from its write (FerretDB 1.x), several replaces win and they
      // fail, as they must; nothing skips them.
      it('lets exactly one of two parallel replaces from the same version win (atomic conditional update)', async () => {
        await inserted(aMinimalOrder());
        const left: Order = { ...aMinimalOrder(), metadata: { writer: 'left' }, version: 2 };
        const right: Order = { ...aMinimalOrder(), metadata: { writer: 'right' }, version: 2 };
        const outcomes = await Promise.all([orders.replace(left, []), orders.replace(right, [])]);
        expect(outcomes.filter((won) => won)).to.have.lengthOf(1);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(outcomes[0] ? left : right);
      });

      it('lets exactly one of ten parallel replaces from the same version win (atomic conditional update)', async () => {
        await inserted(aMinimalOrder());
        const writers = Array.from({ length: 10 }, (_, i): Order => ({
          ...aMinimalOrder(),
          metadata: { writer: i },
          version: 2,
        }));
        const outcomes = await Promise.all(writers.map((order) => orders.replace(order, [])));
        expect(outcomes.filter((won) => won)).to.have.lengthOf(1);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(writers[outcomes.indexOf(true)]);
      });

      it('does not keep a reference to the order it was given', async () => {
        await inserted(aMinimalOrder());
        const next: Order = { ...aMinimalOrder(), metadata: { a: 1 }, version: 2 };
        expect(await orders.replace(next, [])).to.equal(true);
        scribbleOn(next);
        expect(await found('dsh_a', 'min-1')).to.deep.equal({ ...aMinimalOrder(), metadata: { a: 1 }, version: 2 });
      });
    });

    const contract: OrderContract = { orders: () => orders, found, inserted };
    orderOutboxContract(contract);
    orderListingContract(contract);
  });
};
