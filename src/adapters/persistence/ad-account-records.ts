import * as t from 'io-ts';
import type { ConversionSettings } from '../../domain/ad-account';

/** An account's conversion settings as stored (a JSON column, a sub-document), checked when read back. */
export const storedConversionsCodec = t.intersection([
  t.type({ enabled: t.boolean, target: t.string }),
  t.partial({ testEventCode: t.string }),
]);

export const storedConversions = (settings: t.TypeOf<typeof storedConversionsCodec>): ConversionSettings => ({
  enabled: settings.enabled,
  target: settings.target,
  ...(settings.testEventCode === undefined ? {} : { testEventCode: settings.testEventCode }),
});
