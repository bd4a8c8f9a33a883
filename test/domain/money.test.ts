import { expect } from 'chai';
import { amountsWithDefaults, isCents, isCurrencyCode, MAX_CENTS } from '../../src/domain/money';

describe('Money', () => {
  describe('isCents', () => {
    it('accepts zero, one cent and the ceiling of 10^13 cents', () => {
      expect(isCents(0)).to.equal(true);
      expect(isCents(1)).to.equal(true);
      expect(MAX_CENTS).to.equal(10_000_000_000_000);
      expect(isCents(10 ** 13)).to.equal(true);
    });

    it('refuses one cent above the ceiling', () => {
      expect(isCents(10 ** 13 + 1)).to.equal(false);
      expect(isCents(Number.MAX_SAFE_INTEGER)).to.equal(false);
    });

    it('refuses fractions of a cent', () => {
      expect(isCents(0.5)).to.equal(false);
      expect(isCents(100.01)).to.equal(false);
      expect(isCents(10 ** 13 - 0.5)).to.equal(false);
    });

    it('refuses negative amounts', () => {
      expect(isCents(-1)).to.equal(false);
      expect(isCents(-(10 ** 13))).to.equal(false);
    });

    it('refuses NaN and the infinities', () => {
      expect(isCents(Number.NaN)).to.equal(false);
      expect(isCents(Number.POSITIVE_INFINITY)).to.equal(false);
      expect(isCents(Number.NEGATIVE_INFINITY)).to.equal(false);
    });

    it('refuses values that are not numbers, even numeric strings and bigints', () => {
      for (const value of ['100', '', null, undefined, true, 100n, {}, [100]]) {
        expect(isCents(value), typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? 'undefined')).to.equal(false);
      }
    });
  });

  describe('isCurrencyCode', () => {
    it('accepts three uppercase letters', () => {
      expect(isCurrencyCode('BRL')).to.equal(true);
      expect(isCurrencyCode('USD')).to.equal(true);
    });

    it('refuses lowercase, wrong lengths, digits and non-strings', () => {
      for (const value of ['brl', 'Brl', 'BR', 'BRLX', '', 'B1L', ' BRL', 'BRL\n', 123, null]) {
        expect(isCurrencyCode(value), JSON.stringify(value)).to.equal(false);
      }
    });
  });

  describe('amountsWithDefaults', () => {
    it('sets every omitted optional amount to 0', () => {
      expect(amountsWithDefaults({ currency: 'BRL', grossCents: 10_000, netToSellerCents: 9_000 })).to.deep.equal({
        currency: 'BRL',
        grossCents: 10_000,
        netToSellerCents: 9_000,
        discountCents: 0,
        shippingCents: 0,
        taxesCents: 0,
        totalFeesCents: 0,
      });
    });

    it('keeps every amount that was given', () => {
      expect(
        amountsWithDefaults({
          currency: 'USD',
          grossCents: 10 ** 13,
          netToSellerCents: 1,
          discountCents: 2,
          shippingCents: 3,
          taxesCents: 4,
          totalFeesCents: 5,
        }),
      ).to.deep.equal({
        currency: 'USD',
        grossCents: 10 ** 13,
        netToSellerCents: 1,
        discountCents: 2,
        shippingCents: 3,
        taxesCents: 4,
        totalFeesCents: 5,
      });
    });

    it('defaults each optional amount on its own', () => {
      expect(amountsWithDefaults({ currency: 'BRL', grossCents: 100, netToSellerCents: 90, shippingCents: 700 })).to.deep.equal({
        currency: 'BRL',
        grossCents: 100,
        netToSellerCents: 90,
        discountCents: 0,
        shippingCents: 700,
        taxesCents: 0,
        totalFeesCents: 0,
      });
    });
  });
});
