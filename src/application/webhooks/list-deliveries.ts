import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { webhookNotFound, type WebhookNotFound } from '../shared/errors';
import type { DeliveryPage, DeliveryQuery, DeliveryRepository } from '../ports/delivery-repository';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';

export class ListDeliveries {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: DeliveryRepository,
  ) {}

  /** One page of the endpoint's delivery log, newest first; another dashboard's endpoint is not found. */
  async execute(dashboardId: string, id: string, query: DeliveryQuery): Promise<E.Either<WebhookNotFound, DeliveryPage>> {
    if (O.isNone(await this.endpoints.find(dashboardId, id))) return E.left(webhookNotFound(id));
    return E.right(await this.deliveries.list(dashboardId, id, query));
  }
}
