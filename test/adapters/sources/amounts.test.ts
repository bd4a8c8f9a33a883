import { expect } from 'chai';
import { centsOfDecimal, centsOfMinorUnits, centsOfNumber } from '../../../src/adapters/sources/amounts';

describe('platform amounts to cents, without floating point', () => {
  it('reads decimal text digit by digit, whatever the currency', () => {
    expect(centsOfDecimal('10.00')).to.equal(1000);
    expect(centsOfDecimal('0.1')).to.equal(10);
    expect(centsOfDecimal('409.94')).to.equal(40994);
    expect(centsOfDecimal('1500')).to.equal(150000);
    expect(centsOfDecimal('1.230')).to.equal(123);
    // 0.07 * 100 is 7.000000000000001 in floating point.
    expect(centsOfDecimal('0.07')).to.equal(7);
    expect(centsOfDecimal('90071992547409.93')).to.equal(undefined);
  });

  it('refuses text that is not an amount, or finer than a cent', () => {
    for (const text of ['', '-1.00', '1e3', '1,00', '10.005', 'abc', '.5']) expect(centsOfDecimal(text), text).to.equal(undefined);
  });

  it("scales Stripe's minor units by the currency: two decimals as they are, zero-decimal ×100, three-decimal ÷10", () => {
    expect(centsOfMinorUnits(1999, 'usd')).to.equal(1999);
    expect(centsOfMinorUnits(1500, 'jpy')).to.equal(150000);
    expect(centsOfMinorUnits(1500, 'KRW')).to.equal(150000);
    expect(centsOfMinorUnits(1230, 'kwd')).to.equal(123);
    expect(centsOfMinorUnits(1235, 'kwd')).to.equal(undefined);
    expect(centsOfMinorUnits(-1, 'usd')).to.equal(undefined);
    expect(centsOfMinorUnits(1.5, 'usd')).to.equal(undefined);
  });

  it("reads a JSON number (Hotmart's 149.9) through its shortest decimal text, never by multiplying a float", () => {
    expect(centsOfNumber(149.9)).to.equal(14990);
    expect(centsOfNumber(1500)).to.equal(150000);
    // Each of these times 100, rounded down as a float would be, is one cent short.
    for (const [value, cents] of [
      [0.29, 29],
      [1.13, 113],
      [4.35, 435],
      [1.15, 115],
      [8.2, 820],
    ] as const) {
      expect(Math.floor(value * 100), `${value} × 100`).to.equal(cents - 1);
      expect(centsOfNumber(value), String(value)).to.equal(cents);
    }
    expect(centsOfNumber(0)).to.equal(0);
  });

  it('refuses a number finer than a cent, negative, not finite, or written with an exponent', () => {
    for (const value of [0.1 + 0.2, 10.005, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 1e-7]) {
      expect(centsOfNumber(value), String(value)).to.equal(undefined);
    }
  });
});
