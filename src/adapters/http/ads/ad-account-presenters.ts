import { CONVERSION_TARGET_FIELD, type AdAccount } from '../../../domain/ad-account';
import type { ConversionDelivery } from '../../../domain/conversion';

/** The platform's refusal of the last conversion, while the account sends them. */
const problemOf = (account: AdAccount) => (account.conversions?.enabled === true ? account.conversionProblem : undefined);

/** An ad account as the API shows it: never its credentials, sealed or not. */
export const adAccountView = (account: AdAccount) => {
  const problem = problemOf(account);
  return {
    id: account.id,
    platform: account.platform,
    name: account.name,
    accountId: account.accountId,
    campaignKey: account.campaignKey,
    utmSource: account.utmSource,
    conversions:
      account.conversions === undefined
        ? null
        : {
            enabled: account.conversions.enabled,
            [CONVERSION_TARGET_FIELD[account.platform]]: account.conversions.target,
            ...(account.conversions.testEventCode === undefined ? {} : { testEventCode: account.conversions.testEventCode }),
            ...(account.conversions.validateOnly === true ? { validateOnly: true } : {}),
            status: problem === undefined ? ('ok' as const) : ('needsAttention' as const),
            message: problem?.message ?? null,
            failingSince: problem?.since.toISOString() ?? null,
          },
    status: problem === undefined ? account.sync.status : ('needsAttention' as const),
    message: account.sync.message ?? problem?.message ?? null,
    lastSyncedAt: account.sync.lastSyncedAt?.toISOString() ?? null,
    failingSince: account.sync.failingSince?.toISOString() ?? null,
    nextSyncAt: account.sync.nextSyncAt.toISOString(),
    currency: account.sync.currency ?? null,
    timeZone: account.sync.timeZone ?? null,
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  };
};

/** What was sent to match the buyer, by name: never the values. */
const matchedBy = (conversion: ConversionDelivery['conversion']) => [
  ...(conversion.click === undefined ? [] : [conversion.click.name]),
  ...(conversion.hashedEmail === undefined ? [] : ['email' as const]),
  ...(conversion.hashedPhone === undefined ? [] : ['phone' as const]),
];

/** A conversion as the log shows it: what was sent, without the hashes, and each attempt with the platform's reply. */
export const conversionView = (delivery: ConversionDelivery) => ({
  id: delivery.id,
  orderId: delivery.conversion.orderId,
  externalId: delivery.conversion.externalId,
  event: delivery.conversion.kind,
  status: delivery.status,
  occurredAt: delivery.conversion.occurredAt.toISOString(),
  valueCents: delivery.conversion.valueCents,
  currency: delivery.conversion.currency,
  matchedBy: matchedBy(delivery.conversion),
  attempts: delivery.attempts.map((attempt) => ({
    at: attempt.at.toISOString(),
    durationMs: attempt.durationMs,
    outcome: attempt.outcome,
    test: attempt.test,
    responseStatus: attempt.responseStatus ?? null,
    reply: attempt.reply ?? null,
    message: attempt.message ?? null,
  })),
  nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  createdAt: delivery.createdAt.toISOString(),
});
