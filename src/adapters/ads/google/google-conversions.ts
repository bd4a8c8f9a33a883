import * as E from 'fp-ts/Either';
import type { ConversionPlatform, ConversionRequest, ConversionSent } from '../../../application/ports/conversion-platform';
import type { GoogleCredentials } from '../../../domain/ad-account';
import type { Conversion } from '../../../domain/conversion';
import { sendConversion, type Judged } from '../conversion-client';
import { field, items, textField, type PlatformClientSettings, type PlatformResponse } from '../platform-client';
import { GOOGLE_ADS_API_VERSION, googleAccessToken, judgeError } from './google-ads';

export interface GoogleConversionSettings extends PlatformClientSettings {
  /** GOOGLE_ADS_API_URL. */
  readonly baseUrl: string;
  /** GOOGLE_OAUTH_URL. */
  readonly oauthUrl: string;
}

/** Google's date and time of a conversion: `yyyy-mm-dd hh:mm:ss+|-hh:mm`, here always in UTC (`+00:00`). */
export const googleDateTime = (at: Date): string => `${at.toISOString().slice(0, 19).replace('T', ' ')}+00:00`;

/** The conversion action's resource name: `customers/<id>/conversionActions/<action id>`, from its id or the name itself. */
export const conversionActionName = (customerId: string, target: string): string =>
  /^\d+$/.test(target) ? `customers/${customerId}/conversionActions/${target}` : target;

/** A click conversion as `uploadClickConversions` takes it: the click id, the action, when, how much, and the order id. */
export const googleClickConversion = (customerId: string, target: string, conversion: Conversion) => ({
  ...(conversion.click === undefined ? {} : { [conversion.click.name]: conversion.click.value }),
  conversionAction: conversionActionName(customerId, target),
  conversionDateTime: googleDateTime(conversion.occurredAt),
  conversionValue: conversion.valueCents / 100,
  currencyCode: conversion.currency,
  orderId: conversion.orderId,
});

/** A retraction as `uploadConversionAdjustments` takes it: the purchase found by its order id, taken back whole. */
export const googleRetraction = (customerId: string, target: string, conversion: Conversion) => ({
  conversionAction: conversionActionName(customerId, target),
  adjustmentType: 'RETRACTION',
  adjustmentDateTime: googleDateTime(conversion.occurredAt),
  orderId: conversion.orderId,
});

/** Errors a person fixes with new credentials or access: the upload is tried again on the schedule. */
const ACCESS_STATUSES = ['UNAUTHENTICATED', 'PERMISSION_DENIED'];

/**
 * Google Ads' conversion uploads over REST: a purchase with `customers/<id>:uploadClickConversions`
 * (https://developers.google.com/google-ads/api/docs/conversions/upload-clicks), a refund or a
 * chargeback as a `RETRACTION` with `customers/<id>:uploadConversionAdjustments`
 * (https://developers.google.com/google-ads/api/docs/conversions/upload-adjustments), both with
 * `partialFailure: true` (Google requires it) and `validateOnly` in test mode. Google answers 200 even
 * when it refused the conversion: the refusal is in `partialFailureError`.
 */
export class GoogleConversions implements ConversionPlatform<'google'> {
  constructor(private readonly settings: GoogleConversionSettings) {}

  async send(request: ConversionRequest, credentials: GoogleCredentials, signal: AbortSignal): Promise<ConversionSent> {
    const started = Date.now();
    const token = await googleAccessToken(this.settings, credentials, signal);
    if (E.isLeft(token)) {
      const failure = token.left;
      return {
        durationMs: Date.now() - started,
        result:
          failure.kind === 'needsAttention'
            ? { kind: 'refused', message: failure.message, final: false }
            : {
                kind: 'unavailable',
                message: failure.message,
                ...(failure.retryAfterMs === undefined ? {} : { waitMs: failure.retryAfterMs }),
              },
      };
    }
    const { accountId, settings, conversion } = request;
    const purchase = conversion.kind === 'purchase';
    const body = {
      ...(purchase
        ? { conversions: [googleClickConversion(accountId, settings.target, conversion)] }
        : { conversionAdjustments: [googleRetraction(accountId, settings.target, conversion)] }),
      partialFailure: true,
      validateOnly: settings.validateOnly === true,
    };
    const sent = await sendConversion(
      'Google Ads',
      {
        url: `${this.settings.baseUrl}/${GOOGLE_ADS_API_VERSION}/customers/${encodeURIComponent(accountId)}:${purchase ? 'uploadClickConversions' : 'uploadConversionAdjustments'}`,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token.right}`,
          'developer-token': credentials.developerToken,
          ...(credentials.loginCustomerId === undefined ? {} : { 'login-customer-id': credentials.loginCustomerId.replace(/-/g, '') }),
        },
        body: JSON.stringify(body),
      },
      judge,
      this.settings.timeoutMs,
      signal,
    );
    return { ...sent, durationMs: Date.now() - started };
  }
}

const judge = (response: PlatformResponse): Judged => {
  if (response.status === 200) {
    const partial = field(response.json, 'partialFailureError');
    if (partial === undefined || partial === null) return { kind: 'accepted' };
    const failures = items(field(partial, 'details')).flatMap((detail) => items(field(detail, 'errors')));
    const said = textField(failures[0], 'message') ?? textField(partial, 'message') ?? 'refused the conversion';
    const code = Object.values((field(failures[0], 'errorCode') as Record<string, unknown> | undefined) ?? {}).map(String)[0];
    const message = `Google Ads: ${said}${code === undefined ? '' : ` (${code})`}`;
    // "Try importing again in 6 hours": the action was created moments ago.
    if (code === 'TOO_RECENT_CONVERSION_ACTION') return { kind: 'unavailable', message, waitMs: 6 * 3_600_000 };
    return { kind: 'refused', message, final: true };
  }
  const verdict = judgeError(response);
  if ('retry' in verdict)
    return { kind: 'unavailable', message: verdict.retry, ...(verdict.waitMs === undefined ? {} : { waitMs: verdict.waitMs }) };
  if (verdict.fail.kind === 'unavailable') return { kind: 'unavailable', message: verdict.fail.message };
  const status = textField(field(response.json, 'error'), 'status');
  const access = response.status === 401 || response.status === 403 || (status !== undefined && ACCESS_STATUSES.includes(status));
  return { kind: 'refused', message: verdict.fail.message, final: !access };
};
