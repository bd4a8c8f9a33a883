import * as t from 'io-ts';
import { Documented, type JsonSchema, type SchemaWalker } from './json-schema';

/**
 * Small io-ts codecs that say what is wrong in words a client can act on, each with the JSON Schema
 * of what it accepts, built from the same numbers; and an object codec that refuses unknown keys
 * instead of stripping them (as `t.exact` would) and reports every problem at once. Paths come from
 * the io-ts context, so nesting needs no extra code.
 */

export interface ValidationDetail {
  readonly path: string;
  readonly message: string;
}

const at = (c: t.Context, key: string, codec: t.Decoder<unknown, unknown>, actual: unknown): t.Context =>
  t.appendContext(c, key, codec, actual);

/** A codec for the values `guard` accepts, described by `schema`. */
export const check = <A>(name: string, guard: (u: unknown) => u is A, message: string, schema: JsonSchema): Documented<A> =>
  new Documented<A>(
    name,
    guard,
    (u, c) => (guard(u) ? t.success(u) : t.failure(u, c, message)),
    t.identity,
    () => schema,
  );

/**
 * Whether `s` has `min` to `max` code points, counted only as far as needed: a string of more than
 * 2 × `max` UTF-16 units has more than `max` of them, so a huge one is refused without a walk.
 */
export const codePointsWithin = (s: string, min: number, max: number): boolean => {
  if (s.length < min || s.length > 2 * max) return false;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return false;
  }
  return count >= min;
};

/** A string of `min` to `max` characters (code points, as JSON Schema counts them). */
export const str = (min = 1, max = 255): Documented<string> =>
  check(
    `string(${min}..${max})`,
    (u): u is string => typeof u === 'string' && codePointsWithin(u, min, max),
    `must be a string of ${min} to ${max} characters`,
    { type: 'string', minLength: min, maxLength: max },
  );

export const int = (min: number, max: number): Documented<number> =>
  check(
    `integer(${min}..${max})`,
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= min && u <= max,
    `must be an integer from ${min} to ${max}`,
    { type: 'integer', minimum: min, maximum: max },
  );

export const bool = check('boolean', (u): u is boolean => typeof u === 'boolean', 'must be true or false', { type: 'boolean' });

export const oneOf = <V extends string>(values: readonly V[]): Documented<V> =>
  check(
    values.join(' | '),
    (u): u is V => typeof u === 'string' && (values as readonly string[]).includes(u),
    `must be one of ${values.join(', ')}`,
    { type: 'string', enum: values },
  );

/** A value that may be `null`. */
export const nullable = <A, O>(codec: t.Type<A, O, unknown>): Documented<A | null, O | null> =>
  new Documented<A | null, O | null>(
    `${codec.name} | null`,
    (u): u is A | null => u === null || codec.is(u),
    (u, c) => (u === null ? t.success(null) : codec.validate(u, c)),
    (a) => (a === null ? null : codec.encode(a)),
    (w) => {
      const inner = w.schemaOf(codec);
      // A typed schema takes null among its types; a reference stays one member of two.
      if (typeof inner.type !== 'string' || inner.$ref !== undefined || inner.const !== undefined)
        return { anyOf: [inner, { type: 'null' }] };
      return { ...inner, type: [inner.type, 'null'], ...(inner.enum === undefined ? {} : { enum: [...inner.enum, null] }) };
    },
  );

/** An optional member of a strict object that takes `value` when it is absent. */
export class Defaulted<A, O> extends Documented<A, O> {
  constructor(
    codec: t.Type<A, O, unknown>,
    readonly defaultValue: A & (string | number | boolean),
  ) {
    super(
      codec.name,
      codec.is,
      (u, c) => codec.validate(u, c),
      codec.encode,
      (w) => ({ ...w.schemaOf(codec), default: defaultValue }),
    );
  }
}

export const defaulted = <A, O>(codec: t.Type<A, O, unknown>, value: A & (string | number | boolean)): Defaulted<A, O> =>
  new Defaulted(codec, value);

type Props = Record<string, t.Mixed>;
type DefaultedKeys<O extends Props> = { [K in keyof O]: O[K] extends Defaulted<infer _A, infer _O> ? K : never }[keyof O];
export type StrictOf<R extends Props, O extends Props> = { [K in keyof R]: t.TypeOf<R[K]> } & {
  [K in Exclude<keyof O, DefaultedKeys<O>>]?: t.TypeOf<O[K]>;
} & { [K in DefaultedKeys<O>]: t.TypeOf<O[K]> };

export const isPlainObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

export interface StrictObjectOptions {
  readonly description?: string;
  /** When set, an object without any key is refused with this message. */
  readonly atLeastOne?: string;
}

/**
 * An object with required and optional keys; any other key is an error, and so is `null`. Its members
 * are kept so that a query string or a path can be described parameter by parameter.
 */
export class StrictObject<R extends Props, O extends Props> extends Documented<StrictOf<R, O>, unknown> {
  constructor(
    name: string,
    readonly required: R,
    readonly optional: O,
    options: StrictObjectOptions,
  ) {
    super(
      name,
      (u): u is StrictOf<R, O> => isPlainObject(u),
      (u, c) => {
        if (!isPlainObject(u)) return t.failure(u, c, 'must be a JSON object');
        const errors: t.ValidationError[] = [];
        const out: Record<string, unknown> = {};
        const visit = (key: string, codec: t.Mixed, isRequired: boolean): void => {
          if (!Object.hasOwn(u, key)) {
            if (isRequired) errors.push({ value: undefined, context: at(c, key, codec, undefined), message: 'is required' });
            else if (codec instanceof Defaulted) out[key] = codec.defaultValue;
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
        if (errors.length === 0 && options.atLeastOne !== undefined && Object.keys(u).length === 0) {
          return t.failure(u, c, options.atLeastOne);
        }
        return errors.length > 0 ? t.failures(errors) : t.success(out as StrictOf<R, O>);
      },
      t.identity,
      (w: SchemaWalker) => ({
        type: 'object',
        ...(options.description === undefined ? {} : { description: options.description }),
        properties: Object.fromEntries(Object.entries({ ...required, ...optional }).map(([key, codec]) => [key, w.schemaOf(codec)])),
        required: Object.keys(required),
        additionalProperties: false,
        ...(options.atLeastOne === undefined ? {} : { minProperties: 1 }),
      }),
      name,
    );
  }
}

/** The JSON values an object of scalar fields holds at most: itself, and one per field it knows. */
export const objectValues = (codec: { readonly required: Props; readonly optional: Props }): number =>
  1 + Object.keys(codec.required).length + Object.keys(codec.optional).length;

export const strictObject = <R extends Props, O extends Props = Record<never, never>>(
  name: string,
  required: R,
  optional: O = {} as O,
  options: StrictObjectOptions = {},
): StrictObject<R, O> => new StrictObject(name, required, optional, options);

/** An array of `min` to `max` items, each checked (and with `distinct`, each once), with every item's problems reported. */
export const arrayOf = <C extends t.Mixed>(
  item: C,
  min: number,
  max: number,
  options: { distinct?: boolean } = {},
): Documented<t.TypeOf<C>[], unknown> =>
  new Documented<t.TypeOf<C>[], unknown>(
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
        else if (options.distinct === true && u.indexOf(value) !== index)
          errors.push({ value, context: at(c, String(index), item, value), message: 'is listed twice' });
        else out.push(result.right as t.TypeOf<C>);
      });
      return errors.length > 0 ? t.failures(errors) : t.success(out);
    },
    t.identity,
    (w) => ({
      type: 'array',
      items: w.schemaOf(item),
      minItems: min,
      maxItems: max,
      ...(options.distinct === true ? { uniqueItems: true } : {}),
    }),
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
