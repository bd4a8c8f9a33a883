import { expect } from 'chai';
import { createOrder, orderPath, readListItem, readOrder, useApi, type Harness, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';

const patch = (h: Harness, externalId: string, body: unknown) => h.api.request('PATCH', orderPath(externalId), { token: h.token, body });

/** PATCH /api/v1/orders/{externalId} (decisions 0004, 0006). */
export const updateOrderBehaviour = (storageFactory: StorageFactory): void => {
  describe('PATCH /api/v1/orders/{externalId} without a transition table', () => {
    const h = useApi(storageFactory);

    it('answers 200 { order: <list item> } for a metadata change', async () => {
      const created = await createOrder(h, { externalId: 'm-1' });
      const res = await patch(h, 'm-1', { metadata: { note: 'checked' } });
      expect(res.status, res.text).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['order']);
      expect(res.body.order).to.deep.equal(await readListItem(h, 'm-1'));
      expect((await readOrder(h, 'm-1')).metadata).to.deep.equal({ note: 'checked' });
      expect(res.body.order).to.deep.include({
        id: created.id,
        externalId: 'm-1',
        status: 'pending',
        createdAt: '2026-01-02T03:04:05.000Z',
      });
    });

    it('refuses every status change with 409 INVALID_TRANSITION and changes nothing', async () => {
      await createOrder(h, { externalId: 't-1', status: 'pending' });
      for (const status of ['paid', 'refused', 'refunded', 'chargedback']) {
        expectProblem(await patch(h, 't-1', { status }), 409, 'INVALID_TRANSITION');
      }
      expectProblem(await patch(h, 't-1', { status: 'paid', metadata: { a: 1 } }), 409, 'INVALID_TRANSITION');
      const item = await readOrder(h, 't-1');
      expect(item.status).to.equal('pending');
      expect(item).not.to.have.property('paidAt');
    });

    it('treats setting the current status again as a 200 no-op', async () => {
      await createOrder(h, { externalId: 'same', status: 'paid' });
      const before = await readListItem(h, 'same');
      const res = await patch(h, 'same', { status: 'paid' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.order).to.deep.equal(before);
    });

    it('shows the version on GET: 1 after creation, 2 after a PATCH that changed something, still 2 after one that did not', async () => {
      await createOrder(h, { externalId: 'ver', status: 'paid' });
      expect((await readOrder(h, 'ver')).version).to.equal(1);
      expect((await patch(h, 'ver', { metadata: { a: [1, { b: 2 }] } })).status).to.equal(200);
      const changed = await readOrder(h, 'ver');
      expect(changed.version).to.equal(2);
      const noOps = [
        { status: 'paid' },
        { metadata: { a: [1, { b: 2 }] } },
        { status: 'paid', paidAt: changed.paidAt, metadata: { a: [1, { b: 2 }] } },
      ];
      for (const body of noOps) {
        const res = await patch(h, 'ver', body);
        expect(res.status, res.text).to.equal(200);
        expect(await readOrder(h, 'ver')).to.deep.equal(changed);
      }
    });

    it('updates paidAt, refundedAt and chargedbackAt given as dates', async () => {
      await createOrder(h, { externalId: 'dates', status: 'paid' });
      const res = await patch(h, 'dates', { paidAt: '2026-01-05T10:00:00-03:00', status: 'paid' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.order.paidAt).to.equal('2026-01-05T13:00:00.000Z');
    });

    // Relies on an atomic conditional update of the order document: on a server that checks the
    // filter apart from the write, two PATCHes from one version both answer 200 and the version
    // falls short of 51 (a lost write).
    it('answers 200 to each of 50 concurrent PATCHes of one order and counts every one in the version (atomic conditional update)', async () => {
      await createOrder(h, { externalId: 'storm' });
      const writers = Array.from({ length: 50 }, (_, i) => i);
      const results = await Promise.all(writers.map((i) => patch(h, 'storm', { metadata: { writer: i } })));
      for (const res of results) expect(res.status, res.text).to.equal(200);
      const stored = await readOrder(h, 'storm');
      expect(stored.version).to.equal(1 + writers.length);
      expect(writers).to.include(stored.metadata.writer);
    });

    it('answers 404 NOT_FOUND for an unknown externalId', async () => {
      expectProblem(await patch(h, 'nope', { metadata: {} }), 404, 'NOT_FOUND');
    });

    it('answers 400 for an empty body {}', async () => {
      await createOrder(h, { externalId: 'e-1' });
      expectProblem(await patch(h, 'e-1', {}), 400, 'VALIDATION_FAILED');
    });

    it('rejects unknown fields and fields that cannot be patched', async () => {
      await createOrder(h, { externalId: 'u-1' });
      expectInvalid(await patch(h, 'u-1', { foo: 1 }), ['foo']);
      expectInvalid(await patch(h, 'u-1', { metadata: {}, externalId: 'other' }), ['externalId']);
      expectInvalid(await patch(h, 'u-1', { amounts: { grossCents: 1 } }), ['amounts']);
    });

    it('validates the fields it accepts', async () => {
      await createOrder(h, { externalId: 'v-1' });
      expectInvalid(await patch(h, 'v-1', { status: 'shipped' }), ['status']);
      expectInvalid(await patch(h, 'v-1', { paidAt: '2026-01-05T10:00:00' }), ['paidAt']);
      expectInvalid(await patch(h, 'v-1', { refundedAt: '2026-02-30T10:00:00Z' }), ['refundedAt']);
      expectInvalid(await patch(h, 'v-1', { metadata: null }), ['metadata']);
      expectInvalid(await patch(h, 'v-1', { metadata: ['a'] }), ['metadata']);
    });

    it('answers MALFORMED_JSON and 415 like creation does', async () => {
      await createOrder(h, { externalId: 'j-1' });
      const broken = await h.api.request('PATCH', orderPath('j-1'), {
        token: h.token,
        rawBody: '{"status":',
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(broken, 400, 'MALFORMED_JSON');
      const text = await h.api.request('PATCH', orderPath('j-1'), {
        token: h.token,
        rawBody: 'status=paid',
        headers: { 'content-type': 'text/plain' },
      });
      expectProblem(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });

  describe('PATCH /api/v1/orders/{externalId} with the table { pending: [paid] }', () => {
    const h = useApi(storageFactory, { config: { transitions: { pending: ['paid'] } }, clock: true });

    it('moves pending to paid and sets paidAt to the time of the update', async () => {
      await createOrder(h, { externalId: 'flow', status: 'pending' });
      h.clock.set('2026-03-05T10:20:30.456Z');
      const res = await patch(h, 'flow', { status: 'paid' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.order).to.deep.include({ status: 'paid', paidAt: '2026-03-05T10:20:30.456Z' });
      expect(await readOrder(h, 'flow')).to.deep.include({ status: 'paid', paidAt: '2026-03-05T10:20:30.456Z' });
    });

    it('keeps the paidAt sent with the change', async () => {
      await createOrder(h, { externalId: 'flow-at', status: 'pending' });
      const res = await patch(h, 'flow-at', { status: 'paid', paidAt: '2026-01-03T00:00:00Z' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.order.paidAt).to.equal('2026-01-03T00:00:00.000Z');
    });

    it('refuses paid to pending and pending to anything but paid', async () => {
      await createOrder(h, { externalId: 'back', status: 'paid' });
      expectProblem(await patch(h, 'back', { status: 'pending' }), 409, 'INVALID_TRANSITION');
      expect((await readOrder(h, 'back')).status).to.equal('paid');
      await createOrder(h, { externalId: 'side', status: 'pending' });
      expectProblem(await patch(h, 'side', { status: 'refunded' }), 409, 'INVALID_TRANSITION');
      expect((await readOrder(h, 'side')).status).to.equal('pending');
    });

    it('keeps the first paidAt when paid is set again on a paid order', async () => {
      await createOrder(h, { externalId: 'twice', status: 'pending' });
      h.clock.set('2026-03-05T10:00:00.000Z');
      expect((await patch(h, 'twice', { status: 'paid' })).status).to.equal(200);
      h.clock.set('2026-03-06T10:00:00.000Z');
      const again = await patch(h, 'twice', { status: 'paid' });
      expect(again.status, again.text).to.equal(200);
      expect(again.body.order.paidAt).to.equal('2026-03-05T10:00:00.000Z');
    });
  });

  describe('PATCH /api/v1/orders/{externalId} with a fuller table', () => {
    const table = { pending: ['paid', 'refused'], paid: ['refunded', 'chargedback'] } as const;
    const h = useApi(storageFactory, { config: { transitions: table }, clock: true });

    it('sets refundedAt and chargedbackAt to the time of the update, keeping paidAt', async () => {
      await createOrder(h, { externalId: 'r', status: 'paid' });
      h.clock.set('2026-04-01T00:00:00.000Z');
      const refunded = await patch(h, 'r', { status: 'refunded' });
      expect(refunded.status, refunded.text).to.equal(200);
      expect(refunded.body.order).to.deep.include({ paidAt: '2026-01-02T03:04:05.000Z', refundedAt: '2026-04-01T00:00:00.000Z' });
      await createOrder(h, { externalId: 'c', status: 'paid' });
      h.clock.set('2026-04-02T00:00:00.000Z');
      expect((await patch(h, 'c', { status: 'chargedback' })).body.order.chargedbackAt).to.equal('2026-04-02T00:00:00.000Z');
    });

    it('decides concurrent status changes on the stored status: one wins, the rest follow from it', async () => {
      await createOrder(h, { externalId: 'race', status: 'pending' });
      const wanted = ['paid', 'refused', 'paid', 'refused', 'paid', 'refused'];
      const results = await Promise.all(wanted.map((status) => patch(h, 'race', { status })));
      const final = (await readOrder(h, 'race')).status;
      expect(final).to.be.oneOf(['paid', 'refused']);
      results.forEach((res, i) => {
        if (wanted[i] === final) expect(res.status, res.text).to.equal(200);
        else expectProblem(res, 409, 'INVALID_TRANSITION');
      });
    });
  });
};
