import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { parseCostsCsv } from '../../../src/application/costs/costs-csv';
import type { CsvProblem, CsvRead, CsvRefusal } from '../../../src/application/shared/csv-file';
import { parseSpendCsv } from '../../../src/application/spend/spend-csv';

/** A file read, its entries read from its bytes whole. */
const read = <A>(either: E.Either<CsvRefusal, CsvRead<A>>): { entries: A[]; ignoredColumns: readonly string[] } => {
  if (E.isLeft(either)) throw new Error(`expected a file read, got ${JSON.stringify(either.left)}`);
  return { entries: either.right.entries.slice(), ignoredColumns: either.right.ignoredColumns };
};

const problems = (either: E.Either<CsvRefusal, CsvRead<unknown>>): readonly CsvProblem[] => {
  if (E.isRight(either) || either.left._tag !== 'CsvInvalid') throw new Error(`expected problems, got ${JSON.stringify(either)}`);
  return either.left.problems;
};

const BOM = '\uFEFF';

/** CSVs as spreadsheets save them: `,` or `;`, a decimal comma, a BOM, headers in any case, order and language. */
describe('CSV files as people save them', () => {
  it("reads a Brazilian spreadsheet's costs: BOM, `;`, decimal commas, Portuguese names in any case, CRLF", async () => {
    const csv = `${BOM}SKU;Moeda;Custo Unitário;Desde\r\nJOG-SLM;BRL;12,50;2026-03-01\r\n"CAMISA; azul";BRL;7,5;2026-03-01\r\nMUG;USD;3.25;2026-03-02\r\n`;
    expect(read(await parseCostsCsv(Buffer.from(csv)))).to.deep.equal({
      entries: [
        { product: 'JOG-SLM', currency: 'BRL', unitCostCents: 1_250, from: '2026-03-01' },
        { product: 'CAMISA; azul', currency: 'BRL', unitCostCents: 750, from: '2026-03-01' },
        { product: 'MUG', currency: 'USD', unitCostCents: 325, from: '2026-03-02' },
      ],
      ignoredColumns: [],
    });
  });

  it('takes the columns in any order, skips the empty names a sheet leaves on the right, and names the columns it did not read', async () => {
    const csv = 'Amount,Currency,UTM_Campaign,Notes,Date,utm source,,\n40.00,BRL,launch,first day,2026-03-01,meta,,\n';
    expect(read(await parseSpendCsv(Buffer.from(csv)))).to.deep.equal({
      entries: [
        {
          date: '2026-03-01',
          utmSource: 'meta',
          utmMedium: '(not set)',
          utmCampaign: 'launch',
          utmContent: '(not set)',
          currency: 'BRL',
          amountCents: 4_000,
        },
      ],
      ignoredColumns: ['Notes'],
    });
  });

  it("answers `sku;custo` with the columns it lacks and the header and a line to write, in the file's separator", async () => {
    expect(problems(await parseCostsCsv(Buffer.from('sku;custo\nJOG-SLM;12,50\n')))).to.deep.equal([
      {
        line: 1,
        message:
          'the header lacks currency and from. The first line names the columns (in any order and case): product;currency;unit_cost;from, ' +
          'then one line each, such as JOG-SLM;BRL;12,50;2026-03-01',
      },
    ]);
    expect(problems(await parseCostsCsv(Buffer.from('product,price,currency,from\n')))[0].message).to.match(
      /^the header lacks unit_cost; "price" is not a column\. /,
    );
    expect(problems(await parseCostsCsv(Buffer.from('sku,product,currency,unit_cost,from\n')))[0].message).to.equal(
      'the header names product twice ("sku" and "product")',
    );
    expect(problems(await parseCostsCsv(Buffer.from('')))[0].message).to.match(
      /^the first line is empty\. The first line names the columns/,
    );
    expect(problems(await parseCostsCsv(Buffer.from('"product,currency,unit_cost,from\n')))[0].message).to.match(
      /^the first line is not a header\. /,
    );
  });

  it('names the line, the column, what it expects with an example, and what it found', async () => {
    const csv = [
      'product;currency;unit_cost;from',
      'A;BRL;1.234,50;2026-03-01',
      'B;brl;12,505;01/03/2026',
      ';BRL;R$ 3,00;2026-03-01',
      'C;BRL',
      '"D;BRL;1;2026-03-01',
    ].join('\n');
    expect(problems(await parseCostsCsv(Buffer.from(csv)))).to.deep.equal([
      {
        line: 2,
        column: 'unit_cost',
        message:
          'expected an amount in units of the currency, with at most 2 decimals and no thousands separator, up to 100000000000, such as 12,50; found "1.234,50"',
      },
      { line: 3, column: 'currency', message: 'expected a currency\'s three capital letters, such as BRL; found "brl"' },
      {
        line: 3,
        column: 'unit_cost',
        message:
          'expected an amount in units of the currency, with at most 2 decimals and no thousands separator, up to 100000000000, such as 12,50; found "12,505"',
      },
      { line: 3, column: 'from', message: 'expected a day written YYYY-MM-DD, such as 2026-03-01; found "01/03/2026"' },
      { line: 4, column: 'product', message: 'expected text of 1 to 255 characters, such as JOG-SLM; found nothing' },
      {
        line: 4,
        column: 'unit_cost',
        message:
          'expected an amount in units of the currency, with at most 2 decimals and no thousands separator, up to 100000000000, such as 12,50; found "R$ 3,00"',
      },
      { line: 5, message: 'has 2 fields where the header has 4, separated by ;' },
      { line: 6, message: 'has a quote (") that is not closed, or text after a closing quote' },
    ]);
  });

  it('takes a decimal comma only where `;` separates the fields: in a `,` file "12,50" is refused', async () => {
    const comma = await parseCostsCsv(Buffer.from('product,currency,unit_cost,from\nA,BRL,"12,50",2026-03-01\n'));
    expect(problems(comma)).to.deep.equal([
      {
        line: 2,
        column: 'unit_cost',
        message:
          'expected an amount in units of the currency, with at most 2 decimals and no thousands separator, up to 100000000000, such as 12.50; found "12,50"',
      },
    ]);
    const semicolon = read(
      await parseSpendCsv(Buffer.from('date;utm_source;utm_campaign;currency;amount\n2026-03-01;google;bf;BRL;1234,5\n')),
    );
    expect(semicolon.entries.map((e) => e.amountCents)).to.deep.equal([123_450]);
  });

  it('refuses a header of more than 100 columns, and reads no more fields of a line than its columns need', async () => {
    const wide = Array.from({ length: 101 }, (_, i) => `c${i}`).join(',');
    expect(problems(await parseCostsCsv(Buffer.from(`product,currency,unit_cost,from,${wide}\n`)))).to.deep.equal([
      { line: 1, message: 'the header has more than 100 columns' },
    ]);
    // A line whose fields past the columns hold anything, an unclosed quote included: they are not read.
    const csv = `product,currency,unit_cost,from\nJOG-SLM,BRL,12.50,2026-03-01,"${'x,'.repeat(100_000)}\n`;
    expect(read(await parseCostsCsv(Buffer.from(csv))).entries).to.have.length(1);
  });

  it('cuts a long field in its message, and counts a line with several problems once toward the 100 at which it stops', async () => {
    const long = 'x'.repeat(300);
    const lines = Array.from({ length: 150 }, () => `${long},brl,1,2026-03-01`);
    const refused = await parseCostsCsv(Buffer.from(`product,currency,unit_cost,from\n${lines.join('\n')}\n`));
    if (E.isRight(refused) || refused.left._tag !== 'CsvInvalid') throw new Error('expected a refusal');
    expect(refused.left.stoppedEarly).to.equal(true);
    expect(refused.left.problems).to.have.length(200);
    expect(new Set(refused.left.problems.map((p) => p.line)).size).to.equal(100);
    expect(refused.left.problems[0].message).to.equal(`expected text of 1 to 255 characters, such as JOG-SLM; found "${'x'.repeat(40)}…"`);
  });

  it('keeps where each entry starts, not the entries: a slice is read again from the bytes, as an array would slice', async () => {
    const lines = Array.from({ length: 7 }, (_, i) => `P-${i},BRL,1.${i}0,2026-03-01`);
    const bytes = Buffer.from(`product,currency,unit_cost,from\r\n${lines[0]}\r\n\r\n${lines.slice(1).join('\n')}\n`);
    const either = await parseCostsCsv(bytes);
    if (E.isLeft(either)) throw new Error(JSON.stringify(either.left));
    const { entries } = either.right;
    const whole = entries.slice();
    expect(entries.length).to.equal(7);
    expect(whole.map((e) => e.product)).to.deep.equal(lines.map((_, i) => `P-${i}`));
    for (const [start, end] of [
      [0, 3],
      [3, 7],
      [5, 99],
      [2, 2],
      [-2, undefined],
      [undefined, undefined],
    ] as const)
      expect(entries.slice(start, end), `slice(${start}, ${end})`).to.deep.equal(whole.slice(start, end));
    // Read again, not kept: a changed byte shows in the next slice (which is why the bytes must stay as they are).
    bytes[bytes.indexOf('1.30')] = '9'.charCodeAt(0);
    expect(entries.slice(3, 4)[0].unitCostCents).to.equal(930);
  });
});
