import { expect } from 'chai';
import { anOrderPayload } from '../../support/order-builder';
import { ORDERS, useApi, type StorageFactory } from '../harness';
import { expectInvalid, expectProblem } from '../problem-assertions';

const BREAKDOWN = '/api/v1/reports/breakdown';
const TIMESERIES = '/api/v1/reports/timeseries';
const SPEND = '/api/v1/spend';
const RANGE = 'from=2026-03-01T00:00:00Z&to=2026-03-31T23:59:59.999Z';

const anEntry = (changes: Record<string, unknown> = {}) => ({
  date: '2026-03-10',
  utmSource: 'google',
  utmCampaign: 'launch',
  currency: 'BRL',
  amountCents: 10_000,
  ...changes,
});

/** Reports, spend and the dashboard's time zone over HTTP (decision 0016), on every store. */
export const reportsBehaviour = (storageFactory: StorageFactory): void => {
  describe('the dashboard and its time zone', () => {
    const h = useApi(storageFactory);

    it('answers GET /api/v1/dashboard with the time zone, UTC until the admin API changes it', async () => {
      const before = await h.api.request('GET', '/api/v1/dashboard', { token: h.token });
      expect(before.status, before.text).to.equal(200);
      expect(before.body.dashboard).to.deep.include({ id: h.dashboardId, timezone: 'UTC' });
      const moved = await h.api.admin('PATCH', `/admin/v1/dashboards/${h.dashboardId}`, { timezone: 'Asia/Kathmandu' });
      expect(moved.status, moved.text).to.equal(200);
      expect((await h.api.request('GET', '/api/v1/dashboard', { token: h.token })).body.dashboard.timezone).to.equal('Asia/Kathmandu');
    });

    it('refuses a time zone Intl does not know, an empty change, an unknown field, and answers 404 for an unknown dashboard', async () => {
      expectInvalid(await h.api.admin('PATCH', `/admin/v1/dashboards/${h.dashboardId}`, { timezone: 'Mars/Olympus', colour: 'red' }), [
        'timezone',
        'colour',
      ]);
      expectInvalid(await h.api.admin('PATCH', `/admin/v1/dashboards/${h.dashboardId}`, {}), ['(body)']);
      expectProblem(await h.api.admin('PATCH', '/admin/v1/dashboards/dsh_missing', { name: 'x' }), 404, 'NOT_FOUND');
    });
  });

  describe('tracking with content, term and id', () => {
    const h = useApi(storageFactory);

    it('keeps utmContent, utmTerm and utmId, shows them on the order, and refuses them empty', async () => {
      const tracking = { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'launch', utmContent: 'ad-1', utmTerm: 'shoes', utmId: 'abc' };
      const created = await h.api.request('POST', ORDERS, { token: h.token, body: anOrderPayload({ externalId: 't-1', tracking }) });
      expect(created.status, created.text).to.equal(201);
      expect((await h.api.request('GET', `${ORDERS}/t-1`, { token: h.token })).body.order.tracking).to.deep.equal(tracking);
      const bad = await h.api.request('POST', ORDERS, {
        token: h.token,
        body: anOrderPayload({ tracking: { ...tracking, utmContent: '', utmTerm: 'x'.repeat(256) } }),
      });
      expectInvalid(bad, ['tracking.utmContent', 'tracking.utmTerm']);
    });
  });

  describe('GET /api/v1/reports/breakdown and /timeseries: validation', () => {
    const h = useApi(storageFactory);
    const get = (path: string) => h.api.request('GET', path, { token: h.token });

    it('reports every problem of a breakdown query at once', async () => {
      expectInvalid(await get(BREAKDOWN), ['query.from', 'query.to', 'query.by']);
      expectInvalid(
        await get(`${BREAKDOWN}?${RANGE}&by=utmSource,colour&model=middle&isTest=maybe&sort=happiness&order=up&limit=1001&extra=1`),
        ['query.by', 'query.model', 'query.isTest', 'query.sort', 'query.order', 'query.limit', 'query.extra'],
      );
      expectInvalid(await get(`${BREAKDOWN}?${RANGE}&by=utmSource,utmMedium,utmCampaign,utmContent`), ['query.by']);
      expectInvalid(await get(`${BREAKDOWN}?${RANGE}&by=utmSource,utmSource`), ['query.by']);
      expectInvalid(await get(`${BREAKDOWN}?from=2026-03-01T00:00:00&to=2026-03-02T00:00:00Z&by=utmSource`), ['query.from']);
    });

    it('refuses from after to, and ranges longer than 366 days (31 by hour)', async () => {
      expectInvalid(await get(`${BREAKDOWN}?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z&by=utmSource`), ['query.from']);
      expectInvalid(await get(`${BREAKDOWN}?from=2025-01-01T00:00:00Z&to=2026-01-03T00:00:00Z&by=utmSource`), ['query.to']);
      expect((await get(`${BREAKDOWN}?from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&by=utmSource`)).status).to.equal(200);
      expectInvalid(await get(`${TIMESERIES}?from=2026-01-01T00:00:00Z&to=2026-02-02T00:00:00Z&interval=hour`), ['query.to']);
      expect((await get(`${TIMESERIES}?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&interval=hour`)).status).to.equal(200);
    });

    it('reports every problem of a timeseries query at once', async () => {
      expectInvalid(await get(`${TIMESERIES}?interval=fortnight&timezone=Mars/Olympus&utmSource=${'x'.repeat(256)}&by=utmSource`), [
        'query.from',
        'query.to',
        'query.interval',
        'query.timezone',
        'query.utmSource',
        'query.by',
      ]);
    });
  });

  describe('PUT and GET /api/v1/spend', () => {
    const h = useApi(storageFactory);
    const put = (body: unknown) => h.api.request('PUT', SPEND, { token: h.token, body });

    it('stores entries, sets (not adds to) an amount sent again, and lists them newest day first', async () => {
      const first = await put({
        entries: [anEntry(), anEntry({ date: '2026-03-11', utmMedium: 'cpc', utmContent: 'ad-1', amountCents: 5 })],
      });
      expect(first.status, first.text).to.equal(200);
      expect(first.body).to.deep.equal({ upserted: 2 });
      expect((await put({ entries: [anEntry({ amountCents: 7 })] })).body).to.deep.equal({ upserted: 1 });
      const listed = await h.api.request('GET', `${SPEND}?from=2026-03-01&to=2026-03-31`, { token: h.token });
      expect(listed.status, listed.text).to.equal(200);
      expect(listed.body).to.deep.equal({
        entries: [
          {
            date: '2026-03-11',
            utmSource: 'google',
            utmMedium: 'cpc',
            utmCampaign: 'launch',
            utmContent: 'ad-1',
            currency: 'BRL',
            amountCents: 5,
            adAccount: null,
          },
          {
            date: '2026-03-10',
            utmSource: 'google',
            utmMedium: '(not set)',
            utmCampaign: 'launch',
            utmContent: '(not set)',
            currency: 'BRL',
            amountCents: 7,
            adAccount: null,
          },
        ],
        page: 1,
        pageSize: 20,
        total: 2,
      });
      expect((await h.api.request('GET', `${SPEND}?from=2026-03-11&pageSize=1&page=2`, { token: h.token })).body).to.deep.include({
        entries: [],
        total: 1,
      });
    });

    it('checks every entry first and stores none when one is wrong, reporting every problem at once', async () => {
      const res = await put({
        entries: [
          anEntry(),
          anEntry({ date: '2026-02-30', amountCents: -1 }),
          anEntry({ utmSource: undefined, currency: 'brl', colour: 1 }),
        ],
      });
      expectInvalid(res, ['entries.1.date', 'entries.1.amountCents', 'entries.2.utmSource', 'entries.2.currency', 'entries.2.colour']);
      expect((await h.api.request('GET', SPEND, { token: h.token })).body.total).to.equal(0);
      expectInvalid(await put({ entries: [] }), ['entries']);
      expectInvalid(await put({ entries: Array.from({ length: 1001 }, (_, i) => anEntry({ amountCents: i })) }), ['entries']);
      expectInvalid(await h.api.request('GET', `${SPEND}?from=2026-03-02&to=2026-03-01`, { token: h.token }), ['query.from']);
    });
  });

  describe('a report over HTTP', () => {
    const h = useApi(storageFactory);

    it('answers which campaign made money, with ROAS from spend, and nothing of another dashboard', async () => {
      const orders = [
        { externalId: 'r-1', status: 'paid', grossCents: 30_000, campaign: 'launch' },
        { externalId: 'r-2', status: 'paid', grossCents: 10_000, campaign: 'launch' },
        { externalId: 'r-3', status: 'refused', grossCents: 5_000, campaign: 'launch' },
        { externalId: 'r-4', status: 'paid', grossCents: 8_000, campaign: 'retarget' },
      ];
      for (const o of orders) {
        const body = anOrderPayload({
          externalId: o.externalId,
          status: o.status,
          createdAt: '2026-03-10T12:00:00Z',
          amounts: { currency: 'BRL', grossCents: o.grossCents, netToSellerCents: o.grossCents },
          tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: o.campaign },
        });
        expect((await h.api.request('POST', ORDERS, { token: h.token, body })).status).to.equal(201);
      }
      await h.api.request('PUT', SPEND, { token: h.token, body: { entries: [anEntry({ amountCents: 20_000 })] } });
      const other = await h.api.newDashboard('Other shop');
      await h.api.request('POST', ORDERS, {
        token: other.token,
        body: anOrderPayload({ externalId: 'x', status: 'paid', createdAt: '2026-03-10T12:00:00Z' }),
      });

      const res = await h.api.request('GET', `${BREAKDOWN}?${RANGE}&by=utmCampaign`, { token: h.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({
        from: '2026-03-01T00:00:00.000Z',
        to: '2026-03-31T23:59:59.999Z',
        by: ['utmCampaign'],
        model: 'last',
        totalRows: 2,
      });
      expect(
        res.body.rows.map((r: any) => [r.key.utmCampaign, r.orders, r.paidGrossCents, r.approvalRate, r.spendCents, r.roas, r.cpaCents]),
      ).to.deep.equal([
        ['launch', 3, 40_000, 0.6667, 20_000, 2, 10_000],
        ['retarget', 1, 8_000, 1, 0, null, null],
      ]);
      const ranked = async (query: string) => {
        const answer = await h.api.request('GET', `${BREAKDOWN}?${RANGE}&by=utmCampaign&${query}`, { token: h.token });
        expect(answer.status, answer.text).to.equal(200);
        return answer.body.rows.map((r: any) => r.key.utmCampaign);
      };
      expect(await ranked('order=asc')).to.deep.equal(['retarget', 'launch']);
      expect(await ranked('order=desc')).to.deep.equal(['launch', 'retarget']);
      // A null (retarget has no spend, so no ROAS) comes after every number in either order.
      expect(await ranked('sort=roas&order=asc')).to.deep.equal(['launch', 'retarget']);
      expect(await ranked('sort=roas')).to.deep.equal(['launch', 'retarget']);
      expect(await ranked('order=asc&limit=1')).to.deep.equal(['retarget']);
      const series = await h.api.request(
        'GET',
        `${TIMESERIES}?from=2026-03-09T00:00:00Z&to=2026-03-10T23:59:59.999Z&interval=day&timezone=America/Sao_Paulo`,
        { token: h.token },
      );
      expect(series.status, series.text).to.equal(200);
      expect(series.body.series.map((s: any) => [s.currency, s.buckets.map((b: any) => [b.start, b.paidGrossCents])])).to.deep.equal([
        [
          'BRL',
          [
            ['2026-03-08T21:00:00.000-03:00', 0],
            ['2026-03-09T00:00:00.000-03:00', 0],
            ['2026-03-10T00:00:00.000-03:00', 48_000],
          ],
        ],
      ]);
    });
  });
};
