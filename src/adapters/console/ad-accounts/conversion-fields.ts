import {
  AD_PLATFORM_LABELS,
  CONVERSION_TARGET_FIELD,
  MAX_CONVERSION_FIELD_LENGTH,
  type AdPlatformName,
  type ConversionSettings,
} from '../../../domain/ad-account';
import { CONVERSION_FIELD_FORMS, conversionsFor, type InputProblem } from '../../../domain/ad-account-input';
import { CLICK_IDS_OF, KINDS_SENT } from '../../../domain/conversion';
import { checkField, textField, type FormProblem } from '../kit/fields';
import type { FormFields } from '../kit/forms';
import { asSentence } from '../kit/format';
import { html, type Html } from '../kit/html';
import { field } from '../kit/router';

/** The switch's field: sent as `on` when purchases are to be sent. */
const SWITCH = 'sendPurchases';

/** What the conversion fields hold: an account's settings, or what a refused form had typed. */
export interface ConversionFieldValues {
  readonly enabled: boolean;
  readonly target: string;
  readonly testEventCode: string;
  readonly validateOnly: boolean;
}

/** The fields' labels, by the API's names of the fields, which the form's inputs carry too. */
export const CONVERSION_FIELD_LABELS: Readonly<Record<string, string>> = {
  pixelId: 'Dataset (pixel) id',
  conversionAction: 'Conversion action',
  pixelCode: 'Pixel code',
  testEventCode: 'Test event code',
  validateOnly: 'Validate only',
};

export const conversionValuesOf = (settings: ConversionSettings | undefined): ConversionFieldValues => ({
  enabled: settings?.enabled ?? false,
  target: settings?.target ?? '',
  testEventCode: settings?.testEventCode ?? '',
  validateOnly: settings?.validateOnly ?? false,
});

/** What the form holds for `platform`: its own fields only, as typed (trimmed). */
export const typedConversionValues = (platform: AdPlatformName, form: FormFields): ConversionFieldValues => ({
  enabled: form.get(SWITCH) === 'on',
  target: field(form, CONVERSION_TARGET_FIELD[platform]),
  testEventCode: platform === 'google' ? '' : field(form, 'testEventCode'),
  validateOnly: platform === 'google' && form.get('validateOnly') === 'on',
});

/**
 * The settings the fields ask for, checked as the API checks its body: `null` (none) when the switch
 * is off and nothing is typed, else settings that keep the pixel (action) while off.
 */
export const conversionsOfValues = (
  platform: AdPlatformName,
  values: ConversionFieldValues,
): { readonly ok: ConversionSettings | null } | { readonly problems: readonly InputProblem[] } => {
  if (!values.enabled && values.target === '' && values.testEventCode === '' && !values.validateOnly) return { ok: null };
  return conversionsFor(platform, {
    enabled: values.enabled,
    ...(values.target === '' ? {} : { [CONVERSION_TARGET_FIELD[platform]]: values.target }),
    ...(platform === 'google'
      ? { validateOnly: values.validateOnly }
      : values.testEventCode === ''
        ? {}
        : { testEventCode: values.testEventCode }),
  });
};

/** What leaves the service for each order, in the platform's terms (docs/ad-platforms.md, "What each platform receives"). */
const whatLeaves = (platform: AdPlatformName): string => {
  const clicks = CLICK_IDS_OF[platform].join(', ');
  const contacts =
    platform === 'google' ? 'no contact of the buyer' : 'the SHA-256 hashes of the buyer’s email and phone, never their plain text';
  return `the order’s id, number, value, currency and time, the click id of the buyer’s visit (${clicks}) and ${contacts}`;
};

const switchHelp = (platform: AdPlatformName): Html => {
  const label = AD_PLATFORM_LABELS[platform];
  const takesBack = KINDS_SENT[platform].length > 1;
  return html`<p>
      When on, each order that becomes paid from then on is sent to ${label}, server to server: ${whatLeaves(platform)}.
      ${takesBack ? 'A refund or chargeback then takes the purchase back (a retraction). ' : ''}Test orders never are, nor orders ${label}
      could not match to a visit${platform === 'google' ? '' : ' or a buyer'}.
    </p>
    <p>
      Send them only for buyers who agreed to this sharing for advertising measurement, as for ${label}’s pixel. What leaves and why: the
      manual’s Ad platforms page, <code>docs/ad-platforms.md</code>, “Personal data and consent”.
    </p>
    <p>
      Turned off, no order is sent from then on; the orders still waiting for an attempt are marked Not sent when it comes, unless the
      sending is on again by then. Waiting orders go with the settings of their attempt.
    </p>`;
};

/** The platform's test mode: Meta's and TikTok's test event code, Google's validation alone. */
const testModeField = (platform: AdPlatformName, values: ConversionFieldValues, problems: readonly FormProblem[]): Html =>
  platform === 'google'
    ? checkField('validateOnly', 'Validate only (Google’s test mode)', values.validateOnly, {
        problems,
        help: html`<p>Google checks each upload and records none. Uncheck it to send for real.</p>`,
      })
    : textField(
        'testEventCode',
        `${CONVERSION_FIELD_LABELS.testEventCode} (optional: ${AD_PLATFORM_LABELS[platform]}’s test mode)`,
        values.testEventCode,
        {
          maxlength: MAX_CONVERSION_FIELD_LENGTH,
          problems,
          help: html`<p>
            ${asSentence(CONVERSION_FIELD_FORMS.testEventCode.form)} Events sent with it show there and count nowhere; leave it empty to
            send for real.
          </p>`,
        },
      );

/**
 * Whether and where the account's purchases are sent: the switch, the platform's own field and its
 * test mode, with what leaves the service. The same on connecting and on the account's page.
 */
export const conversionFields = (platform: AdPlatformName, values: ConversionFieldValues, problems: readonly FormProblem[] = []): Html => {
  const own = CONVERSION_TARGET_FIELD[platform];
  return html`<fieldset class="fields" id="send-purchases">
    <legend>Purchases sent back</legend>
    ${checkField(SWITCH, `Send purchases to ${AD_PLATFORM_LABELS[platform]}`, values.enabled, {
      role: 'switch',
      problems,
      help: switchHelp(platform),
    })}
    ${textField(own, CONVERSION_FIELD_LABELS[own], values.target, {
      maxlength: MAX_CONVERSION_FIELD_LENGTH,
      problems,
      help: html`<p>${asSentence(CONVERSION_FIELD_FORMS[own].form)}</p>`,
    })}
    ${testModeField(platform, values, problems)}
  </fieldset>`;
};
