import * as t from 'io-ts';
import { MAX_PAGE, MAX_PAGE_SIZE } from '../kit/list-query';
import { arrayOf, bool, int, nullable, strictObject } from '../kit/codec-kit';
import { utcDateTime } from '../kit/dates';
import { freeFormObject } from '../kit/free-form';
import { described } from '../kit/json-schema';
import { cents, currency, MAX_PRODUCTS, orderStatus, Product, text, Tracking } from './order-codecs';

/** Codecs of what the service answers about orders: the presenters are typed by them. */

const serviceId = described(t.string, 'Made by the service; opaque.');

export const CreatedOrder = strictObject('CreatedOrder', { id: serviceId, externalId: text, status: orderStatus, isTest: bool });
export const CreateOrderResponse = strictObject('CreateOrderResponse', { order: CreatedOrder });

const OrderAmounts = strictObject('OrderAmounts', { currency, grossCents: cents, netToSellerCents: cents });

const orderItemFields = {
  id: serviceId,
  externalId: text,
  status: orderStatus,
  isTest: bool,
  platform: text,
  paymentMethod: text,
  createdAt: utcDateTime,
  amounts: OrderAmounts,
  tracking: Tracking,
};

const statusDates = {
  paidAt: described(utcDateTime, 'Present when the order has one; always for a paid order.'),
  refundedAt: described(utcDateTime, 'Present when the order has one; always for a refunded order.'),
  chargedbackAt: described(utcDateTime, 'Present when the order has one; always for a charged-back order.'),
};

/** The list item of the specification, plus the dates of refund and chargeback when an order has them. */
export const OrderListItem = strictObject('Order', orderItemFields, statusDates, {
  description: 'An order as listed, and as a PATCH answers it.',
});
export const OrderResponse = strictObject('OrderResponse', { order: OrderListItem });

const StoredAmounts = strictObject('StoredAmounts', {
  currency,
  grossCents: cents,
  netToSellerCents: cents,
  discountCents: cents,
  shippingCents: cents,
  taxesCents: cents,
  totalFeesCents: cents,
});

/** An order read on its own: the list item, and everything else that was stored. */
export const OrderDetail = strictObject(
  'OrderDetail',
  {
    ...orderItemFields,
    updatedAt: described(utcDateTime, 'When the service last stored a change of the order.'),
    version: described(int(1, Number.MAX_SAFE_INTEGER), 'Starts at 1 and grows by one with every stored change of the order.'),
    amounts: described(StoredAmounts, 'Every amount, the omitted ones as 0.'),
    products: arrayOf(Product, 1, MAX_PRODUCTS),
  },
  { ...statusDates, customer: freeFormObject, fees: freeFormObject, metadata: freeFormObject, trackingExtras: freeFormObject },
  { description: 'An order as read on its own: everything that was stored, the optional objects when they were sent.' },
);
export const OrderDetailResponse = strictObject('OrderDetailResponse', { order: OrderDetail });

export const OrderList = strictObject(
  'OrderList',
  {
    orders: described(arrayOf(OrderListItem, 0, MAX_PAGE_SIZE), 'Newest first: `createdAt` descending, then `id` descending.'),
    pageSize: int(1, MAX_PAGE_SIZE),
    nextCursor: described(
      nullable(t.string),
      'Pass it as `after` for the page that follows this one; `null` when no order follows. Opaque: it holds the position and the filters.',
    ),
  },
  {
    page: described(int(1, MAX_PAGE), 'With `page` (and without `after`) only.'),
    total: described(
      int(0, Number.MAX_SAFE_INTEGER),
      'Every order of the dashboard matching the filters, on all pages; with `page` (and without `after`) only.',
    ),
  },
);
