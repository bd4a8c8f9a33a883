import { expect } from 'chai';
import { barChart, type ChartPoint } from '../../../src/adapters/console/kit/chart';

const chartOf = (values: readonly (number | null)[]): string =>
  barChart({
    title: 'Profit',
    metric: 'profitCents',
    points: values.map((value, i): ChartPoint => ({ label: `day ${i}`, tick: `${i}`, value })),
    format: (v) => String(v),
    axis: (v) => String(v),
  }).markup;

const axisOf = (svg: string): string[] => [...svg.matchAll(/<text class="value"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
const barsOf = (svg: string) =>
  [...svg.matchAll(/<rect class="bar( negative)?"[^>]* y="([\d.]+)"[^>]* height="([\d.]+)"/g)].map((m) => ({
    negative: m[1] !== undefined,
    top: Number(m[2]),
    bottom: Number(m[2]) + Number(m[3]),
  }));
const zeroOf = (svg: string): number => Number(/<line class="axis zero"[^>]* y1="([\d.]+)"/.exec(svg)![1]);

describe('the console’s bar chart (decision 0022)', () => {
  it('draws a negative value down from the zero line, with the axis going below zero', () => {
    const svg = chartOf([300, -120, 50]);
    expect(axisOf(svg)).to.deep.equal(['-200', '0', '200', '400']);
    const zero = zeroOf(svg);
    const [up, down] = barsOf(svg);
    expect([up.negative, up.bottom]).to.deep.equal([false, zero]);
    expect([down.negative, down.top]).to.deep.equal([true, zero]);
    expect(down.bottom).to.be.greaterThan(zero);
  });

  it('puts zero at the top when every value is below it, and never labels it “-0”', () => {
    const svg = chartOf([-10, -40]);
    expect(axisOf(svg)).to.deep.equal(['-40', '-30', '-20', '-10', '0']);
    expect(barsOf(svg).every((bar) => bar.negative && bar.top === zeroOf(svg))).to.equal(true);
  });

  it('draws an axis for days of nothing, and no bar where there is no figure', () => {
    const svg = chartOf([0, null, 0]);
    expect(axisOf(svg)).to.deep.equal(['0', '1']);
    expect(svg).not.to.contain('NaN');
    expect(barsOf(svg)).to.have.length(2);
    expect(svg).not.to.contain('day 1');
  });
});
