import type { Either } from 'fp-ts/Either';
import type { WebhookUrlNotAllowed } from '../shared/errors';

/** Which URLs the service may send webhooks to (decision 0012, outbound safety). */
export interface WebhookUrlPolicy {
  /**
   * Right when `url` (already well-formed) may be saved: its scheme is allowed and its host is, or
   * resolves only to, addresses the service may reach. Fails closed: a host that does not resolve is
   * refused. Never rejects.
   */
  check(url: string): Promise<Either<WebhookUrlNotAllowed, void>>;
}
