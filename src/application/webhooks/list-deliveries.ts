import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import { webhookNotFound, type WebhookNotFound } from '../shared/errors';
import { DELIVERIES, type DeliveryPage, type DeliveryQuery, type DeliveryRepository } from '../ports/delivery-repository';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';

@injectable()
export class ListDeliveries {
  constructor(
    @inject(WEBHOOK_ENDPOINTS) private readonly endpoints: WebhookEndpointRepository,
    @inject(DELIVERIES) private readonly deliveries: DeliveryRepository,
  ) {}

  /** One page of the endpoint's delivery log, newest first; another dashboard's endpoint is not found. */
  async execute(dashboardId: string, id: string, query: DeliveryQuery): Promise<E.Either<WebhookNotFound, DeliveryPage>> {
    if (O.isNone(await this.endpoints.find(dashboardId, id))) return E.left(webhookNotFound(id));
    return E.right(await this.deliveries.list(dashboardId, id, query));
  }
}
