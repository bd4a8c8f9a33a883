import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import type { Delivery } from '../../domain/delivery';
import {
  deliveryNotFound,
  webhookDisabled,
  webhookNotFound,
  type DeliveryNotFound,
  type WebhookDisabled,
  type WebhookNotFound,
} from '../shared/errors';
import { CLOCK, type Clock } from '../ports/clock';
import { DELIVERIES, type DeliveryRepository } from '../ports/delivery-repository';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import { WEBHOOK_NUDGE, type WebhookNudge } from '../ports/webhook-nudge';

@injectable()
export class RetryDelivery {
  constructor(
    @inject(WEBHOOK_ENDPOINTS) private readonly endpoints: WebhookEndpointRepository,
    @inject(DELIVERIES) private readonly deliveries: DeliveryRepository,
    @inject(WEBHOOK_NUDGE) private readonly nudge: WebhookNudge,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One more attempt now, with the same body and `webhook-id` (the event's id): a replay for the
   * receiver. A pending delivery is brought forward and keeps its schedule; a finished one gets one
   * attempt. A disabled endpoint is sent nothing.
   */
  async execute(
    dashboardId: string,
    id: string,
    deliveryId: string,
  ): Promise<E.Either<WebhookNotFound | DeliveryNotFound | WebhookDisabled, Delivery>> {
    const endpoint = await this.endpoints.find(dashboardId, id);
    if (O.isNone(endpoint)) return E.left(webhookNotFound(id));
    if (O.isNone(await this.deliveries.find(dashboardId, id, deliveryId))) return E.left(deliveryNotFound(deliveryId));
    if (!endpoint.value.enabled) return E.left(webhookDisabled(id));
    const due = await this.deliveries.retryNow(dashboardId, id, deliveryId, this.clock.now());
    if (O.isNone(due)) return E.left(deliveryNotFound(deliveryId));
    this.nudge.deliveriesDue();
    return E.right(due.value);
  }
}
