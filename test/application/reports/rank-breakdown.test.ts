import { expect } from 'chai';
import type { ReportCell } from '../../../src/application/ports/report-reader';
import { rankBreakdown } from '../../../src/application/reports/rank-breakdown';
import type { ReportDimension } from '../../../src/domain/attribution';
import { ZERO_TOTALS } from '../../../src/domain/report';

/** Code points compared one by one: the order decision 0020 asks for, written without the code under test. */
const byCodePoints = (a: string, b: string): number => {
  const [x, y] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

const cell = (key: ReportCell['key'], currency: string, paid: number): ReportCell => ({
  ...ZERO_TOTALS,
  bucket: 0,
  key,
  currency,
  paid,
  paidGrossCents: paid * 1_000,
});

/**
 * Values whose order by code point differs from JavaScript's `<` (U+FF5E against an astral
 * character), from the order of their JSON text (a quote, a backslash) and from the order of the
 * values joined (a prefix against a longer value).
 */
const VALUES = ['a', 'a!', 'a"', 'a#', 'a\\', 'ab', '\uff5e', '\u{1f600}', 'é', ''];

describe('rankBreakdown', () => {
  it("answers keys that hold the dimensions of `by` and nothing else, whatever the cells' keys hold", async () => {
    const cells = [
      cell({ utmSource: 'google', utmMedium: 'm1', utmCampaign: 'c1' }, 'BRL', 1),
      cell({ utmSource: 'google', utmMedium: 'm2', utmCampaign: 'c2' }, 'BRL', 2),
      cell({ utmSource: 'meta', utmMedium: 'm1', utmCampaign: 'c1' }, 'BRL', 1),
    ];
    const answer = await rankBreakdown(cells, undefined, { by: ['utmSource'], sort: 'paid', limit: 10, taxRate: 0 });
    expect(answer.rows.map((row) => [row.key, row.paid])).to.deep.equal([
      [{ utmSource: 'google' }, 3],
      [{ utmSource: 'meta' }, 1],
    ]);
  });

  it('orders rows equal on the sort metric by their values in `by` order, then currency, by code point, and cuts inside them', async () => {
    const by: readonly ReportDimension[] = ['utmCampaign', 'utmSource'];
    const cells: ReportCell[] = [];
    // Keys written with their dimensions in the other order: the order of a key's members must not count.
    for (const campaign of VALUES)
      for (const source of ['x', 'x\u{1f600}', 'x\uffff'])
        for (const currency of ['USD', 'BRL']) cells.push(cell({ utmSource: source, utmCampaign: campaign }, currency, 1));
    cells.push(cell({ utmSource: 'z', utmCampaign: 'z' }, 'BRL', 2));
    const expected = cells
      .filter((c) => c.paid === 1)
      .map((c) => [c.key.utmCampaign!, c.key.utmSource!, c.currency])
      .sort((a, b) => byCodePoints(a[0], b[0]) || byCodePoints(a[1], b[1]) || byCodePoints(a[2], b[2]));
    for (const limit of [1, 2, 7, 31, 60, 61, 100]) {
      const answer = await rankBreakdown([...cells].reverse(), undefined, { by, sort: 'paid', limit, taxRate: 0 });
      expect(answer.totalRows).to.equal(61);
      expect(answer.rows[0].key).to.deep.equal({ utmCampaign: 'z', utmSource: 'z' });
      expect(
        answer.rows.slice(1).map((row) => [row.key.utmCampaign, row.key.utmSource, row.currency]),
        `limit ${limit}`,
      ).to.deep.equal(expected.slice(0, limit - 1));
    }
  });

  it('puts a null after every number, and orders the nulls as any tie', async () => {
    const cells = [cell({ platform: 'b' }, 'BRL', 0), cell({ platform: 'a' }, 'BRL', 0), cell({ platform: 'c' }, 'BRL', 2)];
    const answer = await rankBreakdown(cells, undefined, { by: ['platform'], sort: 'averageOrderCents', limit: 3, taxRate: 0 });
    expect(answer.rows.map((row) => [row.key.platform, row.averageOrderCents])).to.deep.equal([
      ['c', 1_000],
      ['a', null],
      ['b', null],
    ]);
  });
});
