import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { DuplicateExternalId } from '../../domain/errors';
import { createOrder, isRecordedAs, type NewOrder, type Order } from '../../domain/order';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OrderRepository } from '../ports/order-repository';
import type { WebhookNudge } from '../ports/webhook-nudge';

/** An order of a batch: created now, or found already recorded as the payload would make it. */
export interface RecordedOrder {
  readonly order: Order;
  readonly created: boolean;
}

export class CreateOrder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly nudge: WebhookNudge,
  ) {}

  /**
   * The repository's unique insert settles duplicates. `reservedId` (under an Idempotency-Key) becomes
   * the order's id, so an externalId already taken by an order with that id is this request's own
   * earlier attempt, cut off by a crash before its response was stored: that order is the answer.
   */
  async execute(dashboardId: string, input: NewOrder, reservedId?: string): Promise<E.Either<DuplicateExternalId, Order>> {
    const { order, events } = createOrder(input, { id: reservedId ?? this.ids.next('ord'), dashboardId }, this.clock.now());
    const inserted = await this.orders.insert(
      order,
      events.map((event) => ({ id: this.ids.next('evt'), ...event })),
    );
    if (E.isRight(inserted)) this.nudge.outboxChanged();
    if (E.isRight(inserted) || reservedId === undefined) return inserted;
    const existing = await this.orders.findByExternalId(dashboardId, input.externalId);
    return O.isSome(existing) && existing.value.id === reservedId ? E.right(existing.value) : inserted;
  }

  /**
   * Creates the order, or, when its externalId is taken by an order equal to what `input` would make
   * (`isRecordedAs`), answers that order as already recorded: a batch sent again after a failure that
   * stored part of it converges instead of failing on the orders it stored. Another order under the
   * externalId stays a duplicate.
   */
  async record(dashboardId: string, input: NewOrder): Promise<E.Either<DuplicateExternalId, RecordedOrder>> {
    const created = await this.execute(dashboardId, input);
    if (E.isRight(created)) return E.right({ order: created.right, created: true });
    const stored = await this.orders.findByExternalId(dashboardId, input.externalId);
    return O.isSome(stored) && isRecordedAs(stored.value, input) ? E.right({ order: stored.value, created: false }) : created;
  }
}
