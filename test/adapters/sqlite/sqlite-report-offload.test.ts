import type { Worker } from 'node:worker_threads';
import { expect } from 'chai';
import type { RankedBreakdownQuery } from '../../../src/application/ports/report-reader';
import { openSqliteStorage } from '../../../src/adapters/sqlite/sqlite-storage';
import { SqliteReportOffload, type ReportReply } from '../../../src/adapters/sqlite/reports/sqlite-report-offload';
import type { Storage } from '../../../src/application/ports/storage';
import { memoryLogger } from '../../support/memory-log';
import { anOrder } from '../../support/order-builder';
import { temporaryFolder } from '../../support/sqlite-files';

const START = Date.parse('2026-03-01T00:00:00.000Z');
const CAMPAIGNS = 40;

/** The report thread of the SQLite store (decision 0023): what crosses back to the event loop's thread. */
describe('SqliteReportOffload', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let storage: Storage;
  let offload: SqliteReportOffload;
  let replies: ReportReply[];

  beforeEach(async () => {
    folder = temporaryFolder();
    storage = openSqliteStorage({ path: folder.path, logger: memoryLogger().logger });
    for (let i = 0; i < CAMPAIGNS; i++) {
      const order = anOrder()
        .inDashboard('dsh_a')
        .with({
          id: `ord_${i}`,
          externalId: `o-${i}`,
          createdAt: new Date(START + i * 3_600_000),
          tracking: { utmSource: 'google', utmMedium: 'cpc', utmCampaign: `campaign-${String(i).padStart(2, '0')}` },
        })
        .withStatus('paid')
        .build();
      await storage.orders.insert(order, []);
    }
    offload = new SqliteReportOffload(folder.path);
    await offload.cells('dsh_a', { buckets: [], by: [], model: 'last', isTest: undefined, filters: {}, costZone: 'UTC' });
    replies = [];
    (offload as unknown as { worker: Worker }).worker.on('message', (reply: ReportReply) => replies.push(reply));
  });

  afterEach(async () => {
    await offload.close();
    await storage.health.close();
    folder.remove();
  });

  it('sends back only the rows a breakdown answers, with the count of them all', async () => {
    const query: RankedBreakdownQuery = {
      range: { start: START, end: START + 30 * 86_400_000 },
      by: ['utmCampaign'],
      model: 'last',
      isTest: undefined,
      filters: {},
      sort: 'paidGrossCents',
      limit: 5,
      costZone: 'UTC',
      taxRate: 0,
      spend: { by: ['utmCampaign'], filters: {}, days: { from: '2026-03-01', to: '2026-03-30' } },
    };
    const answered = await offload.breakdown('dsh_a', query);
    expect(answered.totalRows).to.equal(CAMPAIGNS);
    expect(answered.rows.map((row) => row.key.utmCampaign)).to.deep.equal([0, 1, 2, 3, 4].map((i) => `campaign-0${i}`));
    expect(replies).to.have.length(1);
    const reply = replies[0];
    expect(reply).to.not.have.property('cells');
    expect('breakdown' in reply && reply.breakdown.rows.length).to.equal(5);
  });
});
