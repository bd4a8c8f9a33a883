import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { AD_PLATFORM_LABELS, isCredentialsOf, isTestMode, type AdAccount, type ConversionSettings } from '../../domain/ad-account';
import { syncMessage } from '../../domain/ad-spend';
import { afterConversionAttempt, failedUnsent, postponed, type ConversionResult, type ConversionStatus } from '../../domain/conversion';
import { credentialContext } from '../ads/credential-context';
import type { AdAccountRepository } from '../ports/ad-account-repository';
import type { Clock } from '../ports/clock';
import type { ClaimedConversion, ConversionRepository } from '../ports/conversion-repository';
import type { ConversionPlatforms, ConversionSent } from '../ports/conversion-platform';
import type { CredentialVault } from '../ports/credential-vault';
import type { IdGenerator } from '../ports/id-generator';
import { whileLeased } from '../shared/lease-renewal';

export interface ConversionSendingSettings {
  /** Seconds between attempts; as many retries as delays. */
  readonly retrySchedule: readonly number[];
  /** How long a claim holds unless renewed: short, so that the claims of a process that died end soon. */
  readonly leaseMs: number;
  /** How often an attempt in flight renews its claim: well within `leaseMs`. */
  readonly renewEveryMs: number;
}

interface Ids {
  readonly deliveryId: string;
  readonly adAccountId: string;
  readonly dashboardId: string;
}

/** What came of one claimed delivery, for the logs (never a credential, a body or a hash). */
export type ConversionReport =
  | (Ids & {
      readonly kind: 'attempted';
      readonly platform: string;
      readonly durationMs: number;
      readonly result: ConversionResult;
      readonly status: ConversionStatus;
      /** False when the lease had been taken over meanwhile: the other claimant records its own attempt. */
      readonly recorded: boolean;
    })
  /** Its account was disconnected: the delivery was dropped, unsent. */
  | (Ids & { readonly kind: 'dropped' })
  /** Not sent: the account's conversions are off, or the refund's purchase never reached the platform. */
  | (Ids & { readonly kind: 'skipped'; readonly reason: string })
  /** A refund whose purchase is still on its way: due again after it. */
  | (Ids & { readonly kind: 'postponed' })
  /** The service is stopping: the request was cut off and the delivery handed back, due as it was. */
  | (Ids & { readonly kind: 'aborted' });

/** How long a refund waits after its purchase's next attempt before it looks again. */
const AFTER_PURCHASE_MS = 1_000;

/**
 * The conversion senders' use case: claim a due delivery, send it to its account's platform with the
 * account's settings and credentials of the moment, record the attempt and schedule the next. A
 * refusal marks the account as needing attention, in the platform's words; the next accepted event
 * clears it. Claims are leases in the store, so several instances share the work.
 */
export class SendConversions {
  constructor(
    private readonly conversions: ConversionRepository,
    private readonly accounts: AdAccountRepository,
    private readonly platforms: ConversionPlatforms,
    private readonly vault: CredentialVault,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly settings: ConversionSendingSettings,
  ) {}

  /** The longest-due delivery of a dashboard not in `busyDashboards`, claimed. */
  claim(busyDashboards: readonly string[]): Promise<ClaimedConversion | undefined> {
    return this.conversions.claimDue({
      now: this.clock.now(),
      leaseMs: this.settings.leaseMs,
      leaseId: this.ids.next('lse'),
      skipDashboards: busyDashboards,
    });
  }

  async attempt(claimed: ClaimedConversion, signal: AbortSignal): Promise<ConversionReport> {
    const { delivery, lease } = claimed;
    const ids: Ids = { deliveryId: delivery.id, adAccountId: delivery.adAccountId, dashboardId: delivery.dashboardId };
    const found = await this.accounts.find(delivery.dashboardId, delivery.adAccountId);
    if (O.isNone(found)) {
      await this.conversions.discard(lease);
      return { kind: 'dropped', ...ids };
    }
    const account = found.value;
    const settings = account.conversions;
    const skip = async (reason: string): Promise<ConversionReport> => {
      await this.conversions.complete(lease, failedUnsent(delivery, this.clock.now(), reason));
      return { kind: 'skipped', ...ids, reason };
    };
    if (settings === undefined || !settings.enabled) return skip('Not sent: conversions are turned off for this account');
    if (delivery.conversion.kind !== 'purchase') {
      const purchase = await this.conversions.findOfOrder(account.id, delivery.conversion.orderId, 'purchase');
      if (purchase?.status === 'pending') {
        const after = Math.max(purchase.nextAttemptAt?.getTime() ?? 0, this.clock.now().getTime()) + AFTER_PURCHASE_MS;
        await this.conversions.complete(lease, postponed(delivery, new Date(after)));
        return { kind: 'postponed', ...ids };
      }
      if (purchase?.status !== 'succeeded') {
        return skip(
          `Not sent: the purchase of this order never reached ${AD_PLATFORM_LABELS[account.platform]}, so there is nothing to take back`,
        );
      }
    }
    const at = this.clock.now();
    let sent: ConversionSent;
    try {
      sent = await whileLeased(
        (until) => this.conversions.renew(lease, until),
        this.clock,
        this.settings,
        () => this.send(account, settings, delivery.conversion, signal),
      );
    } catch (err) {
      if (!signal.aborted) throw err;
      sent = { durationMs: 0, result: { kind: 'unavailable', message: 'cut off' } };
    }
    if (signal.aborted) {
      await this.conversions.release(lease);
      return { kind: 'aborted', ...ids };
    }
    const { result } = sent;
    const after = afterConversionAttempt(
      delivery,
      { at, durationMs: sent.durationMs, test: isTestMode(settings), result },
      this.settings.retrySchedule,
      Math.random(),
    );
    const recorded = await this.conversions.complete(lease, after);
    await this.recordProblem(account, result);
    return { kind: 'attempted', ...ids, platform: account.platform, durationMs: sent.durationMs, result, status: after.status, recorded };
  }

  /** Deletes the deliveries past their 30 days; resolves how many. */
  purgeExpired(): Promise<number> {
    return this.conversions.purgeExpired(this.clock.now());
  }

  /** A refusal says so on the account (once per message); an accepted event clears it. Outages leave it as it was. */
  private async recordProblem(account: AdAccount, result: ConversionResult): Promise<void> {
    const current = account.conversionProblem;
    if (result.kind === 'accepted' && current !== undefined) {
      await this.accounts.setConversionProblem(account.dashboardId, account.id, undefined);
    } else if (result.kind === 'refused') {
      const message = syncMessage(result.message);
      if (current?.message === message) return;
      await this.accounts.setConversionProblem(account.dashboardId, account.id, { message, since: current?.since ?? this.clock.now() });
    }
  }

  private async send(
    account: AdAccount,
    settings: ConversionSettings,
    conversion: ClaimedConversion['delivery']['conversion'],
    signal: AbortSignal,
  ): Promise<ConversionSent> {
    const opened = this.vault.open(account.sealedCredentials, credentialContext(account.dashboardId, account.id));
    const refused = (message: string): ConversionSent => ({ durationMs: 0, result: { kind: 'refused', message, final: false } });
    if (E.isLeft(opened)) return refused(`The credentials cannot be read: ${opened.left}`);
    const credentials = opened.right;
    const request = { accountId: account.accountId, settings, conversion };
    const unreadable = refused(`The stored credentials are not those ${AD_PLATFORM_LABELS[account.platform]} needs: enter them again`);
    switch (account.platform) {
      case 'meta':
        return isCredentialsOf('meta', credentials) ? this.platforms.meta.send(request, credentials, signal) : unreadable;
      case 'google':
        return isCredentialsOf('google', credentials) ? this.platforms.google.send(request, credentials, signal) : unreadable;
      case 'tiktok':
        return isCredentialsOf('tiktok', credentials) ? this.platforms.tiktok.send(request, credentials, signal) : unreadable;
    }
  }
}
