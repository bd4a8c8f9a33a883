import * as E from 'fp-ts/Either';
import type { WebhookEndpoint } from '../../domain/webhook';
import { webhookNotFound, type WebhookNotFound } from '../shared/errors';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';

export class GetWebhook {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  /** The dashboard's endpoint; another dashboard's is not found. */
  async execute(dashboardId: string, id: string): Promise<E.Either<WebhookNotFound, WebhookEndpoint>> {
    return E.fromOption(() => webhookNotFound(id))(await this.endpoints.find(dashboardId, id));
  }
}
