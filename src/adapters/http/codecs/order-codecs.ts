import * as t from 'io-ts';
import { isCents, isCurrencyCode, MAX_CENTS } from '../../../domain/money';
import { ORDER_STATUSES } from '../../../domain/order-status';
import { arrayOf, bool, check, int, isoInstant, oneOf, refine, str, strictObject } from './codec-kit';
import { freeFormObject } from './free-form';

/** The domain's rule for money, said in the edge's words. */
const cents = check('Cents', isCents, `must be an integer from 0 to ${MAX_CENTS}`);
const status = oneOf(ORDER_STATUSES);
const currency = check('CurrencyCode', isCurrencyCode, 'must be a three-letter uppercase currency code, such as BRL');

const Amounts = strictObject(
  'Amounts',
  { currency, grossCents: cents, netToSellerCents: cents },
  { discountCents: cents, shippingCents: cents, taxesCents: cents, totalFeesCents: cents },
);

const Product = strictObject(
  'Product',
  { name: str(), quantity: int(1, 1_000_000), unitPriceCents: cents },
  { externalId: str(), sku: str() },
);

const Tracking = strictObject('Tracking', { utmSource: str(), utmMedium: str(), utmCampaign: str() });

/** The creation payload (specification, DECISIONS D3). */
export const CreateOrderBody = strictObject(
  'CreateOrderBody',
  {
    externalId: str(),
    platform: str(),
    paymentMethod: str(),
    status,
    createdAt: isoInstant,
    isTest: bool,
    amounts: Amounts,
    products: arrayOf(Product, 1, 500),
    tracking: Tracking,
  },
  {
    customer: freeFormObject,
    fees: freeFormObject,
    metadata: freeFormObject,
    trackingExtras: freeFormObject,
    paidAt: isoInstant,
    refundedAt: isoInstant,
    chargedbackAt: isoInstant,
  },
);
export type CreateOrderBody = t.TypeOf<typeof CreateOrderBody>;

/** The PATCH body: any of these, at least one (DECISIONS D6). */
export const UpdateOrderBody = refine(
  strictObject(
    'UpdateOrderBody',
    {},
    { status, paidAt: isoInstant, refundedAt: isoInstant, chargedbackAt: isoInstant, metadata: freeFormObject },
  ),
  (body) => Object.keys(body).length > 0,
  'must change at least one of status, paidAt, refundedAt, chargedbackAt, metadata',
);
export type UpdateOrderBody = t.TypeOf<typeof UpdateOrderBody>;

/** `externalId` as it arrives in a path. */
export const ExternalIdParam = str();
