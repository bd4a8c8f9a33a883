import { inject, injectable } from 'tsyringe';
import type { WebhookEndpoint } from '../../domain/webhook';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';

@injectable()
export class ListWebhooks {
  constructor(@inject(WEBHOOK_ENDPOINTS) private readonly endpoints: WebhookEndpointRepository) {}

  /** The dashboard's endpoints, oldest first; at most 20, so never paged. */
  execute(dashboardId: string): Promise<readonly WebhookEndpoint[]> {
    return this.endpoints.listByDashboard(dashboardId);
  }
}
