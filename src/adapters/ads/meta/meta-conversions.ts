import type { ConversionPlatform, ConversionRequest, ConversionSent } from '../../../application/ports/conversion-platform';
import type { MetaCredentials } from '../../../domain/ad-account';
import { metaFbc, type Conversion } from '../../../domain/conversion';
import { sendConversion, type Judged } from '../conversion-client';
import { field, type PlatformResponse } from '../platform-client';
import { judgeError, META_API_VERSION } from './meta-ads';

export interface MetaConversionSettings {
  /** META_API_URL. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

/** Codes Meta answers for a token that no longer works or a permission the system user lacks: new credentials fix them. */
const isAccessCode = (code: number): boolean => code === 190 || code === 102 || code === 10 || (code >= 200 && code <= 299);

/** An amount of cents as the decimal number Meta's and TikTok's `value` is. */
export const decimalValue = (cents: number): number => cents / 100;

/**
 * The server event of a purchase, as Meta's Conversions API takes it
 * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters): `Purchase`, the
 * unix time it was paid, the order's id as `event_id` (a browser pixel that sends the same `eventID`
 * is deduplicated with it), `action_source` `website`, and in `user_data` what matches the buyer:
 * `em` and `ph` already normalised and SHA-256 hashed, `fbc` built from the `fbclid`. No IP address or
 * user agent: the service never sees the buyer's browser.
 */
export const metaEvent = (conversion: Conversion) => ({
  event_name: 'Purchase',
  event_time: Math.floor(conversion.occurredAt.getTime() / 1000),
  event_id: conversion.orderId,
  action_source: 'website',
  user_data: {
    ...(conversion.hashedEmail === undefined ? {} : { em: [conversion.hashedEmail] }),
    ...(conversion.hashedPhone === undefined ? {} : { ph: [conversion.hashedPhone] }),
    ...(conversion.click?.name === 'fbclid'
      ? { fbc: metaFbc(conversion.click.value, conversion.click.capturedAt ?? conversion.occurredAt) }
      : {}),
  },
  custom_data: { value: decimalValue(conversion.valueCents), currency: conversion.currency, order_id: conversion.externalId },
});

/**
 * Meta's Conversions API: `POST /<version>/<dataset (pixel) id>/events` with `{ data: [event],
 * test_event_code?, access_token }` as JSON, the token in the body so that no URL carries it. Meta
 * answers `{ events_received, messages, fbtrace_id }`, or its error body
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling).
 */
export class MetaConversions implements ConversionPlatform<'meta'> {
  constructor(private readonly settings: MetaConversionSettings) {}

  send(request: ConversionRequest, credentials: MetaCredentials, signal: AbortSignal): Promise<ConversionSent> {
    const { settings, conversion } = request;
    const body = {
      data: [metaEvent(conversion)],
      ...(settings.testEventCode === undefined ? {} : { test_event_code: settings.testEventCode }),
      access_token: credentials.accessToken,
    };
    return sendConversion(
      'Meta',
      {
        url: `${this.settings.baseUrl}/${META_API_VERSION}/${encodeURIComponent(settings.target)}/events`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      judge,
      this.settings.timeoutMs,
      signal,
    );
  }
}

const judge = (response: PlatformResponse): Judged => {
  if (response.status === 200 && Number(field(response.json, 'events_received')) >= 1) return { kind: 'accepted' };
  if (response.status === 200) return { kind: 'refused', message: 'Meta received no event of the request', final: true };
  const verdict = judgeError(response);
  if ('retry' in verdict)
    return { kind: 'unavailable', message: verdict.retry, ...(verdict.waitMs === undefined ? {} : { waitMs: verdict.waitMs }) };
  if (verdict.fail.kind === 'unavailable') return { kind: 'unavailable', message: verdict.fail.message };
  const code = Number(field(field(response.json, 'error'), 'code'));
  return { kind: 'refused', message: verdict.fail.message, final: !isAccessCode(code) };
};
