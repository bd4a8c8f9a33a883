import * as E from 'fp-ts/Either';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/bootstrap/cli';
import { centsOf } from '../../src/application/shared/csv-file';
import { parseSpendCsv } from '../../src/application/spend/spend-csv';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';
import { temporarySqliteStorage } from '../support/sqlite-files';
import { anOrder, anOrderPayload } from '../support/order-builder';

const cli = async (argv: string[], storage: Storage) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {}, { out: (l) => out.push(l), err: (l) => err.push(l) }, storage);
  return { code, out: out.join('\n'), err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
};

const HEADER = 'date,utm_source,utm_medium,utm_campaign,utm_content,currency,amount';
const COSTS_HEADER = 'product,currency,unit_cost,from';

describe('orders-cli: time zones, spend and reports', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'cli-spend-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  const file = (content: string | Uint8Array, name = 'spend.csv'): string => {
    const path = join(folder, name);
    writeFileSync(path, content);
    return path;
  };

  it('converts decimal text to cents without floating point', () => {
    expect(['0', '0.5', '12.34', '1234.50', '0.07', '100000000000'].map(centsOf)).to.deep.equal([0, 50, 1234, 123450, 7, 10 ** 13]);
    expect(['', '1.234', '-1', '1e3', '1,00', ' 1', '100000000000.01', '0.1.2'].map(centsOf)).to.deep.equal(Array(8).fill(undefined));
    // 0.07 * 100 is 7.000000000000001 in floating point; 1.15 * 100 is 114.99999999999999.
    expect(centsOf('1.15')).to.equal(115);
  });

  it('creates a dashboard in a time zone and moves it to another; refuses a zone Intl does not know', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const created = (await cli(['dashboards', 'create', '--name', 'Loja', '--timezone', 'America/Sao_Paulo'], storage)).json().dashboard;
    expect(created.timezone).to.equal('America/Sao_Paulo');
    const moved = await cli(['dashboards', 'update', created.id, '--timezone', 'Asia/Kathmandu'], storage);
    expect(moved.json().dashboard).to.deep.include({ name: 'Loja', timezone: 'Asia/Kathmandu' });
    const bad = await cli(['dashboards', 'update', created.id, '--timezone', 'Mars/Olympus'], storage);
    expect(bad.code).to.equal(2);
    expect((await cli(['dashboards', 'update', 'dsh_missing', '--name', 'x'], storage)).code).to.equal(1);
  });

  it('imports a spend CSV, quoted fields and empty optional keys included, and sets amounts sent again', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const csv = `${HEADER}\r\n2026-03-10,google,cpc,"black ""friday"", sale",ad-1,BRL,1234.50\n2026-03-10,meta,,launch,,BRL,7\n\n`;
    const imported = await cli(['spend', 'import', '--dashboard', dashboardId, '--file', file(csv)], storage);
    expect(imported.code, imported.err).to.equal(0);
    expect(imported.json()).to.deep.equal({ spend: { file: join(folder, 'spend.csv'), lines: 2, upserted: 2, ignoredColumns: [] } });
    const listed = await storage.spend.list(dashboardId, { page: 1, pageSize: 10 });
    expect(listed.entries).to.deep.equal([
      {
        date: '2026-03-10',
        utmSource: 'google',
        utmMedium: 'cpc',
        utmCampaign: 'black "friday", sale',
        utmContent: 'ad-1',
        currency: 'BRL',
        amountCents: 123_450,
      },
      {
        date: '2026-03-10',
        utmSource: 'meta',
        utmMedium: '(not set)',
        utmCampaign: 'launch',
        utmContent: '(not set)',
        currency: 'BRL',
        amountCents: 700,
      },
    ]);
  });

  it('checks every line first and imports nothing when one is wrong, naming each line', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const csv = `${HEADER}\n2026-03-10,google,cpc,a,,BRL,10\n2026-02-30,google,cpc,a,,BRL,10\n2026-03-11,,cpc,a,,brl,1.234\n2026-03-12,google,cpc\n`;
    const refused = await cli(['spend', 'import', '--dashboard', dashboardId, '--file', file(csv)], storage);
    expect(refused.code).to.equal(1);
    const error = JSON.parse(refused.err).error;
    expect(error.message).to.equal('3 lines cannot be imported; nothing was imported');
    expect(error.lines.map((l: { line: number; column?: string }) => `${l.line}:${l.column ?? ''}`)).to.deep.equal([
      '3:date',
      '4:utm_source',
      '4:currency',
      '4:amount',
      '5:',
    ]);
    expect(error.lines[3].message).to.equal(
      'expected an amount in units of the currency, with at most 2 decimals and no thousands separator, up to 100000000000, such as 12.50; found "1.234"',
    );
    expect(error.lines[4].message).to.equal('has 3 fields where the header has 7, separated by ,');
    expect((await storage.spend.list(dashboardId, { page: 1, pageSize: 10 })).total).to.equal(0);
    expect(await parseSpendCsv(Buffer.from('day,source\n'))).to.deep.equal(
      E.left({
        _tag: 'CsvInvalid',
        problems: [
          {
            line: 1,
            message:
              'the header lacks utm_source, utm_campaign, currency and amount; "source" is not a column. The first line names the columns ' +
              `(in any order and case): ${HEADER}, then one line each, such as 2026-03-01,google,cpc,black-friday,ad-1,BRL,12.50`,
          },
        ],
        stoppedEarly: false,
      }),
    );
    expect((await cli(['spend', 'import', '--dashboard', 'dsh_missing', '--file', file(`${HEADER}\n`)], storage)).code).to.equal(1);
  });

  it('stops at 100 bad lines, refuses a line that is not UTF-8 and a file over 2 MiB, importing nothing (decision 0023)', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const bad = Array.from({ length: 250 }, (_, i) => `2026-02-30,google,cpc,c-${i},,BRL,1`).join('\n');
    const many = await cli(['spend', 'import', '--dashboard', dashboardId, '--file', file(`${HEADER}\n${bad}\n`)], storage);
    expect(many.code).to.equal(1);
    const error = JSON.parse(many.err).error;
    expect(error.message).to.equal('the reading stopped at 100 lines that cannot be imported; nothing was imported');
    expect(error.lines.map((l: { line: number }) => l.line)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 2));
    const latin1 = Buffer.concat([
      Buffer.from(`${HEADER}\n2026-03-01,google,cpc,ok,,BRL,1\n2026-03-01,google,cpc,promo`),
      Buffer.from([0xe7, 0xe3]),
      Buffer.from('o,,BRL,2\n'),
    ]);
    const notUtf8 = await cli(['spend', 'import', '--dashboard', dashboardId, '--file', file(latin1)], storage);
    expect(notUtf8.code).to.equal(1);
    expect(JSON.parse(notUtf8.err).error.lines).to.deep.equal([
      { line: 3, message: 'is not valid UTF-8: save the file as UTF-8 (CSV UTF-8 in a spreadsheet)' },
    ]);
    const large = await cli(
      ['spend', 'import', '--dashboard', dashboardId, '--file', file(`${HEADER}\n${'2026-03-01,google,cpc,ok,,BRL,1\n'.repeat(70_000)}`)],
      storage,
    );
    expect(large.code).to.equal(1);
    expect(JSON.parse(large.err).error.message).to.match(/is larger than 2097152 bytes/);
    expect((await storage.spend.list(dashboardId, { page: 1, pageSize: 10 })).total).to.equal(0);
  });

  it('sets and shows the tax rate of a dashboard; refuses more than 2 decimals, above 100 and what is not decimal text', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const id = (await cli(['dashboards', 'create', '--name', 'Loja'], storage)).json().dashboard.id;
    const taxed = await cli(['dashboards', 'update', id, '--tax-rate', '7.25'], storage);
    expect(taxed.code, taxed.err).to.equal(0);
    expect(taxed.json().dashboard).to.deep.include({ name: 'Loja', timezone: 'UTC', taxRate: 7.25 });
    for (const rate of ['7.255', '100.01', '-1', '0x10', '1e1', '', 'seven']) {
      const bad = await cli(['dashboards', 'update', id, '--tax-rate', rate], storage);
      expect(bad.code, rate).to.equal(2);
      expect(JSON.parse(bad.err).error.code).to.equal('USAGE');
    }
    expect((await cli(['dashboards', 'list'], storage)).json().dashboards[0].taxRate).to.equal(7.25);
  });

  it('imports a product costs CSV whole, quoted fields included, a key given twice taking the later line', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const csv = `${COSTS_HEADER}\r\n"SHIRT, blue",BRL,23.50,2026-03-01\nMUG,USD,0,2026-03-01\nMUG,USD,1.15,2026-03-01\n\n`;
    const imported = await cli(['costs', 'import', '--dashboard', dashboardId, '--file', file(csv, 'costs.csv')], storage);
    expect(imported.code, imported.err).to.equal(0);
    expect(imported.json()).to.deep.equal({ costs: { file: join(folder, 'costs.csv'), lines: 3, upserted: 2, ignoredColumns: [] } });
    expect((await storage.productCosts.list(dashboardId, { pageSize: 10 })).entries).to.deep.equal([
      { product: 'MUG', currency: 'USD', unitCostCents: 115, from: '2026-03-01' },
      { product: 'SHIRT, blue', currency: 'BRL', unitCostCents: 2_350, from: '2026-03-01' },
    ]);
    // More lines than an API call takes, stored in slices.
    const many = Array.from({ length: 1_500 }, (_, i) => `P-${i},BRL,1,2026-03-01`).join('\n');
    const large = await cli(
      ['costs', 'import', '--dashboard', dashboardId, '--file', file(`${COSTS_HEADER}\n${many}\n`, 'many.csv')],
      storage,
    );
    expect(large.code, large.err).to.equal(0);
    expect(large.json().costs).to.deep.include({ lines: 1_500, upserted: 1_500 });
  });

  it('checks every line of a costs CSV first and imports nothing when one is wrong, naming each line', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const csv = `${COSTS_HEADER}\nSHIRT,BRL,10,2026-03-01\nSHIRT,brl,10,2026-03-01\n,BRL,-1,2026-02-30\nMUG,BRL,1.234,2026-03-01\nMUG,BRL\n`;
    const refused = await cli(['costs', 'import', '--dashboard', dashboardId, '--file', file(csv, 'costs.csv')], storage);
    expect(refused.code).to.equal(1);
    const error = JSON.parse(refused.err).error;
    expect(error.code).to.equal('INVALID_CSV');
    expect(error.lines.map((l: { line: number; column?: string }) => `${l.line}:${l.column ?? ''}`)).to.deep.equal([
      '3:currency',
      '4:product',
      '4:unit_cost',
      '4:from',
      '5:unit_cost',
      '6:',
    ]);
    expect(error.lines[0].message).to.equal('expected a currency\'s three capital letters, such as BRL; found "brl"');
    expect(error.lines[3].message).to.equal('expected a day written YYYY-MM-DD, such as 2026-03-01; found "2026-02-30"');
    expect((await storage.productCosts.list(dashboardId, { pageSize: 10 })).entries).to.deep.equal([]);
    const header = await cli(['costs', 'import', '--dashboard', dashboardId, '--file', file('sku,cost\nA,1\n', 'h.csv')], storage);
    expect(JSON.parse(header.err).error.lines).to.deep.equal([
      {
        line: 1,
        message:
          'the header lacks currency and from. The first line names the columns (in any order and case): product,currency,unit_cost,from, ' +
          'then one line each, such as JOG-SLM,BRL,12.50,2026-03-01',
      },
    ]);
    expect((await cli(['costs', 'import', '--dashboard', 'dsh_missing', '--file', file(`${COSTS_HEADER}\n`)], storage)).code).to.equal(1);
    expect((await cli(['costs', 'import', '--dashboard', dashboardId], storage)).code).to.equal(2);
  });

  it('imports the UTF-8 lines of a JSON Lines file and names a line that is not UTF-8 as invalid', async () => {
    const storage = { ...inMemoryStorage(), persistent: true };
    const dashboardId = (await cli(['dashboards', 'create', '--name', 'Shop'], storage)).json().dashboard.id;
    const line = (externalId: string) => JSON.stringify(anOrderPayload({ externalId }));
    const [before, after] = line('u-2').split('u-2');
    const content = Buffer.concat([
      Buffer.from(`${line('u-1')}\n${before}u-`),
      Buffer.from([0xff]),
      Buffer.from(`2${after}\n${line('u-3')}\n`),
    ]);
    const imported = await cli(['orders', 'import', '--dashboard', dashboardId, '--file', file(content, 'orders.jsonl')], storage);
    expect(imported.code).to.equal(1);
    expect(imported.json().import).to.deep.include({
      orders: 3,
      created: 2,
      invalid: 1,
      invalidLines: [{ line: 2, problems: ['(line) is not valid UTF-8'] }],
    });
  });

  it('rebuilds the SQLite report totals from the orders after they were lost', async () => {
    const storage = temporarySqliteStorage();
    try {
      await storage.dashboards.insert({ id: 'dsh_a', name: 'Shop', timezone: 'UTC', taxRate: 0, createdAt: new Date() });
      for (let i = 0; i < 20; i++)
        await storage.orders.insert(
          anOrder()
            .inDashboard('dsh_a')
            .with({ id: `ord_${i}`, externalId: `o-${i}`, createdAt: new Date(Date.UTC(2026, 2, 1 + i, 5)) })
            .withStatus('paid')
            .build(),
          [],
        );
      const query = {
        buckets: [{ start: Date.UTC(2026, 2, 1), end: Date.UTC(2026, 3, 1) }],
        by: [],
        model: 'last' as const,
        isTest: undefined,
        filters: {},
        costZone: 'UTC',
      };
      const before = await storage.reports.cells('dsh_a', query);
      await wipeRollups(storage);
      expect(await storage.reports.cells('dsh_a', query), 'the totals are gone').not.to.deep.equal(before);
      const rebuilt = await cli(['reports', 'rebuild'], storage);
      expect(rebuilt.code, rebuilt.err).to.equal(0);
      expect(await storage.reports.cells('dsh_a', query)).to.deep.equal(before);
    } finally {
      await storage.health.close();
    }
  });
});

/** Empties the rollup tables behind the store's back, as a damaged file would have them. */
const wipeRollups = async (storage: Storage): Promise<void> => {
  const reader = storage.reports as unknown as {
    db: { write: (change: () => void) => Promise<void>; prepare: (sql: string) => { run: () => void } };
  };
  await reader.db.write(() => {
    for (const table of ['report_totals', 'report_campaigns', 'report_keys']) reader.db.prepare(`DELETE FROM ${table}`).run();
  });
};
