import { expect } from 'chai';
import { dateFieldOf, isOrderStatus, ORDER_STATUSES, STATUS_DATE_FIELD } from '../../src/domain/order-status';

describe('Order statuses', () => {
  it('are exactly the five states of the specification', () => {
    expect([...ORDER_STATUSES]).to.have.members(['pending', 'paid', 'refused', 'refunded', 'chargedback']);
    expect(ORDER_STATUSES).to.have.lengthOf(5);
  });

  it('recognises each known state', () => {
    for (const status of ['pending', 'paid', 'refused', 'refunded', 'chargedback']) {
      expect(isOrderStatus(status), status).to.equal(true);
    }
  });

  it('refuses anything else, including other spellings and non-strings', () => {
    for (const value of ['PAID', 'Paid', 'cancelled', 'charged_back', '', ' paid', 'toString', null, undefined, 1]) {
      expect(isOrderStatus(value), String(value)).to.equal(false);
    }
  });

  describe('the date that goes with a status', () => {
    it('is paidAt for paid, refundedAt for refunded and chargedbackAt for chargedback', () => {
      expect(dateFieldOf('paid')).to.equal('paidAt');
      expect(dateFieldOf('refunded')).to.equal('refundedAt');
      expect(dateFieldOf('chargedback')).to.equal('chargedbackAt');
    });

    it('does not exist for pending and refused', () => {
      expect(dateFieldOf('pending')).to.equal(undefined);
      expect(dateFieldOf('refused')).to.equal(undefined);
    });

    it('is one of exactly three date fields', () => {
      expect(Object.values(STATUS_DATE_FIELD)).to.have.members(['paidAt', 'refundedAt', 'chargedbackAt']);
      expect(Object.values(STATUS_DATE_FIELD)).to.have.lengthOf(3);
    });
  });
});
