/**
 * The payment methods sources write: the service takes any text, and these are the words the API's
 * examples use, so that reports group one method under one name whatever the platform.
 */
export type PaymentMethod = 'credit_card' | 'debit_card' | 'pix' | 'boleto' | 'paypal' | 'bank_transfer' | 'wallet' | 'cash' | 'other';

const BY_NAME: readonly (readonly [RegExp, PaymentMethod])[] = [
  [/^(card|credit_card|shopify_payments|stripe|bogus|visa|mastercard|amex)$/i, 'credit_card'],
  [/debit/i, 'debit_card'],
  [/pix/i, 'pix'],
  [/boleto/i, 'boleto'],
  [/paypal/i, 'paypal'],
  [
    /^(sepa_debit|us_bank_account|ach_debit|ach_credit_transfer|bacs_debit|au_becs_debit|acss_debit|ideal|sofort|bancontact|eps|giropay|p24|customer_balance|bank_transfer|bank_deposit)$/i,
    'bank_transfer',
  ],
  [/^(apple_pay|google_pay|link|cashapp|wechat_pay|alipay|shop_pay|amazon_pay|samsung_pay|revolut_pay|mobilepay)$/i, 'wallet'],
  [/^(cash|cash_on_delivery|cod|manual)$/i, 'cash'],
];

/** The service's word for a platform's payment method name; `other` for a name it does not know. */
export const paymentMethodOf = (name: string | null | undefined): PaymentMethod =>
  name === null || name === undefined ? 'other' : (BY_NAME.find(([pattern]) => pattern.test(name.trim()))?.[1] ?? 'other');
