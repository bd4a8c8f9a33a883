import type { WebhookEndpoint } from '../../domain/webhook';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';

export class ListWebhooks {
  constructor(private readonly endpoints: WebhookEndpointRepository) {}

  /** The dashboard's endpoints, oldest first; at most 20, so never paged. */
  execute(dashboardId: string): Promise<readonly WebhookEndpoint[]> {
    return this.endpoints.listByDashboard(dashboardId);
  }
}
