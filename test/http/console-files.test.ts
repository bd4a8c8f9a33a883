import { expect } from 'chai';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';
import { ConsoleSession } from '../support/console-session';
import { anOrderPayload } from '../support/order-builder';
import { TestApi } from '../support/test-api';

/** The console's files over HTTP: the report it exports as CSV (DECISIONS D23). */
describe('console files (DECISIONS D18, D23)', function () {
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
