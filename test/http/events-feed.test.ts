import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import { eventually } from '../support/webhook-receiver';
import { createOrder, orderPath, useApi } from './harness';

const EVENTS = '/api/v1/events';

describe('GET /api/v1/events (decision 0019)', () => {
  const h = useApi(async () => inMemoryStorage(), { config: { transitions: { pending: ['paid'] } } });

  it('lists each order event once, oldest first, as its webhook body, page after page with after', async () => {
    await createOrder(h, { externalId: 'e-1' });
    await createOrder(h, { externalId: 'e-2' });
    expect((await h.api.request('PATCH', orderPath('e-1'), { token: h.token, body: { status: 'paid' } })).status).to.equal(200);
    const all = await eventually('the four events in the feed', async () => {
      const res = await h.api.request('GET', EVENTS, { token: h.token });
      return res.body.events.length === 4 ? res.body : undefined;
    });
    expect(all.hasMore).to.equal(false);
    expect(
      all.events.map((e: { type: string; data: { order: { externalId: string; version: number } } }) => [
        e.type,
        e.data.order.externalId,
        e.data.order.version,
      ]),
    ).to.deep.equal([
      ['order.created', 'e-1', 1],
      ['order.created', 'e-2', 1],
      ['order.updated', 'e-1', 2],
      ['order.paid', 'e-1', 2],
    ]);
    expect(all.events[0]).to.have.keys(['id', 'type', 'timestamp', 'data']);
    const first = await h.api.request('GET', `${EVENTS}?limit=2`, { token: h.token });
    expect(first.body.hasMore).to.equal(true);
    const rest = await h.api.request('GET', `${EVENTS}?after=${first.body.events[1].id}`, { token: h.token });
    expect(rest.body.events.map((e: { id: string }) => e.id)).to.deep.equal(all.events.slice(2).map((e: { id: string }) => e.id));
    const paid = await h.api.request('GET', `${EVENTS}?type=order.paid`, { token: h.token });
    expect(paid.body.events.map((e: { type: string }) => e.type)).to.deep.equal(['order.paid']);
  });

  it('refuses an `after` that is no event of the dashboard, and bad limits and types, all at once', async () => {
    const res = await h.api.request('GET', `${EVENTS}?after=evt_unknown`, { token: h.token });
    expect(res.status).to.equal(400);
    expect(res.body.details).to.deep.equal([
      { path: 'query.after', message: "must be the id of an event of this dashboard's feed of the last 30 days" },
    ]);
    const bad = await h.api.request('GET', `${EVENTS}?limit=0&type=order.lost`, { token: h.token });
    expect(bad.body.details.map((d: { path: string }) => d.path)).to.deep.equal(['query.type', 'query.limit']);
  });
});
