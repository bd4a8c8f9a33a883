import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/bootstrap/cli';
import { describeWithMongo } from '../support/mongo-server';

describeWithMongo('orders-cli on MongoDB', (mongo) => {
  /** Runs the CLI as a shell would: the store comes from MONGODB_URI and MONGODB_DB. */
  const cli = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { MONGODB_URI: mongo.uri, MONGODB_DB: mongo.dbName };
    const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
  };

  it('manages dashboards and tokens that later commands and the storage of the service find again', async () => {
    const created = await cli(['dashboards', 'create', '--name', 'Persistent shop']);
    expect(created.code, created.err).to.equal(0);
    const dashboard = created.json().dashboard;
    expect((await cli(['dashboards', 'list'])).json().dashboards).to.deep.include(dashboard);

    const issued = (await cli(['tokens', 'create', '--dashboard', dashboard.id, '--name', 'ci'])).json().token;
    const storage = await mongo.connect();
    const stored = await storage.tokens.listByDashboard(dashboard.id);
    expect(stored.map((token) => token.id)).to.deep.equal([issued.id]);
    expect(JSON.stringify(stored)).not.to.include(issued.token);

    const revoked = await cli(['tokens', 'revoke', issued.id]);
    expect(revoked.code).to.equal(0);
    const listed = (await cli(['tokens', 'list', '--dashboard', dashboard.id])).json().tokens;
    expect(listed).to.have.length(1);
    expect(listed[0].revokedAt).to.equal(revoked.json().token.revokedAt);
  });

  it("imports a Brazilian spreadsheet's costs and spend in slices, and the same files again converge", async function () {
    this.timeout(60_000);
    const dashboard = (await cli(['dashboards', 'create', '--name', 'Loja'])).json().dashboard;
    const folder = mkdtempSync(join(tmpdir(), 'cli-mongo-csv-'));
    try {
      const costs = join(folder, 'custos.csv');
      const lines = Array.from({ length: 1_200 }, (_, i) => `P-${i};BRL;${i},5;2026-03-01`);
      writeFileSync(costs, `\uFEFFSKU;Moeda;Custo;Desde\r\n${lines.join('\r\n')}\r\nP-7;BRL;0,07;2026-03-01\r\n`);
      const spend = join(folder, 'gastos.csv');
      writeFileSync(spend, `Data;utm_source;utm_campaign;Moeda;Valor\n2026-03-01;meta;lançamento;BRL;1234,50\n`);
      for (let round = 0; round < 2; round++) {
        const imported = await cli(['costs', 'import', '--dashboard', dashboard.id, '--file', costs]);
        expect(imported.code, imported.err).to.equal(0);
        expect(imported.json().costs).to.deep.include({ lines: 1_201, ignoredColumns: [] });
        expect((await cli(['spend', 'import', '--dashboard', dashboard.id, '--file', spend])).code).to.equal(0);
      }
      const storage = await mongo.connect();
      const stored = await storage.productCosts.priceList(dashboard.id);
      expect(stored).to.have.length(1_200);
      expect(stored.find((entry) => entry.product === 'P-7')?.unitCostCents, 'the later line').to.equal(7);
      expect(stored.find((entry) => entry.product === 'P-1199')?.unitCostCents).to.equal(119_950);
      expect((await storage.spend.list(dashboard.id, { page: 1, pageSize: 10 })).entries).to.deep.equal([
        {
          date: '2026-03-01',
          utmSource: 'meta',
          utmMedium: '(not set)',
          utmCampaign: 'lançamento',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 123_450,
        },
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers 1 for a dashboard that is not in the database', async () => {
    const result = await cli(['tokens', 'list', '--dashboard', 'dsh_nowhere']);
    expect(result.code).to.equal(1);
    expect(result.err).to.include('no dashboard dsh_nowhere');
  });
});
