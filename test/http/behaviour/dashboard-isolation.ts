import { expect } from 'chai';
import { createOrder, listOrders, orderPath, postOrder, readOrder, useApi, type StorageFactory } from '../harness';
import { expectProblem } from '../problem-assertions';

/** Everything is scoped by the token's dashboard; another dashboard's order does not exist (decision 0004). */
export const dashboardIsolationBehaviour = (storageFactory: StorageFactory): void => {
  describe('dashboard isolation', () => {
    const h = useApi(storageFactory);
    let other: string;

    beforeEach(async () => {
      other = (await h.api.newDashboard('Other shop')).token;
    });

    it("never lists another dashboard's orders, nor counts them", async () => {
      await createOrder(h, { externalId: 'mine-1' });
      await createOrder(h, { externalId: 'mine-2', status: 'paid' });
      await createOrder(h, { externalId: 'theirs-1', status: 'paid' }, other);
      const mine = await listOrders(h);
      expect(mine.total).to.equal(2);
      expect(mine.orders.map((o: { externalId: string }) => o.externalId)).to.have.members(['mine-1', 'mine-2']);
      const theirs = await listOrders(h, '', other);
      expect(theirs.total).to.equal(1);
      expect(theirs.orders[0].externalId).to.equal('theirs-1');
      expect((await listOrders(h, '?status=paid')).total).to.equal(1);
    });

    it('allows the same externalId in two dashboards, as two different orders', async () => {
      const a = await createOrder(h, { externalId: 'shared', status: 'pending' });
      const b = await createOrder(h, { externalId: 'shared', status: 'paid' }, other);
      expect(a.id).not.to.equal(b.id);
      expect((await readOrder(h, 'shared')).status).to.equal('pending');
      expect((await readOrder(h, 'shared', other)).status).to.equal('paid');
      expectProblem(await postOrder(h, { externalId: 'shared' }), 409, 'DUPLICATE_EXTERNAL_ID');
    });

    it("answers GET of another dashboard's order exactly as before that order existed, but for requestId", async () => {
      const before = await h.api.request('GET', orderPath('theirs'), { token: h.token });
      await createOrder(h, { externalId: 'theirs' }, other);
      const after = await h.api.request('GET', orderPath('theirs'), { token: h.token });
      const beforeBody = expectProblem(before, 404, 'NOT_FOUND');
      const afterBody = expectProblem(after, 404, 'NOT_FOUND');
      expect(afterBody.requestId).not.to.equal(beforeBody.requestId);
      expect({ ...afterBody, requestId: 'x' }).to.deep.equal({ ...beforeBody, requestId: 'x' });
      expect(after.headers.get('content-type')).to.equal(before.headers.get('content-type'));
    });

    it("answers PATCH of another dashboard's order exactly as before that order existed, and changes nothing", async () => {
      const body = { metadata: { hijack: true } };
      const before = await h.api.request('PATCH', orderPath('theirs'), { token: h.token, body });
      await createOrder(h, { externalId: 'theirs', status: 'pending' }, other);
      const after = await h.api.request('PATCH', orderPath('theirs'), { token: h.token, body });
      const beforeBody = expectProblem(before, 404, 'NOT_FOUND');
      const afterBody = expectProblem(after, 404, 'NOT_FOUND');
      expect({ ...afterBody, requestId: 'x' }).to.deep.equal({ ...beforeBody, requestId: 'x' });
      expect((await readOrder(h, 'theirs', other)).status).to.equal('pending');
    });

    it("answers an unknown order and another dashboard's order alike", async () => {
      await createOrder(h, { externalId: 'theirs' }, other);
      const foreign = expectProblem(await h.api.request('GET', orderPath('theirs'), { token: h.token }), 404, 'NOT_FOUND');
      const unknown = expectProblem(await h.api.request('GET', orderPath('unknown'), { token: h.token }), 404, 'NOT_FOUND');
      expect(Object.keys(foreign)).to.deep.equal(Object.keys(unknown));
      expect(foreign.title).to.equal(unknown.title);
    });

    it("answers a status PATCH on another dashboard's order with 404, not 409", async () => {
      await createOrder(h, { externalId: 'theirs' }, other);
      const res = await h.api.request('PATCH', orderPath('theirs'), { token: h.token, body: { status: 'paid' } });
      expectProblem(res, 404, 'NOT_FOUND');
    });
  });
};
