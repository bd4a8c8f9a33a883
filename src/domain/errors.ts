import type { OrderStatus } from './order-status';

/** An order with this `externalId` already exists in the dashboard. */
export interface DuplicateExternalId {
  readonly _tag: 'DuplicateExternalId';
  readonly externalId: string;
}

/** No order with this `externalId` in the caller's dashboard (whether or not another dashboard has one). */
export interface OrderNotFound {
  readonly _tag: 'OrderNotFound';
  readonly externalId: string;
}

/** The transition policy refuses `from` → `to`. */
export interface InvalidTransition {
  readonly _tag: 'InvalidTransition';
  readonly from: OrderStatus;
  readonly to: OrderStatus;
}

export type OrderError = DuplicateExternalId | OrderNotFound | InvalidTransition;

export const duplicateExternalId = (externalId: string): DuplicateExternalId => ({
  _tag: 'DuplicateExternalId',
  externalId,
});

export const orderNotFound = (externalId: string): OrderNotFound => ({ _tag: 'OrderNotFound', externalId });

export const invalidTransition = (from: OrderStatus, to: OrderStatus): InvalidTransition => ({
  _tag: 'InvalidTransition',
  from,
  to,
});
