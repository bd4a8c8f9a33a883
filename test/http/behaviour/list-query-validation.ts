import { expect } from 'chai';
import { ORDERS, useApi, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';

/** Each bad query string and the detail paths it must produce (decisions 0002, 0005). */
const BAD_QUERIES: [string, string[]][] = [
  ['pageSize=0', ['query.pageSize']],
  ['pageSize=101', ['query.pageSize']],
  ['pageSize=abc', ['query.pageSize']],
  ['pageSize=1.5', ['query.pageSize']],
  ['pageSize=-1', ['query.pageSize']],
  ['pageSize=', ['query.pageSize']],
  ['pageSize=1e1', ['query.pageSize']],
  ['pageSize=10&pageSize=20', ['query.pageSize']],
  ['page=0', ['query.page']],
  ['page=-2', ['query.page']],
  ['page=abc', ['query.page']],
  ['page=1.5', ['query.page']],
  ['page=1&page=2', ['query.page']],
  ['status=shipped', ['query.status']],
  ['status=PAID', ['query.status']],
  ['status=paid&status=pending', ['query.status']],
  ['from=2026-01-02T03:04:05', ['query.from']],
  ['from=2026-01-02', ['query.from']],
  ['to=2026-02-30T00:00:00Z', ['query.to']],
  ['to=tomorrow', ['query.to']],
  ['foo=1', ['query.foo']],
  ['pagesize=10', ['query.pagesize']],
  ['page=0&pageSize=101&status=x&foo=1', ['query.page', 'query.pageSize', 'query.status', 'query.foo']],
];

/** GET /api/v1/orders refuses bad parameters instead of clamping or ignoring them. */
export const listQueryValidationBehaviour = (storageFactory: StorageFactory): void => {
  describe('GET /api/v1/orders: query validation', () => {
    const h = useApi(storageFactory);

    for (const [query, paths] of BAD_QUERIES) {
      it(`answers 400 VALIDATION_FAILED for ?${query} with details ${paths.join(', ')}`, async () => {
        expectInvalid(await h.api.request('GET', `${ORDERS}?${query}`, { token: h.token }), paths);
      });
    }

    it('answers 400 when from is later than to', async () => {
      const res = await h.api.request('GET', `${ORDERS}?from=2026-01-05T00:00:00Z&to=2026-01-04T23:59:59Z`, { token: h.token });
      const body = expectProblem(res, 400, 'VALIDATION_FAILED');
      for (const detail of body.details) expect(detail.path).to.be.oneOf(['query.from', 'query.to']);
    });

    it('compares from and to as instants when it checks their order', async () => {
      const query = new URLSearchParams({ from: '2026-01-05T01:00:00+02:00', to: '2026-01-04T23:30:00Z' });
      const res = await h.api.request('GET', `${ORDERS}?${query.toString()}`, { token: h.token });
      expect(res.status, res.text).to.equal(200);
    });

    it('accepts from equal to to', async () => {
      const res = await h.api.request('GET', `${ORDERS}?from=2026-01-05T00:00:00Z&to=2026-01-05T00:00:00Z`, { token: h.token });
      expect(res.status, res.text).to.equal(200);
    });

    it('ignores an Idempotency-Key on listing', async () => {
      const res = await h.api.request('GET', ORDERS, { token: h.token, headers: { 'idempotency-key': 'list-1' } });
      expect(res.status, res.text).to.equal(200);
    });
  });
};
