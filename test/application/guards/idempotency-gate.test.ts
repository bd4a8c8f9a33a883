import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { InMemoryIdempotencyStore } from '../../../src/adapters/memory/guards/in-memory-idempotency-store';
import { InMemoryOrderRepository } from '../../../src/adapters/memory/orders/in-memory-order-repository';
import { CreateOrder } from '../../../src/application/orders/create-order';
import { IdempotencyGate } from '../../../src/application/guards/idempotency-gate';
import { CountingNudge } from '../../support/counting-nudge';
import { MutableClock } from '../../support/mutable-clock';
import { aNewOrder } from '../../support/order-builder';
import { SequenceIds } from '../../support/sequence-ids';

const LEASE_MS = 10_000;
const TTL_MS = 24 * 3600_000;
const created = { status: 201, headers: { location: '/api/v1/orders/A-1' }, body: { order: { id: 'ord_000001' } } };

describe('IdempotencyGate', () => {
  let clock: MutableClock;
  let gate: IdempotencyGate;
  const scope = { dashboardId: 'dsh_a', key: 'k-1' };

  beforeEach(() => {
    clock = new MutableClock('2026-03-01T12:00:00.000Z');
    gate = new IdempotencyGate(new InMemoryIdempotencyStore(), { ttlMs: TTL_MS, leaseMs: LEASE_MS }, new SequenceIds(), clock);
  });

  it('lets the first request execute with a reserved order id', async () => {
    const admission = await gate.admit(scope, 'fp-1');
    expect(admission).to.deep.include({ kind: 'execute' });
    if (admission.kind === 'execute') expect(admission.claim.reservedId).to.equal('ord_000001');
  });

  it('replays the stored response for the same request', async () => {
    const first = await gate.admit(scope, 'fp-1');
    if (first.kind !== 'execute') throw new Error('expected execute');
    expect(await gate.complete(scope, first.claim, created)).to.equal(true);
    expect(await gate.admit(scope, 'fp-1')).to.deep.equal({ kind: 'replay', response: created });
  });

  it('refuses the key for another request, completed or still running', async () => {
    const first = await gate.admit(scope, 'fp-1');
    if (first.kind !== 'execute') throw new Error('expected execute');
    expect(await gate.admit(scope, 'fp-2')).to.deep.equal({ kind: 'reused' });
    await gate.complete(scope, first.claim, created);
    expect(await gate.admit(scope, 'fp-2')).to.deep.equal({ kind: 'reused' });
  });

  it('answers in-progress while the first runs, with the seconds left on its lease', async () => {
    await gate.admit(scope, 'fp-1');
    clock.advance(2_500);
    expect(await gate.admit(scope, 'fp-1')).to.deep.equal({ kind: 'in-progress', retryAfterSeconds: 8 });
    clock.advance(7_400);
    expect(await gate.admit(scope, 'fp-1')).to.deep.equal({ kind: 'in-progress', retryAfterSeconds: 1 });
  });

  it('hands the key to a retry once the lease of a dead request has passed, with the same reserved id', async () => {
    const first = await gate.admit(scope, 'fp-1');
    if (first.kind !== 'execute') throw new Error('expected execute');
    clock.advance(LEASE_MS);
    const retry = await gate.admit(scope, 'fp-1');
    expect(retry.kind).to.equal('execute');
    if (retry.kind === 'execute') expect(retry.claim.reservedId).to.equal(first.claim.reservedId);
  });

  it('lets the key be used again after a release, as after a response that is not stored', async () => {
    const first = await gate.admit(scope, 'fp-1');
    if (first.kind !== 'execute') throw new Error('expected execute');
    await gate.release(scope, first.claim);
    expect((await gate.admit(scope, 'fp-2')).kind).to.equal('execute');
  });

  it('forgets a key after its TTL', async () => {
    const first = await gate.admit(scope, 'fp-1');
    if (first.kind !== 'execute') throw new Error('expected execute');
    await gate.complete(scope, first.claim, created);
    clock.advance(TTL_MS);
    expect((await gate.admit(scope, 'fp-2')).kind).to.equal('execute');
  });
});

describe('CreateOrder under an idempotency key', () => {
  it('answers a retry after a crash with the order its earlier attempt wrote', async () => {
    const orders = new InMemoryOrderRepository();
    const createOrder = new CreateOrder(orders, new SequenceIds(), new MutableClock(), new CountingNudge());
    const first = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'A-1' }), 'ord_reserved');
    expect(E.isRight(first) && first.right.id).to.equal('ord_reserved');
    const retry = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'A-1' }), 'ord_reserved');
    expect(retry).to.deep.equal(first);
  });

  it('still refuses an externalId taken by another order', async () => {
    const orders = new InMemoryOrderRepository();
    const createOrder = new CreateOrder(orders, new SequenceIds(), new MutableClock(), new CountingNudge());
    await createOrder.execute('dsh_a', aNewOrder({ externalId: 'A-1' }));
    const other = await createOrder.execute('dsh_a', aNewOrder({ externalId: 'A-1' }), 'ord_reserved');
    expect(other).to.deep.equal(E.left({ _tag: 'DuplicateExternalId', externalId: 'A-1' }));
  });
});
