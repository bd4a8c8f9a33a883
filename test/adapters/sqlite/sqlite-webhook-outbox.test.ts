import { expect } from 'chai';
import type { SqliteDatabase } from '../../../src/adapters/sqlite/sqlite-database';
import type { Storage } from '../../../src/application/ports/storage';
import type { Order } from '../../../src/domain/order';
import { anOrder } from '../../support/order-builder';
import { RELAY_WRITE_ENTRIES, RELAY_WRITE_ROWS } from '../../../src/adapters/sqlite/webhooks/sqlite-webhook-outbox';
import { temporarySqliteDatabase } from '../../support/sqlite-files';
import { aDelivery } from '../../support/webhook-builders';

const created = (order: Order, id: string) => ({ id, type: 'order.created' as const, occurredAt: order.updatedAt, order });

/** The SQLite outbox takes the relays of one turn of the event loop together, in one write. */
describe('SQLite webhook outbox', () => {
  let db: SqliteDatabase;
  let storage: Storage;
  let close: () => Promise<void>;

  beforeEach(() => ({ db, storage, close } = temporarySqliteDatabase()));
  afterEach(() => close());

  it('relays the entries of one turn in one write, failing alone the one whose deliveries cannot be stored', async () => {
    const orders = ['a', 'b', 'c'].map((x) =>
      anOrder()
        .with({ id: `ord_${x}`, externalId: x })
        .build(),
    );
    for (const order of orders) await storage.orders.insert(order, [created(order, `evt_${order.externalId}`)]);
    await storage.deliveries.insert(aDelivery('dlv_taken', { eventId: 'evt_other' }));
    const entries = await storage.outbox.pending(100);
    expect(entries.map((entry) => entry.orderId)).to.deep.equal(['ord_a', 'ord_b', 'ord_c']);
    const before = db.groupCommitStats();

    const outcomes = await Promise.allSettled([
      storage.outbox.relay(entries[0], [aDelivery('dlv_a', { eventId: 'evt_a' })]),
      storage.outbox.relay(entries[1], [aDelivery('dlv_taken', { eventId: 'evt_b' })]),
      storage.outbox.relay(entries[2], []),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(((outcomes[1] as PromiseRejectedResult).reason as { code?: string }).code).to.equal('SQLITE_CONSTRAINT_UNIQUE');
    expect(db.groupCommitStats()).to.deep.include({ commits: before.commits + 1, writes: before.writes + 1 });
    expect((await storage.outbox.pending(100)).map((entry) => entry.orderId)).to.deep.equal(['ord_b']);
    const feed = await storage.events.list('dsh_a', { limit: 10, now: new Date() });
    expect(feed?.events.map((event) => event.id)).to.deep.equal(['evt_a', 'evt_c']);
    const deliveries = await storage.deliveries.list('dsh_a', 'whk_1', { page: 1, pageSize: 10 });
    expect(deliveries.deliveries.map((delivery) => delivery.id)).to.deep.equal(['dlv_taken', 'dlv_a']);
  });

  /** `count` orders with an event each in the outbox; their entries as `pending` reads them. */
  const outboxOf = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const order = anOrder()
        .with({ id: `ord_${i}`, externalId: `x${i}` })
        .build();
      await storage.orders.insert(order, [created(order, `evt_${i}`)]);
    }
    return storage.outbox.pending(1_000);
  };

  it(`writes the relays of one turn ${RELAY_WRITE_ENTRIES} orders at a time, each answered once its write committed`, async () => {
    const entries = await outboxOf(RELAY_WRITE_ENTRIES + 10);
    const before = db.groupCommitStats();
    await Promise.all(entries.map((entry) => storage.outbox.relay(entry, [])));
    expect(db.groupCommitStats()).to.deep.include({ commits: before.commits + 2, writes: before.writes + 2 });
    expect(await storage.outbox.pending(1_000)).to.deep.equal([]);
    expect((await storage.events.list('dsh_a', { limit: 100, now: new Date() }))?.events).to.have.length(RELAY_WRITE_ENTRIES + 10);
  });

  it(`stops taking relays into a write once they reach ${RELAY_WRITE_ROWS} deliveries`, async () => {
    const perOrder = RELAY_WRITE_ROWS / 4;
    const entries = await outboxOf(5);
    const before = db.groupCommitStats();
    await Promise.all(
      entries.map((entry, i) =>
        storage.outbox.relay(
          entry,
          Array.from({ length: perOrder }, (_, n) => aDelivery(`dlv_${i}_${n}`, { eventId: `evt_${i}`, endpointId: `whk_${n}` })),
        ),
      ),
    );
    // 4 orders of 25 deliveries reach 100: the fifth goes in a write of its own.
    expect(db.groupCommitStats()).to.deep.include({ commits: before.commits + 2, writes: before.writes + 2 });
    const stored = await Promise.all(
      Array.from({ length: perOrder }, (_, n) => storage.deliveries.list('dsh_a', `whk_${n}`, { page: 1, pageSize: 10 })),
    );
    expect(stored.reduce((sum, page) => sum + page.total, 0)).to.equal(5 * perOrder);
  });
});
