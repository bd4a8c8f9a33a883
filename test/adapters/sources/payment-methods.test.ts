import { expect } from 'chai';
import { paymentMethodOf } from '../../../src/adapters/sources/payment-methods';

describe("platforms' payment method names in the service's words", () => {
  it('names each platform’s method as the API examples do, whatever its case', () => {
    const cases: readonly (readonly [string, string])[] = [
      ['shopify_payments', 'credit_card'],
      ['card', 'credit_card'],
      ['CREDIT_CARD', 'credit_card'],
      ['woocommerce_payments', 'credit_card'],
      ['debit_card', 'debit_card'],
      ['sepa_debit', 'bank_transfer'],
      ['bacs_debit', 'bank_transfer'],
      ['DIRECT_DEBIT', 'bank_transfer'],
      ['bacs', 'bank_transfer'],
      ['DIRECT_BANK_TRANSFER', 'bank_transfer'],
      ['BILLET', 'boleto'],
      ['FINANCED_BILLET', 'boleto'],
      ['boleto', 'boleto'],
      ['PIX', 'pix'],
      ['ppcp-gateway', 'paypal'],
      ['PAYPAL_INTERNACIONAL', 'paypal'],
      ['GOOGLE_PAY', 'wallet'],
      ['PICPAY', 'wallet'],
      ['cod', 'cash'],
      ['CASH_PAYMENT', 'cash'],
      ['cheque', 'other'],
    ];
    for (const [name, word] of cases) expect(paymentMethodOf(name), name).to.equal(word);
    expect(paymentMethodOf(undefined)).to.equal('other');
  });
});
