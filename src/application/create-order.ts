import type { Either } from 'fp-ts/Either';
import { inject, injectable } from 'tsyringe';
import type { DuplicateExternalId } from '../domain/errors';
import { createOrder, type NewOrder, type Order } from '../domain/order';
import { CLOCK, type Clock } from './ports/clock';
import { ID_GENERATOR, type IdGenerator } from './ports/id-generator';
import { ORDER_REPOSITORY, type OrderRepository } from './ports/order-repository';

@injectable()
export class CreateOrder {
  constructor(
    @inject(ORDER_REPOSITORY) private readonly orders: OrderRepository,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Records a new order in the dashboard; the repository's unique insert settles duplicates. */
  execute(dashboardId: string, input: NewOrder): Promise<Either<DuplicateExternalId, Order>> {
    const order = createOrder(input, { id: this.ids.next('ord'), dashboardId }, this.clock.now());
    return this.orders.insert(order);
  }
}
