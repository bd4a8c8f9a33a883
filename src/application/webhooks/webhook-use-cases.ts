import type { EventFeed } from '../ports/event-feed';
import { ListEvents } from './list-events';
import type { Clock } from '../ports/clock';
import type { DeliveryRepository } from '../ports/delivery-repository';
import type { IdGenerator } from '../ports/id-generator';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookNudge } from '../ports/webhook-nudge';
import type { WebhookOutbox } from '../ports/webhook-outbox';
import type { WebhookPayloads } from '../ports/webhook-payloads';
import type { WebhookSecrets } from '../ports/webhook-secrets';
import type { WebhookSender } from '../ports/webhook-sender';
import type { WebhookUrlPolicy } from '../ports/webhook-url-policy';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { ConversionNudge } from '../conversions/conversion-nudge';
import { CreateWebhook } from './create-webhook';
import { DeleteWebhook } from './delete-webhook';
import { DeliverWebhooks, type WebhookSettings } from './deliver-webhooks';
import { GetWebhook } from './get-webhook';
import { ListDeliveries } from './list-deliveries';
import { ListWebhooks } from './list-webhooks';
import { RelayOrderEvents } from './relay-order-events';
import { RetryDelivery } from './retry-delivery';
import { RotateWebhookSecret } from './rotate-webhook-secret';
import { SendTestWebhook } from './send-test-webhook';
import { UpdateWebhook } from './update-webhook';

export interface WebhookPorts {
  readonly webhooks: WebhookEndpointRepository;
  readonly deliveries: DeliveryRepository;
  readonly outbox: WebhookOutbox;
  readonly events: EventFeed;
  readonly webhookPayloads: WebhookPayloads;
  readonly webhookSecrets: WebhookSecrets;
  readonly webhookSender: WebhookSender;
  readonly webhookUrls: WebhookUrlPolicy;
  readonly webhookSettings: WebhookSettings;
  readonly nudge: WebhookNudge;
  readonly adAccounts: AdAccountRepository;
  readonly conversionNudge: ConversionNudge;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

export const webhookUseCases = (p: WebhookPorts) => ({
  createWebhook: new CreateWebhook(p.webhooks, p.webhookUrls, p.webhookSecrets, p.ids, p.clock),
  listWebhooks: new ListWebhooks(p.webhooks),
  getWebhook: new GetWebhook(p.webhooks),
  updateWebhook: new UpdateWebhook(p.webhooks, p.webhookUrls, p.clock),
  deleteWebhook: new DeleteWebhook(p.webhooks, p.deliveries),
  rotateWebhookSecret: new RotateWebhookSecret(p.webhooks, p.webhookSecrets, p.clock),
  sendTestWebhook: new SendTestWebhook(p.webhooks, p.deliveries, p.webhookPayloads, p.nudge, p.ids, p.clock),
  listDeliveries: new ListDeliveries(p.webhooks, p.deliveries),
  retryDelivery: new RetryDelivery(p.webhooks, p.deliveries, p.nudge, p.clock),
  relayOrderEvents: new RelayOrderEvents(p.outbox, p.webhooks, p.webhookPayloads, p.nudge, p.ids, p.clock, p.adAccounts, p.conversionNudge),
  listEvents: new ListEvents(p.events, p.webhookPayloads, p.clock),
  deliverWebhooks: new DeliverWebhooks(p.deliveries, p.webhooks, p.webhookSender, p.webhookSettings, p.clock),
});

export type WebhookUseCases = ReturnType<typeof webhookUseCases>;
