import { createHash } from 'node:crypto';
import type { AdAccount } from '../../domain/ad-account';
import {
  clickIdOf,
  contactsOf,
  conversionKindOf,
  KINDS_SENT,
  MAX_EVENT_AGE_MS,
  newConversionDelivery,
  normalEmail,
  occurredAtOf,
  platformPhone,
  type Conversion,
  type ConversionDelivery,
} from '../../domain/conversion';
import type { IdGenerator } from '../ports/id-generator';
import type { OrderEvent } from '../ports/order-repository';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * What `account`'s platform is to be told of `event`, or undefined when nothing: an order event
 * other than paid, refunded or charged back, a test order, a kind the platform does not take, or an
 * order the platform could not match to anyone (Google without one of its click ids; Meta and TikTok
 * without a click id, an email or a phone), or one older than the platform takes. The buyer's email and phone are normalised as the
 * platform documents and hashed here: their plain text is never stored with the delivery.
 */
export const conversionOf = (event: OrderEvent, account: AdAccount, now: Date): Conversion | undefined => {
  const kind = conversionKindOf(event.type);
  const { order } = event;
  if (kind === undefined || order.isTest || !KINDS_SENT[account.platform].includes(kind)) return undefined;
  const click = clickIdOf(order, account.platform);
  const contacts = contactsOf(order);
  const email = account.platform === 'google' || contacts.email === undefined ? undefined : normalEmail(contacts.email);
  const phone = account.platform === 'google' || contacts.phone === undefined ? undefined : platformPhone(account.platform, contacts.phone);
  if (click === undefined && (account.platform === 'google' || (email === undefined && phone === undefined))) return undefined;
  const occurredAt = occurredAtOf(order, kind);
  const maxAge = MAX_EVENT_AGE_MS[account.platform];
  if (maxAge !== undefined && now.getTime() - occurredAt.getTime() > maxAge) return undefined;
  return {
    kind,
    orderId: order.id,
    externalId: order.externalId,
    occurredAt,
    valueCents: order.amounts.grossCents,
    currency: order.amounts.currency,
    ...(click === undefined ? {} : { click }),
    ...(email === undefined ? {} : { hashedEmail: sha256(email) }),
    ...(phone === undefined ? {} : { hashedPhone: sha256(phone) }),
  };
};

/** The conversion deliveries `events` make for the accounts that send conversions, one per event and account. */
export const conversionDeliveriesOf = (
  events: readonly OrderEvent[],
  accounts: readonly AdAccount[],
  ids: IdGenerator,
  now: Date,
): ConversionDelivery[] =>
  accounts
    .filter((account) => account.conversions?.enabled === true)
    .flatMap((account) =>
      events.flatMap((event) => {
        const conversion = conversionOf(event, account, now);
        return conversion === undefined
          ? []
          : [
              newConversionDelivery(
                {
                  id: ids.next('cnv'),
                  dashboardId: account.dashboardId,
                  adAccountId: account.id,
                  platform: account.platform,
                  eventId: event.id,
                  conversion,
                },
                now,
              ),
            ];
      }),
    );
