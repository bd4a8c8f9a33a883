import { inMemoryStorage } from '../../../src/adapters/memory/in-memory-storage';
import { InMemoryDeliveryRepository } from '../../../src/adapters/memory/webhooks/in-memory-delivery-repository';
import { InMemoryWebhookEndpointRepository } from '../../../src/adapters/memory/webhooks/in-memory-webhook-endpoint-repository';
import { deliveryRepositoryContract } from '../../contract/delivery-repository.contract';
import { webhookEndpointRepositoryContract } from '../../contract/webhook-endpoint-repository.contract';
import { webhookOutboxContract } from '../../contract/webhook-outbox.contract';

webhookEndpointRepositoryContract('in-memory', async () => new InMemoryWebhookEndpointRepository());
deliveryRepositoryContract('in-memory', async () => new InMemoryDeliveryRepository());
webhookOutboxContract('in-memory', async () => inMemoryStorage(), true);
