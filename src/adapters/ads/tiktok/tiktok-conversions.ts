import type { ConversionPlatform, ConversionRequest, ConversionSent } from '../../../application/ports/conversion-platform';
import type { TikTokCredentials } from '../../../domain/ad-account';
import type { Conversion } from '../../../domain/conversion';
import { sendConversion, type Judged } from '../conversion-client';
import { field, textField, type PlatformResponse } from '../platform-client';
import { TIKTOK_API_VERSION } from './tiktok-ads';

export interface TikTokConversionSettings {
  /** TIKTOK_API_URL. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

/** TikTok's code for too many requests; from 50000 its own failures (tried again). */
const RATE_LIMIT_CODE = 40_100;
/** Codes of a token that is invalid, expired or lacks the permission: new credentials fix them. */
const ACCESS_CODES = [40_001, 40_002, 40_104, 40_105, 40_106];

/**
 * A purchase as TikTok's Events API 2.0 takes it (`event/track`, "Report Web Events" in
 * https://business-api.tiktok.com/portal/docs): `CompletePayment` at the unix time it was paid, the
 * order's id as `event_id` (deduplicated with a pixel's `event_id`), and in `user` the `ttclid` and
 * the email and phone already normalised and SHA-256 hashed.
 */
export const tiktokEvent = (conversion: Conversion) => ({
  event: 'CompletePayment',
  event_time: Math.floor(conversion.occurredAt.getTime() / 1000),
  event_id: conversion.orderId,
  user: {
    ...(conversion.click?.name === 'ttclid' ? { ttclid: conversion.click.value } : {}),
    ...(conversion.hashedEmail === undefined ? {} : { email: conversion.hashedEmail }),
    ...(conversion.hashedPhone === undefined ? {} : { phone: conversion.hashedPhone }),
  },
  properties: { currency: conversion.currency, value: conversion.valueCents / 100, order_id: conversion.externalId },
});

/**
 * TikTok's Events API: `POST /open_api/v1.3/event/track/` with `{ event_source: "web",
 * event_source_id: <pixel code>, test_event_code?, data: [event] }`, the token in `Access-Token`.
 * TikTok answers 200 with `{ code, message, request_id }`, `code` 0 when it took the event.
 */
export class TikTokConversions implements ConversionPlatform<'tiktok'> {
  constructor(private readonly settings: TikTokConversionSettings) {}

  send(request: ConversionRequest, credentials: TikTokCredentials, signal: AbortSignal): Promise<ConversionSent> {
    const { settings, conversion } = request;
    const body = {
      event_source: 'web',
      event_source_id: settings.target,
      ...(settings.testEventCode === undefined ? {} : { test_event_code: settings.testEventCode }),
      data: [tiktokEvent(conversion)],
    };
    return sendConversion(
      'TikTok',
      {
        url: `${this.settings.baseUrl}/open_api/${TIKTOK_API_VERSION}/event/track/`,
        headers: { 'content-type': 'application/json', 'Access-Token': credentials.accessToken },
        body: JSON.stringify(body),
      },
      judge,
      this.settings.timeoutMs,
      signal,
    );
  }
}

const judge = (response: PlatformResponse): Judged => {
  const code = field(response.json, 'code');
  const said = textField(response.json, 'message');
  if (typeof code !== 'number' || said === undefined) {
    return { kind: 'unavailable', message: `TikTok answered ${response.status} in a form the service cannot read` };
  }
  if (code === 0 && response.status === 200) return { kind: 'accepted' };
  const message = `TikTok: ${said} (code ${code})`;
  if (code === RATE_LIMIT_CODE || response.status === 429 || code >= 50_000 || response.status >= 500)
    return { kind: 'unavailable', message };
  return { kind: 'refused', message, final: !ACCESS_CODES.includes(code) };
};
