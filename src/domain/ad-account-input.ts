import {
  ACCOUNT_ID_RULES,
  AD_PLATFORM_LABELS,
  CONVERSION_TARGET_FIELD,
  CREDENTIAL_FIELDS,
  normalAccountId,
  type AdCredentials,
  type AdPlatformName,
  type ConversionSettings,
} from './ad-account';

/** What is wrong with one field of an ad account's input, by its path (`credentials.refreshToken`). */
export interface InputProblem {
  readonly path: string;
  readonly message: string;
}

type Result<A> = { readonly ok: A } | { readonly problems: readonly InputProblem[] };

const ALL_CREDENTIAL_FIELDS = ['accessToken', 'developerToken', 'clientId', 'clientSecret', 'refreshToken', 'loginCustomerId'] as const;

/** The account id as the platform's API takes it, or why the given one cannot be one. */
export const accountIdFor = (platform: AdPlatformName, given: string): Result<string> => {
  const id = normalAccountId(platform, given);
  return id === undefined ? { problems: [{ path: 'accountId', message: `must be ${ACCOUNT_ID_RULES[platform]}` }] } : { ok: id };
};

/**
 * The platform's credentials out of fields each already checked for its form: every one the platform
 * needs, none it does not take.
 */
export const credentialsFor = (platform: AdPlatformName, given: Readonly<Partial<Record<string, string>>>): Result<AdCredentials> => {
  const label = AD_PLATFORM_LABELS[platform];
  const required = CREDENTIAL_FIELDS[platform];
  const optional: readonly string[] = platform === 'google' ? ['loginCustomerId'] : [];
  const problems: InputProblem[] = [
    ...required
      .filter((name) => given[name] === undefined)
      .map((name) => ({ path: `credentials.${name}`, message: `is required for ${label}` })),
    ...ALL_CREDENTIAL_FIELDS.filter((name) => given[name] !== undefined && !required.includes(name) && !optional.includes(name)).map(
      (name) => ({
        path: `credentials.${name}`,
        message: `is not a credential ${label} takes`,
      }),
    ),
  ];
  if (problems.length > 0) return { problems };
  const credentials = Object.fromEntries(
    [...required, ...optional].filter((name) => given[name] !== undefined).map((name) => [name, given[name]]),
  );
  return { ok: credentials as unknown as AdCredentials };
};

export interface ConversionsInput {
  readonly enabled: boolean;
  readonly pixelId?: string;
  readonly conversionAction?: string;
  readonly pixelCode?: string;
  readonly testEventCode?: string;
  readonly validateOnly?: boolean;
}

type ConversionTextField = 'pixelId' | 'conversionAction' | 'pixelCode' | 'testEventCode';

/**
 * The form each platform's conversion fields take, as its screens show them, said with an example:
 * the refusals of the API and of the console, and the API's document, read them from here.
 */
export const CONVERSION_FIELD_FORMS: Readonly<Record<ConversionTextField, { readonly pattern: RegExp; readonly form: string }>> = {
  pixelId: { pattern: /^\d{1,20}$/, form: "the dataset's id: digits, as Meta's Events Manager shows it (1234567890123456)" },
  conversionAction: {
    pattern: /^(\d{1,20}|customers\/\d{10}\/conversionActions\/\d{1,20})$/,
    form: "the conversion action's id (987654321) or its resource name (customers/1234567890/conversionActions/987654321)",
  },
  pixelCode: {
    pattern: /^[A-Z0-9]{1,64}$/,
    form: "the pixel's code: capital letters and digits, as TikTok's Events Manager shows it (C4ABCDEFGH12345678IJ)",
  },
  testEventCode: {
    pattern: /^[A-Za-z0-9]{1,64}$/,
    form: "the code the platform's Test events view shows: letters and digits (TEST12345)",
  },
};

const formProblem = (name: ConversionTextField, value: string | undefined): InputProblem[] =>
  value === undefined || CONVERSION_FIELD_FORMS[name].pattern.test(value)
    ? []
    : [{ path: `conversions.${name}`, message: `must be ${CONVERSION_FIELD_FORMS[name].form}` }];

/**
 * The conversion settings in the platform's own field, and only it, each field of its form; Google has
 * no test event code (it validates instead), the others no `validateOnly`.
 */
export const conversionsFor = (platform: AdPlatformName, given: ConversionsInput): Result<ConversionSettings> => {
  const label = AD_PLATFORM_LABELS[platform];
  const own = CONVERSION_TARGET_FIELD[platform];
  const others = (['pixelId', 'conversionAction', 'pixelCode'] as const).filter((name) => name !== own && given[name] !== undefined);
  const target = given[own];
  const problems: InputProblem[] = [
    ...(target === undefined
      ? [{ path: `conversions.${own}`, message: `is required for ${label}: ${CONVERSION_FIELD_FORMS[own].form}` }]
      : formProblem(own, target)),
    ...others.map((name) => ({ path: `conversions.${name}`, message: `is not a field of ${label}: it takes ${own}` })),
    ...(platform === 'google' && given.testEventCode !== undefined
      ? [{ path: 'conversions.testEventCode', message: 'Google Ads has no test event code: its test mode is validateOnly' }]
      : formProblem('testEventCode', given.testEventCode)),
    ...(platform !== 'google' && given.validateOnly !== undefined
      ? [{ path: 'conversions.validateOnly', message: `${label} has no validateOnly: its test mode is testEventCode` }]
      : []),
  ];
  if (problems.length > 0 || target === undefined) return { problems };
  return {
    ok: {
      enabled: given.enabled,
      target,
      ...(given.testEventCode === undefined ? {} : { testEventCode: given.testEventCode }),
      ...(given.validateOnly === true ? { validateOnly: true } : {}),
    },
  };
};

/** Every problem of the results at once, or their values. */
export const problemsOf = (...results: readonly Result<unknown>[]): readonly InputProblem[] =>
  results.flatMap((result) => ('problems' in result ? result.problems : []));
