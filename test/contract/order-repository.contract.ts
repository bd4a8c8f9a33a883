import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { summaryOf, type OrderEvent, type OrderRepository, type OrderSummary } from '../../src/application/ports/order-repository';
import { MAX_CENTS } from '../../src/domain/money';
import type { Order } from '../../src/domain/order';
import type { OrderEventType } from '../../src/domain/order-events';
import type { OrderStatus } from '../../src/domain/order-status';
import { anOrder } from '../support/order-builder';

/** What a careless caller might do to an object it got back: write through it. */
interface Scribbled {
  status: string;
  metadata?: Record<string, unknown>;
  products: Array<{ name: string }>;
  createdAt: Date;
  amounts: { grossCents: number };
}
const scribbleOn = (order: Order): void => {
  const target = order as unknown as Scribbled;
  target.status = 'refused';
  target.metadata = { scribbled: true };
  target.products[0].name = 'scribbled';
  target.createdAt.setTime(0);
  target.amounts.grossCents = 1;
};

/** The same, through a listing's summary: no products to write through. */
const scribbleOnSummary = (summary: OrderSummary): void => {
  const target = summary as unknown as Omit<Scribbled, 'products'>;
  target.status = 'refused';
  target.createdAt.setTime(0);
  target.amounts.grossCents = 1;
};

/** An order that uses every field, with awkward values: ms dates, the money ceiling, nested free-form data. */
const aFullOrder = (): Order =>
  anOrder()
    .inDashboard('dsh_a')
    .with({
      id: 'ord_full',
      externalId: 'full-1',
      platform: 'plataforma-ção',
      paymentMethod: 'pix',
      status: 'chargedback',
      isTest: true,
      createdAt: new Date('2026-01-02T03:04:05.123Z'),
      paidAt: new Date('2026-01-02T03:05:00.001Z'),
      refundedAt: new Date('2026-01-03T00:00:00.999Z'),
      chargedbackAt: new Date('2026-01-04T23:59:59.500Z'),
      amounts: {
        currency: 'USD',
        grossCents: MAX_CENTS,
        netToSellerCents: MAX_CENTS - 1,
        discountCents: 0,
        shippingCents: 1,
        taxesCents: 123_456_789,
        totalFeesCents: 42,
      },
      products: [
        { externalId: 'p-1', sku: 'SKU-1', name: 'Camiseta 👕', quantity: 1, unitPriceCents: 0 },
        { name: 'No ids', quantity: 500, unitPriceCents: MAX_CENTS },
        { sku: 'only-sku', name: 'Only sku', quantity: 3, unitPriceCents: 7 },
      ],
      tracking: { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'natal "2026"' },
      customer: {
        name: 'Zoë',
        email: 'zoe@example.com',
        document: null,
        tags: ['vip', 'b2b'],
        address: { city: 'São Paulo', lines: ['a', { n: 1 }] },
      },
      fees: { gateway: 199, percent: 3.99, negative: -5, items: [] },
      metadata: {
        empty: {},
        list: [1, 'two', null, true, false, [3, [4]], { deep: { deeper: { deepest: 'x' } } }],
        nil: null,
        bool: false,
        zero: 0,
      },
      trackingExtras: { fbclid: 'abc', gclid: null, nested: { utm_content: ['a', 'b'], utm_term: { k: 'v' } } },
      version: 7,
      updatedAt: new Date('2026-02-03T04:05:06.789Z'),
    })
    .build();

/** The order with only the fields every order has. */
const aMinimalOrder = (): Order => anOrder().inDashboard('dsh_a').with({ id: 'ord_min', externalId: 'min-1' }).build();

/** An event as a use case would store it, about `order` as it stands after the change. */
const anEvent = (id: string, type: OrderEventType, order: Order, previousStatus?: OrderStatus): OrderEvent => ({
  id,
  type,
  occurredAt: new Date(order.updatedAt),
  order,
  ...(previousStatus === undefined ? {} : { previousStatus }),
});

/** What a careless caller might do to events it gave or got back: write through them. */
const scribbleOnEvents = (events: readonly OrderEvent[]): void => {
  for (const event of events) {
    const target = event as unknown as { type: string; occurredAt: Date };
    target.type = 'order.refused';
    target.occurredAt.setTime(0);
    scribbleOn(event.order);
  }
};

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

    describe('outbox', () => {
      const created = (order: Order): OrderEvent[] => [anEvent('evt_c1', 'order.created', order)];
      /** The minimal order, changed to version 2 by `writer`, and the events of that change. */
      const secondVersion = (writer: string): { order: Order; events: OrderEvent[] } => {
        const order: Order = {
          ...aMinimalOrder(),
          status: 'paid',
          paidAt: new Date('2026-02-01T00:00:00.001Z'),
          metadata: { writer },
          version: 2,
          updatedAt: new Date('2026-02-01T00:00:00.002Z'),
        };
        return {
          order,
          events: [
            anEvent(`evt_${writer}_u`, 'order.updated', order, 'pending'),
            anEvent(`evt_${writer}_p`, 'order.paid', order, 'pending'),
          ],
        };
      };

      it("resolves [] for an order stored without events, an unknown order and another dashboard's order", async () => {
        await inserted(aMinimalOrder());
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([]);
        expect(await orders.outboxOf('dsh_a', 'missing')).to.deep.equal([]);
        const inB: Order = { ...aMinimalOrder(), id: 'ord_b', dashboardId: 'dsh_b' };
        await orders.insert(inB, created(inB));
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([]);
        expect(await orders.outboxOf('dsh_b', 'min-1')).to.deep.equal(created(inB));
        expect(await orders.outboxOf('dsh_c', 'min-1')).to.deep.equal([]);
      });

      it('holds the events given to insert, in their order, exactly: the full order in each, previousStatus only where given', async () => {
        const order = aFullOrder();
        const events = [
          anEvent('evt_1', 'order.created', order),
          anEvent('evt_2', 'order.chargedback', order),
          { ...anEvent('evt_3', 'order.updated', order, 'paid'), occurredAt: new Date('2026-02-03T04:05:06.001Z') },
        ];
        expect(await orders.insert(order, events)).to.deep.equal(E.right(order));
        const outbox = await orders.outboxOf('dsh_a', 'full-1');
        expect(outbox).to.deep.equal(events);
        expect(outbox[0]).not.to.have.property('previousStatus');
        expect(outbox[2].occurredAt.toISOString()).to.equal('2026-02-03T04:05:06.001Z');
      });

      it('gives back a minimal order in an event without inventing optional fields', async () => {
        await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
        const [event] = await orders.outboxOf('dsh_a', 'min-1');
        expect(event.order).to.deep.equal(aMinimalOrder());
        expect(event.order).not.to.have.any.keys('paidAt', 'refundedAt', 'chargedbackAt', 'customer', 'fees', 'metadata', 'trackingExtras');
      });

      it("keeps the outbox out of the order: find gives the order alone, list the order's summary alone", async () => {
        await orders.insert(aFullOrder(), created(aFullOrder()));
        expect(await found('dsh_a', 'full-1')).to.deep.equal(aFullOrder());
        expect(await orders.list('dsh_a', { page: 1, pageSize: 20 })).to.deep.equal({ orders: [summaryOf(aFullOrder())], total: 1 });
      });

      it('appends the events given to replace after those already there, with the new order', async () => {
        await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
        const second = secondVersion('one');
        expect(await orders.replace(second.order, second.events)).to.equal(true);
        const third: Order = { ...second.order, metadata: { writer: 'two' }, version: 3 };
        expect(await orders.replace(third, [anEvent('evt_3', 'order.updated', third)])).to.equal(true);
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([
          ...created(aMinimalOrder()),
          ...second.events,
          anEvent('evt_3', 'order.updated', third),
        ]);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(third);
      });

      it('keeps the outbox as it was when replace is given no events', async () => {
        await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
        expect(await orders.replace({ ...aMinimalOrder(), metadata: { a: 1 }, version: 2 }, [])).to.equal(true);
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal(created(aMinimalOrder()));
      });

      it('stores no event when replace loses: a stale version, a version too far, an order gone or of another dashboard', async () => {
        await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
        const { order, events } = secondVersion('late');
        expect(await orders.replace({ ...order, version: 1 }, events)).to.equal(false);
        expect(await orders.replace({ ...order, version: 3 }, events)).to.equal(false);
        expect(await orders.replace({ ...order, dashboardId: 'dsh_b' }, events)).to.equal(false);
        expect(await orders.replace({ ...order, id: 'ord_other', externalId: 'other' }, events)).to.equal(false);
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal(created(aMinimalOrder()));
        expect(await orders.outboxOf('dsh_b', 'min-1')).to.deep.equal([]);
        expect(await orders.outboxOf('dsh_a', 'other')).to.deep.equal([]);
      });

      it('stores no event of a replace that another write beat to the version', async () => {
        await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
        const first = secondVersion('first');
        const late = secondVersion('late');
        expect(await orders.replace(first.order, first.events)).to.equal(true);
        expect(await orders.replace(late.order, late.events)).to.equal(false);
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([...created(aMinimalOrder()), ...first.events]);
      });

      it("stores no event of a duplicate insert, and keeps the first order's outbox", async () => {
        const first = anOrder().inDashboard('dsh_a').withExternalId('dup').with({ platform: 'first' }).build();
        const second = anOrder().inDashboard('dsh_a').withExternalId('dup').with({ platform: 'second' }).build();
        await orders.insert(first, [anEvent('evt_first', 'order.created', first)]);
        expect(E.isLeft(await orders.insert(second, [anEvent('evt_second', 'order.created', second)]))).to.equal(true);
        expect(await orders.outboxOf('dsh_a', 'dup')).to.deep.equal([anEvent('evt_first', 'order.created', first)]);
      });

      it("holds exactly the winner's events after 20 parallel inserts of one externalId", async () => {
        const candidates = Array.from({ length: 20 }, (_, i) =>
          anOrder()
            .inDashboard('dsh_a')
            .withExternalId('race')
            .with({ platform: `p${i}` })
            .build(),
        );
        const results = await Promise.all(
          candidates.map((order, i) => orders.insert(order, [anEvent(`evt_${i}`, 'order.created', order)])),
        );
        const winner = results.findIndex(E.isRight);
        expect(results.filter(E.isRight)).to.have.lengthOf(1);
        expect(await orders.outboxOf('dsh_a', 'race')).to.deep.equal([anEvent(`evt_${winner}`, 'order.created', candidates[winner])]);
      });

      it("holds exactly the winner's events after ten parallel replaces from the same version (atomic conditional update)", async () => {
        await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
        const writers = Array.from({ length: 10 }, (_, i) => secondVersion(`w${i}`));
        const outcomes = await Promise.all(writers.map(({ order, events }) => orders.replace(order, events)));
        expect(outcomes.filter((won) => won)).to.have.lengthOf(1);
        const winner = writers[outcomes.indexOf(true)];
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([...created(aMinimalOrder()), ...winner.events]);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(winner.order);
      });

      it('gives copies: changing the events read changes nothing stored', async () => {
        await orders.insert(aMinimalOrder(), created(aMinimalOrder()));
        scribbleOnEvents(await orders.outboxOf('dsh_a', 'min-1'));
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal(created(aMinimalOrder()));
      });

      it('keeps no reference to the events it was given, by insert or by replace', async () => {
        const given = created(aMinimalOrder());
        await orders.insert(aMinimalOrder(), given);
        scribbleOnEvents(given);
        const second = secondVersion('one');
        expect(await orders.replace(second.order, second.events)).to.equal(true);
        scribbleOnEvents(second.events);
        expect(await orders.outboxOf('dsh_a', 'min-1')).to.deep.equal([...created(aMinimalOrder()), ...secondVersion('one').events]);
      });
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

      it('does not share listed orders with the store', async () => {
        await inserted(aMinimalOrder());
        const page = await orders.list('dsh_a', { page: 1, pageSize: 20 });
        scribbleOnSummary(page.orders[0]);
        expect(await found('dsh_a', 'min-1')).to.deep.equal(aMinimalOrder());
        expect((await orders.list('dsh_a', { page: 1, pageSize: 20 })).orders).to.deep.equal([summaryOf(aMinimalOrder())]);
      });
    });
  });
};
