import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { changeWebhookEndpoint, type WebhookEndpoint, type WebhookEndpointChanges } from '../../domain/webhook';
import { webhookNotFound, type WebhookNotFound, type WebhookUrlNotAllowed } from '../shared/errors';
import type { Clock } from '../ports/clock';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import type { WebhookUrlPolicy } from '../ports/webhook-url-policy';
import { changeStoredEndpoint } from './stored-webhook-endpoint';

export class UpdateWebhook {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly urls: WebhookUrlPolicy,
    private readonly clock: Clock,
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
