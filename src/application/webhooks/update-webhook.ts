import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import { changeWebhookEndpoint, type WebhookEndpoint, type WebhookEndpointChanges } from '../../domain/webhook';
import { webhookNotFound, type WebhookNotFound, type WebhookUrlNotAllowed } from '../shared/errors';
import { CLOCK, type Clock } from '../ports/clock';
import { WEBHOOK_ENDPOINTS, type WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import { WEBHOOK_URL_POLICY, type WebhookUrlPolicy } from '../ports/webhook-url-policy';
import { changeStoredEndpoint } from './stored-webhook-endpoint';

@injectable()
export class UpdateWebhook {
  constructor(
    @inject(WEBHOOK_ENDPOINTS) private readonly endpoints: WebhookEndpointRepository,
    @inject(WEBHOOK_URL_POLICY) private readonly urls: WebhookUrlPolicy,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Changes the given fields; a new URL must pass the outbound rules. Enabling an endpoint clears the
   * reason it was disabled for. Concurrent changes never lose a write.
   */
  async execute(
    dashboardId: string,
    id: string,
    changes: WebhookEndpointChanges,
  ): Promise<E.Either<WebhookNotFound | WebhookUrlNotAllowed, WebhookEndpoint>> {
    // Found first: another dashboard's endpoint is not found, whatever the URL sent.
    if (O.isNone(await this.endpoints.find(dashboardId, id))) return E.left(webhookNotFound(id));
    if (changes.url !== undefined) {
      const allowed = await this.urls.check(changes.url);
      if (E.isLeft(allowed)) return allowed;
    }
    const changed = await changeStoredEndpoint(this.endpoints, dashboardId, id, (current) =>
      changeWebhookEndpoint(current, changes, this.clock.now()),
    );
    return E.fromOption(() => webhookNotFound(id))(changed);
  }
}
