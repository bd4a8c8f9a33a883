import * as E from 'fp-ts/Either';
import { MAX_WEBHOOKS_PER_DASHBOARD, newWebhookEndpoint, type NewWebhookEndpoint, type WebhookEndpoint } from '../../domain/webhook';
import type { WebhookLimitReached, WebhookUrlNotAllowed } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookSecrets } from '../ports/webhook-secrets';
import type { WebhookUrlPolicy } from '../ports/webhook-url-policy';

export class CreateWebhook {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly secrets: WebhookSecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /**
   * Registers an endpoint in the dashboard, with a new secret (the answer is the one place it is
   * shown besides a rotation). The URL must pass the outbound rules; the dashboard must have room
   * (the store's insert settles races on the last place).
   */
  async execute(
    dashboardId: string,
    input: NewWebhookEndpoint,
  ): Promise<E.Either<WebhookUrlNotAllowed | WebhookLimitReached, WebhookEndpoint>> {
    const allowed = await this.urls.check(input.url);
    if (E.isLeft(allowed)) return allowed;
    const endpoint = newWebhookEndpoint(input, { id: this.ids.next('whk'), dashboardId }, this.secrets.generate(), this.clock.now());
    if (!(await this.endpoints.insert(endpoint, MAX_WEBHOOKS_PER_DASHBOARD))) {
      return E.left({ _tag: 'WebhookLimitReached', limit: MAX_WEBHOOKS_PER_DASHBOARD });
    }
    return E.right(endpoint);
  }
}
