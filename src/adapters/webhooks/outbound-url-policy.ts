import * as E from 'fp-ts/Either';
import type { WebhookUrlNotAllowed } from '../../application/shared/errors';
import type { WebhookUrlPolicy } from '../../application/ports/webhook-url-policy';
import { hostOf, isIpLiteral, refusedAddress, resolveAll, type Resolver } from './outbound-addresses';

export interface OutboundOptions {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: lifts every rule, `http://` included (development and tests only). */
  readonly allowPrivateUrls: boolean;
  readonly resolver: Resolver;
  /** How long a host name may take to resolve when an endpoint is saved; past it the URL is refused. */
  readonly resolveTimeoutMs?: number;
}

const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

const refused = (reason: string): E.Either<WebhookUrlNotAllowed, void> => E.left({ _tag: 'WebhookUrlNotAllowed', reason });

/** The way out of a refusal the setting explains, for a service in development (decision 0024). */
export const PRIVATE_URLS_HINT =
  'only public addresses may be reached, unless the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true (development and tests only)';

/**
 * The check of a URL when an endpoint is saved (decision 0012): `https://` only, and a host that is,
 * or resolves only to, public unicast addresses. It fails closed: a host that does not resolve is
 * refused. Every connection is checked again (HttpWebhookSender), on the address actually used, since
 * what a name resolves to can change after it was saved (DNS rebinding).
 */
export class OutboundUrlPolicy implements WebhookUrlPolicy {
  constructor(private readonly options: OutboundOptions) {}

  async check(url: string): Promise<E.Either<WebhookUrlNotAllowed, void>> {
    if (this.options.allowPrivateUrls) return E.right(undefined);
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') {
      return refused(
        'The URL must be https:// (http:// is allowed only when the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true, for development)',
      );
    }
    const host = hostOf(parsed);
    if (isIpLiteral(host)) {
      const why = refusedAddress(host);
      return why === undefined ? E.right(undefined) : refused(`The URL's address ${host} is ${why}: ${PRIVATE_URLS_HINT}`);
    }
    let addresses: { address: string }[];
    try {
      addresses = await resolveAll(this.options.resolver, host, this.options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS);
    } catch {
      return refused(`The URL's host ${host} does not resolve`);
    }
    if (addresses.length === 0) return refused(`The URL's host ${host} does not resolve`);
    for (const { address } of addresses) {
      const why = refusedAddress(address);
      if (why !== undefined) return refused(`The URL's host ${host} resolves to ${address}, ${why}: ${PRIVATE_URLS_HINT}`);
    }
    return E.right(undefined);
  }
}
