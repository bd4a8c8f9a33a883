import * as E from 'fp-ts/Either';
import { webhookNotFound, type WebhookNotFound } from '../shared/errors';
import type { DeliveryRepository } from '../ports/delivery-repository';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';

export class DeleteWebhook {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: DeliveryRepository,
  ) {}

  /**
   * Deletes the endpoint, then its deliveries and their log. Nothing is sent to it from the moment it
   * is deleted: the relay only makes deliveries for stored endpoints, and the worker drops a delivery
   * whose endpoint is gone, so a crash before its deliveries are deleted sends nothing either.
   */
  async execute(dashboardId: string, id: string): Promise<E.Either<WebhookNotFound, void>> {
    if (!(await this.endpoints.delete(dashboardId, id))) return E.left(webhookNotFound(id));
    await this.deliveries.deleteOfEndpoint(dashboardId, id);
    return E.right(undefined);
  }
}
