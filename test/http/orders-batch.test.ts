import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { anOrderPayload } from '../support/order-builder';
import { ORDERS, useApi } from './harness';

const BATCH = '/api/v1/orders/batch';

describe('POST /api/v1/orders/batch (decision 0019)', () => {
  const h = useApi(async () => inMemoryStorage(), { config: { rateLimitMax: 20 } });

  it('answers each order as a single POST would: created, invalid with paths under orders.<i>, duplicate; and stores only the valid', async () => {
    expect((await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 'exists' }) })).status).to.equal(201);
    const res = await h.api.request('POST', BATCH, {
      token: h.token,
      body: {
        orders: [
          anOrderPayload({ externalId: 'b-1' }),
          anOrderPayload({ externalId: 'b-2', amounts: { currency: 'BRL', grossCents: -1, netToSellerCents: 0 } }),
          anOrderPayload({ externalId: 'exists', platform: 'woocommerce' }),
          anOrderPayload({ externalId: 'b-1' }),
          anOrderPayload({ externalId: 'b-3', status: 'paid' }),
        ],
      },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ created: 2, alreadyRecorded: 0, failed: 3 });
    expect(res.body.results.map((r: { index: number; status: number }) => [r.index, r.status])).to.deep.equal([
      [0, 201],
      [1, 400],
      [2, 409],
      [3, 409],
      [4, 201],
    ]);
    expect(res.body.results[0].order).to.include({ externalId: 'b-1', status: 'pending', isTest: false });
    expect(res.body.results[1].problem.code).to.equal('VALIDATION_FAILED');
    expect(res.body.results[1].problem.details.map((d: { path: string }) => d.path)).to.deep.equal(['orders.1.amounts.grossCents']);
    expect(res.body.results[2].problem.code).to.equal('DUPLICATE_EXTERNAL_ID');
    const listed = await h.api.request('GET', `${ORDERS}?pageSize=100`, { token: h.token });
    expect(listed.body.orders.map((o: { externalId: string }) => o.externalId).sort()).to.deep.equal(['b-1', 'b-3', 'exists']);
  });

  it('converges when sent again: the orders it stored are already recorded (200, their ids), the others are created', async () => {
    const orders = Array.from({ length: 6 }, (_, i) =>
      anOrderPayload({ externalId: `c-${i}`, status: i % 2 === 0 ? 'paid' : 'pending', metadata: { i, tags: ['a', 'b'] } }),
    );
    // Part of the batch stored, as a batch answered 503 midway leaves it.
    const first = await h.api.request('POST', BATCH, { token: h.token, body: { orders: orders.slice(0, 4) } });
    expect(first.body).to.include({ created: 4, alreadyRecorded: 0, failed: 0 });
    // The same orders again, their members in another order, as another client would serialize them.
    const again = orders.map((order) => Object.fromEntries(Object.entries(order).reverse()));
    const res = await h.api.request('POST', BATCH, { token: h.token, body: { orders: again } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ created: 2, alreadyRecorded: 4, failed: 0 });
    expect(res.body.results.map((r: { status: number }) => r.status)).to.deep.equal([200, 200, 200, 200, 201, 201]);
    expect(res.body.results.slice(0, 4).map((r: { order: unknown }) => r.order)).to.deep.equal(
      first.body.results.map((r: { order: unknown }) => r.order),
    );
    const listed = await h.api.request('GET', `${ORDERS}?pageSize=100`, { token: h.token });
    expect(listed.body.total).to.equal(6);
  });

  it('keeps a 409 for another order under a stored externalId, and for one that changed since it was stored', async () => {
    const order = anOrderPayload({ externalId: 'kept', metadata: { note: 'gift' } });
    expect((await h.api.request('POST', BATCH, { token: h.token, body: { orders: [order] } })).body.created).to.equal(1);
    const patched = anOrderPayload({ externalId: 'patched' });
    expect((await h.api.request('POST', ORDERS, { token: h.token, body: patched })).status).to.equal(201);
    const patch = await h.api.request('PATCH', `${ORDERS}/patched`, { token: h.token, body: { metadata: { note: 'later' } } });
    expect(patch.status, patch.text).to.equal(200);
    const res = await h.api.request('POST', BATCH, {
      token: h.token,
      body: { orders: [{ ...order, amounts: { currency: 'BRL', grossCents: 10_001, netToSellerCents: 9_000 } }, patched] },
    });
    expect(res.body.results.map((r: { status: number }) => r.status)).to.deep.equal([409, 409]);
    expect(res.body.results.map((r: { problem: { code: string } }) => r.problem.code)).to.deep.equal(
      Array(2).fill('DUPLICATE_EXTERNAL_ID'),
    );
    expect(res.body).to.include({ created: 0, alreadyRecorded: 0, failed: 2 });
    const more = await h.api.request('POST', BATCH, {
      token: h.token,
      body: { orders: [{ ...order, metadata: { note: 'gift', more: true } }] },
    });
    expect(more.body.results[0].status).to.equal(409);
    // Given twice in one batch, the externalId is answered once, the later ones 409 as always.
    const twice = await h.api.request('POST', BATCH, { token: h.token, body: { orders: [order, order] } });
    expect(twice.body.results.map((r: { status: number }) => r.status)).to.deep.equal([200, 409]);
  });

  it('counts each order against the rate limit, and refuses whole a batch larger than what is left', async () => {
    const tooMany = await h.api.request('POST', BATCH, {
      token: h.token,
      body: { orders: Array.from({ length: 21 }, (_, i) => anOrderPayload({ externalId: `t-${i}` })) },
    });
    expect(tooMany.status).to.equal(429);
    expect((await h.api.request('GET', `${ORDERS}`, { token: h.token })).body.total).to.equal(0);
    const fits = await h.api.request('POST', BATCH, {
      token: h.token,
      body: { orders: Array.from({ length: 18 }, (_, i) => anOrderPayload({ externalId: `f-${i}` })) },
    });
    expect(fits.status, 'the refused batch was given back').to.equal(200);
    expect(
      (
        await h.api.request('POST', BATCH, {
          token: h.token,
          body: { orders: [anOrderPayload({ externalId: 'one-more' }), anOrderPayload({ externalId: 'two-more' })] },
        })
      ).status,
    ).to.equal(429);
  });

  it('replays the whole answer under the same Idempotency-Key, and refuses an empty or oversized batch', async () => {
    const body = { orders: [anOrderPayload({ externalId: 'k-1' })] };
    const first = await h.api.request('POST', BATCH, { token: h.token, body, headers: { 'Idempotency-Key': 'batch-key' } });
    const again = await h.api.request('POST', BATCH, { token: h.token, body, headers: { 'Idempotency-Key': 'batch-key' } });
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    const empty = await h.api.request('POST', BATCH, { token: h.token, body: { orders: [] } });
    expect(empty.status).to.equal(400);
    expect(empty.body.details).to.deep.equal([{ path: 'orders', message: 'must be an array of 1 to 500 orders' }]);
  });
});
