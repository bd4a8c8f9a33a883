import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import type { DuplicateExternalId } from '../../domain/errors';
import { createOrder, type NewOrder, type Order } from '../../domain/order';
import { CLOCK, type Clock } from '../ports/clock';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator';
import { ORDER_REPOSITORY, type OrderRepository } from '../ports/order-repository';
import { WEBHOOK_NUDGE, type WebhookNudge } from '../ports/webhook-nudge';

@injectable()
export class CreateOrder {
  constructor(
    @inject(ORDER_REPOSITORY) private readonly orders: OrderRepository,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(WEBHOOK_NUDGE) private readonly nudge: WebhookNudge,
  ) {}

  /**
   * Records a new order in the dashboard; the repository's unique insert settles duplicates.
   * `reservedId`, given under an Idempotency-Key, becomes the order's id: when the insert finds the
   * externalId taken by an order with that very id, it is this request's own earlier attempt (the
   * process died before the response was stored), and that order is the answer; its events were
   * stored with it then, and this attempt stores none. The webhook relay is nudged once the events
   * are stored (it also finds them without the nudge, by polling).
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
}
