import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Delivery } from '../../domain/delivery';
import {
  deliveryNotFound,
  webhookDisabled,
  webhookNotFound,
  type DeliveryNotFound,
  type WebhookDisabled,
  type WebhookNotFound,
} from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { DeliveryRepository } from '../ports/delivery-repository';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookNudge } from '../ports/webhook-nudge';

export class RetryDelivery {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly nudge: WebhookNudge,
    private readonly clock: Clock,
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
