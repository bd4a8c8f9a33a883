import type { WebhookEndpointRepository } from '../../../application/ports/webhook-endpoint-repository';
import type { WebhookEndpoint } from '../../../domain/webhook';
import { InMemoryDashboardRecords } from '../in-memory-dashboard-records';

/** Endpoints in the process. */
export class InMemoryWebhookEndpointRepository extends InMemoryDashboardRecords<WebhookEndpoint> implements WebhookEndpointRepository {}
