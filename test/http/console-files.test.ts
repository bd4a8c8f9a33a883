import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';
import { StorageUnavailableError } from '../../src/application/ports/storage-health';
import { UPLOAD_SLICE_ROWS } from '../../src/application/shared/sliced-upload';
import { ConsoleSession } from '../support/console-session';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';

const SPEND_HEADER = 'date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount';

/** The console's files over HTTP: the spend CSV it takes, the report it exports as CSV (decision 0023). */
describe('console files (decisions 0018, 0023)', function () {
  this.timeout(30_000);
  let storage: Storage;
  let api: TestApi;
  let token: string;
  let session: ConsoleSession;

  beforeEach(async () => {
    storage = inMemoryStorage();
    api = await TestApi.start({}, { storage });
    const dashboard = await api.newDashboard('Console files');
    token = dashboard.token;
    session = await ConsoleSession.signIn(api, storage, dashboard.dashboardId);
  });

  afterEach(async () => {
    await api.stop();
  });

  describe('the spend CSV upload', () => {
    const upload = (content: Uint8Array | string) => {
      const form = new FormData();
      form.set('file', new Blob([content], { type: 'text/csv' }), 'spend.csv');
      return session.post('/console/spend', '/console/spend', form);
    };
    const listedLines = (page: string): string[] => [...page.matchAll(/<li>Line ([\d,]+)[:,]/g)].map((m) => m[1]);

    it('stops reading at 100 bad lines, lists those and says the rest was not checked; imports nothing', async () => {
      const bad = Array.from({ length: 250 }, (_, i) => `2026-02-30,google,cpc,c-${i},,BRL,1`);
      const res = await upload(`${SPEND_HEADER}\n2026-03-01,google,cpc,good,,BRL,1\n${bad.join('\n')}\n`);
      expect(res.status, res.text).to.equal(400);
      expect(res.text).to.include('the reading stopped at 100 lines that cannot be read');
      expect(listedLines(res.text)).to.deep.equal(Array.from({ length: 100 }, (_, i) => String(i + 3)));
      expect(
        await storage.spend.list((await api.request('GET', '/api/v1/dashboard', { token })).body.dashboard.id, { page: 1, pageSize: 10 }),
      ).to.have.property('total', 0);
    });

    it('refuses a file that is not UTF-8, naming the line, rather than storing U+FFFD in its place', async () => {
      const latin1 = Buffer.concat([
        Buffer.from(`${SPEND_HEADER}\n2026-03-01,google,cpc,good,,BRL,1\n2026-03-01,google,cpc,promo`),
        Buffer.from([0xe7, 0xe3]),
        Buffer.from('o,,BRL,2\n'),
      ]);
      const res = await upload(latin1);
      expect(res.status, res.text).to.equal(400);
      expect(res.text).to.include('<li>Line 3: is not valid UTF-8');
      const dashboardId = (await api.request('GET', '/api/v1/dashboard', { token })).body.dashboard.id;
      expect((await storage.spend.list(dashboardId, { page: 1, pageSize: 10 })).total).to.equal(0);
    });

    it('takes a valid file, and refuses one over 2 MiB with 413', async () => {
      const stored = await upload(`${SPEND_HEADER}\n2026-03-01,google,cpc,good,,BRL,12.50\n`);
      expect([stored.status, stored.headers.get('location')]).to.deep.equal([303, '/console/spend']);
      expect((await session.get('/console/spend')).text).to.include('1 entry stored.');
      const large = await upload(`${SPEND_HEADER}\n${'2026-03-01,google,cpc,good,,BRL,1\n'.repeat(70_000)}`);
      expect(large.status).to.equal(413);
    });
  });

  describe('the costs CSV upload', () => {
    const upload = (content: Uint8Array | string) => {
      const form = new FormData();
      form.set('file', new Blob([content], { type: 'text/csv' }), 'custos.csv');
      return session.post('/console/costs', '/console/costs', form);
    };
    const dashboardId = async (): Promise<string> => (await api.request('GET', '/api/v1/dashboard', { token })).body.dashboard.id;

    it("takes a Brazilian spreadsheet's file and names the columns it did not read", async () => {
      const stored = await upload('\uFEFFSKU;Moeda;Custo;Desde;Nome\r\nJOG-SLM;BRL;12,50;2026-03-01;Calça Jogger\r\n');
      expect([stored.status, stored.headers.get('location')]).to.deep.equal([303, '/console/costs']);
      expect((await session.get('/console/costs')).text).to.include('1 cost stored. Columns not read: Nome.');
      expect((await storage.productCosts.priceList(await dashboardId())).map((e) => e.unitCostCents)).to.deep.equal([1_250]);
    });

    it('says which line and column are wrong, what they should hold and what they hold', async () => {
      const refused = await upload('sku;custo\nJOG-SLM;12,50\n');
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include(
        '<li>Line 1: the header lacks currency and from. The first line names the columns (in any order and case): ' +
          'product;currency;unit_cost;from, then one line each, such as JOG-SLM;BRL;12,50;2026-03-01</li>',
      );
      const bad = await upload('product;currency;unit_cost;from\nJOG-SLM;BRL;12.505;2026-03-01\n');
      expect(bad.text).to.include('<li>Line 2, column <code>unit_cost</code>: expected an amount in units of the currency');
      expect(bad.text).to.include('such as 12,50; found &quot;12.505&quot;</li>');
    });

    it('answers 503 with how many lines were stored when the store fails part way, and the same file sent again completes it', async () => {
      const lines = Array.from({ length: 1_200 }, (_, i) => `P-${i};BRL;${i},50;2026-03-01`);
      const file = `product;currency;unit_cost;from\n${lines.join('\n')}\n`;
      const put = storage.productCosts.put.bind(storage.productCosts);
      let calls = 0;
      storage.productCosts.put = async (id, slice) => {
        if (++calls === 2) throw new StorageUnavailableError('the store is read-only');
        return put(id, slice);
      };
      const failed = await upload(file);
      expect([failed.status, failed.headers.get('retry-after')]).to.deep.equal([503, '5']);
      expect(failed.text).to.include(
        `The data store stopped taking the file after its first ${UPLOAD_SLICE_ROWS} lines of 1,200 were stored. Send the same file again in a moment`,
      );
      expect(await storage.productCosts.priceList(await dashboardId())).to.have.length(UPLOAD_SLICE_ROWS);
      const again = await upload(file);
      expect(again.status).to.equal(303);
      expect((await session.get('/console/costs')).text).to.include('1,200 costs stored.');
      const stored = await storage.productCosts.priceList(await dashboardId());
      expect(stored).to.have.length(1_200);
      expect(stored.find((e) => e.product === 'P-1199')?.unitCostCents).to.equal(119_950);
    });
  });

  describe('the report as CSV', () => {
    const campaign = async (utmCampaign: string, externalId: string): Promise<void> => {
      const created = await api.request('POST', '/api/v1/orders', {
        token,
        body: anOrderPayload({
          externalId,
          createdAt: new Date(Date.now() - 60_000).toISOString(),
          tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign },
        }),
      });
      expect(created.status, created.text).to.equal(201);
    };

    it('shows the first 200 rows on the page and puts up to 1,000 in the CSV', async () => {
      const orders = Array.from({ length: 210 }, (_, i) =>
        anOrderPayload({
          externalId: `many-${i}`,
          createdAt: new Date(Date.now() - 60_000).toISOString(),
          tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: `campaign-${i}` },
        }),
      );
      expect((await api.request('POST', '/api/v1/orders/batch', { token, body: { orders } })).body.created).to.equal(210);
      const page = await session.get('/console/reports?period=7&by1=utmCampaign');
      expect(page.status).to.equal(200);
      expect(page.text).to.include('210 rows; the first 200 are shown, the CSV holds the first 1,000');
      expect(page.text.match(/<tr>/g)?.length).to.equal(201);
      const csv = await session.get('/console/reports.csv?period=7&by1=utmCampaign');
      expect(csv.text.split('\r\n').filter((line) => line !== '')).to.have.length(211);
    });

    it('shows profit beside ROAS, the margin as a percent', async () => {
      const body = anOrderPayload({
        externalId: 'margin-1',
        status: 'paid',
        createdAt: new Date(Date.now() - 60_000).toISOString(),
        amounts: { currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000 },
        tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'margin' },
      });
      expect((await api.request('POST', '/api/v1/orders', { token, body })).status).to.equal(201);
      const page = await session.get('/console/reports?period=7&by1=utmCampaign&col=roas&col=profitCents&col=marginRate');
      // Each heading sorts the report by its column.
      expect(page.text).to.match(/data-metric="profitCents"><a href="[^"]*sort=profitCents[^"]*">Profit<\/a><\/th>/);
      expect(page.text).to.match(/data-metric="marginRate"><a href="[^"]*sort=marginRate[^"]*">Margin<\/a><\/th>/);
      // No tax nor spend, and the T-shirt without a cost: R$90.00 of profit on R$100.00, a 90 % margin
      // (it read 0.9 before), both leaving out the cost of its 2 units.
      expect(page.text).to.match(
        /data-metric="profitCents">\s*R\$90\.00\s*<a class="uncosted" href="\/console\/costs" data-uncosted-units="2">Incomplete: 2 units without a cost<\/a>\s*<\/td>/,
      );
      expect(page.text).to.match(/data-metric="marginRate">\s*90\.0%\s*<\/td>/);
    });

    it('neutralises text cells that start like a formula, quotes those holding ; or , and leaves numbers as numbers', async () => {
      const names = ['x;=1+1', '=HYPERLINK("http://evil.example","y")', '-2+3', '@SUM(A1)', '\tTab', 'a,b', 'plain'];
      for (const [i, name] of names.entries()) await campaign(name, `csv-${i}`);
      const res = await session.get('/console/reports.csv?period=7&by1=utmCampaign');
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      const lines = res.text.split('\r\n');
      expect(lines[0]).to.match(/^utmCampaign,currency,orders,/);
      const first = (line: string): string => /^("(?:[^"]|"")*"|[^,]*)/.exec(line)![1];
      expect(lines.slice(1, -1).map(first).sort()).to.deep.equal(
        ['"x;=1+1"', '"\'=HYPERLINK(""http://evil.example"",""y"")"', '"\'-2+3"', '"\'@SUM(A1)"', '"\'\tTab"', '"a,b"', 'plain'].sort(),
      );
      const plain = lines.find((line) => line.startsWith('plain,'))!;
      expect(plain.split(',').slice(1, 4)).to.deep.equal(['BRL', '1', '1']);
    });
  });
});
