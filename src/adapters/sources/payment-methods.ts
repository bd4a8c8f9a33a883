/**
 * The payment methods sources write: the service takes any text, and these are the words the API's
 * examples use, so that reports group one method under one name whatever the platform.
 */
export type PaymentMethod = 'credit_card' | 'debit_card' | 'pix' | 'boleto' | 'paypal' | 'bank_transfer' | 'wallet' | 'cash' | 'other';

/** Tried in order: a bank debit (`sepa_debit`, Hotmart's `DIRECT_DEBIT`) is a bank transfer, not a debit card. */
const BY_NAME: readonly (readonly [RegExp, PaymentMethod])[] = [
  [/^(card|credit_card|shopify_payments|woocommerce_payments|stripe|bogus|visa|mastercard|amex|hotcard)$/i, 'credit_card'],
  [
    /^(sepa_debit|us_bank_account|ach_debit|ach_credit_transfer|bacs_debit|au_becs_debit|acss_debit|direct_debit|ideal|sofort|bancontact|eps|giropay|p24|customer_balance|bank_transfer|bank_deposit|bacs|direct_bank_transfer|manual_transfer)$/i,
    'bank_transfer',
  ],
  [/debit/i, 'debit_card'],
  [/pix/i, 'pix'],
  [/boleto|billet/i, 'boleto'],
  [/paypal|^ppcp/i, 'paypal'],
  [
    /^(apple_pay|google_pay|link|cashapp|wechat_pay|alipay|shop_pay|amazon_pay|samsung_pay|revolut_pay|mobilepay|picpay|wallet)$/i,
    'wallet',
  ],
  [/^(cash|cash_on_delivery|cod|manual|cash_payment)$/i, 'cash'],
];

/** The service's word for a platform's payment method name; `other` for a name it does not know. */
export const paymentMethodOf = (name: string | null | undefined): PaymentMethod =>
  name === null || name === undefined ? 'other' : (BY_NAME.find(([pattern]) => pattern.test(name.trim()))?.[1] ?? 'other');
