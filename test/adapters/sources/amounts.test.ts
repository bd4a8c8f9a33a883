import { expect } from 'chai';
import { centsOfDecimal, centsOfMinorUnits } from '../../../src/adapters/sources/amounts';

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
});
