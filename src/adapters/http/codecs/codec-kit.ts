import * as t from 'io-ts';

/**
 * Small io-ts codecs that say what is wrong in words a client can act on, and an object codec that
 * refuses unknown keys instead of stripping them (as `t.exact` would) and reports every problem at
 * once. Paths come from the io-ts context, so nesting needs no extra code.
 */

export interface ValidationDetail {
  readonly path: string;
  readonly message: string;
}

const at = (c: t.Context, key: string, codec: t.Decoder<unknown, unknown>, actual: unknown): t.Context =>
  t.appendContext(c, key, codec, actual);

export const check = <A>(name: string, guard: (u: unknown) => u is A, message: string): t.Type<A, A, unknown> =>
  new t.Type<A, A, unknown>(name, guard, (u, c) => (guard(u) ? t.success(u) : t.failure(u, c, message)), t.identity);

const length = (s: string): number => [...s].length;

export const str = (min = 1, max = 255): t.Type<string, string, unknown> =>
  check(
    `string(${min}..${max})`,
    (u): u is string => typeof u === 'string' && length(u) >= min && length(u) <= max,
    `must be a string of ${min} to ${max} characters`,
  );

export const int = (min: number, max: number): t.Type<number, number, unknown> =>
  check(
    `integer(${min}..${max})`,
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= min && u <= max,
    `must be an integer from ${min} to ${max}`,
  );

export const bool = check('boolean', (u): u is boolean => typeof u === 'boolean', 'must be true or false');

export const oneOf = <V extends string>(values: readonly V[]): t.Type<V, V, unknown> =>
  check(
    values.join(' | '),
    (u): u is V => typeof u === 'string' && (values as readonly string[]).includes(u),
    `must be one of ${values.join(', ')}`,
  );

/** `base`, then a rule on what it decoded; the rule's failure is reported at the same path. */
export const refine = <A, O>(
  base: t.Type<A, O, unknown>,
  holds: (a: A) => boolean,
  message: string,
): t.Type<A, O, unknown> =>
  new t.Type<A, O, unknown>(
    base.name,
    (u): u is A => base.is(u) && holds(u),
    (u, c) => {
      const decoded = base.validate(u, c);
      if (decoded._tag === 'Left' || holds(decoded.right)) return decoded;
      return t.failure(u, c, message);
    },
    base.encode,
  );

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an ISO 8601 date-time with a timezone names, or undefined when the text is not one,
 * names no real calendar date (2026-02-30, 24:00, a 60th second), or falls outside the years 0000–9999
 * once in UTC.
 */
export const parseIsoInstant = (text: string): Date | undefined => {
  const m = ISO_DATE.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMinutes = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (hour > 23 || minute > 59 || second > 59 || Number(m[10] ?? 0) > 23 || Number(m[11] ?? 0) > 59) return undefined;
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  local.setUTCFullYear(year);
  if (local.getUTCMonth() !== month - 1 || local.getUTCDate() !== day) return undefined;
  const instant = new Date(local.getTime() - offsetMinutes * 60_000);
  // An offset can push a date at the edge of the calendar out of four-digit years in UTC.
  return instant.getUTCFullYear() >= 0 && instant.getUTCFullYear() <= 9999 ? instant : undefined;
};

/** An ISO 8601 date-time with a timezone, decoded to the instant it names. */
export const isoInstant = new t.Type<Date, string, unknown>(
  'IsoDateTimeWithTimezone',
  (u): u is Date => u instanceof Date,
  (u, c) => {
    if (typeof u !== 'string' || !ISO_DATE.test(u)) {
      return t.failure(u, c, 'must be an ISO 8601 date-time with a timezone, such as 2026-01-02T03:04:05Z');
    }
    const instant = parseIsoInstant(u);
    return instant === undefined ? t.failure(u, c, 'must be a real calendar date and time') : t.success(instant);
  },
  (d) => d.toISOString(),
);

type Props = Record<string, t.Mixed>;
type Decoded<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & {
  [K in keyof O]?: t.TypeOf<O[K]>;
};

export const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

/** An object with required and optional keys; any other key is an error, and so is `null`. */
export const strictObject = <R extends Props, O extends Props = Record<never, never>>(
  name: string,
  required: R,
  optional: O = {} as O,
): t.Type<Decoded<R, O>, unknown, unknown> =>
  new t.Type<Decoded<R, O>, unknown, unknown>(
    name,
    (u): u is Decoded<R, O> => isPlainObject(u),
    (u, c) => {
      if (!isPlainObject(u)) return t.failure(u, c, 'must be a JSON object');
      const errors: t.ValidationError[] = [];
      const out: Record<string, unknown> = {};
      const visit = (key: string, codec: t.Mixed, isRequired: boolean): void => {
        if (!Object.hasOwn(u, key)) {
          if (isRequired) errors.push({ value: undefined, context: at(c, key, codec, undefined), message: 'is required' });
          return;
        }
        const result = codec.validate(u[key], at(c, key, codec, u[key]));
        if (result._tag === 'Left') errors.push(...result.left);
        else out[key] = result.right;
      };
      for (const [key, codec] of Object.entries(required)) visit(key, codec, true);
      for (const [key, codec] of Object.entries(optional)) visit(key, codec, false);
      for (const key of Object.keys(u)) {
        if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) {
          errors.push({ value: u[key], context: at(c, key, t.never, u[key]), message: 'is not a known field' });
        }
      }
      return errors.length > 0 ? t.failures(errors) : t.success(out as Decoded<R, O>);
    },
    t.identity,
  );

/** An array of `min` to `max` items, each checked, with every item's problems reported. */
export const arrayOf = <C extends t.Mixed>(
  item: C,
  min: number,
  max: number,
): t.Type<t.TypeOf<C>[], unknown, unknown> =>
  new t.Type<t.TypeOf<C>[], unknown, unknown>(
    `array(${min}..${max})`,
    (u): u is t.TypeOf<C>[] => Array.isArray(u),
    (u, c) => {
      if (!Array.isArray(u) || u.length < min || u.length > max) {
        return t.failure(u, c, `must be an array of ${min} to ${max} items`);
      }
      const errors: t.ValidationError[] = [];
      const out: t.TypeOf<C>[] = [];
      u.forEach((value, index) => {
        const result = item.validate(value, at(c, String(index), item, value));
        if (result._tag === 'Left') errors.push(...result.left);
        else out.push(result.right);
      });
      return errors.length > 0 ? t.failures(errors) : t.success(out);
    },
    t.identity,
  );

/** One entry per problem, with a dotted path (`products.0.quantity`) under `prefix`. */
export const describeErrors = (errors: t.Errors, prefix = ''): ValidationDetail[] =>
  errors.map((error) => {
    const path = error.context
      .map((entry) => entry.key)
      .filter((key) => key !== '')
      .join('.');
    const full = [prefix, path].filter((part) => part !== '').join('.');
    return { path: full === '' ? '(body)' : full, message: error.message ?? 'is invalid' };
  });
