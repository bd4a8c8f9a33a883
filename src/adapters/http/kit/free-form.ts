import * as t from 'io-ts';
import type { JsonObject } from '../../../domain/order';
import { codePointsWithin, isPlainObject } from './codec-kit';
import { Documented, type JsonSchema, type SchemaWalker } from './json-schema';

/** Limits on free-form objects (decision 0003). */
export const FREE_FORM_LIMITS = { depth: 5, keys: 50, items: 50, stringLength: 1000 } as const;

/**
 * Keys that every store can hold as they are: not empty, no leading `$`, no `.`, no NUL. MongoDB reads
 * such keys as operators or paths, so refusing them here keeps all stores alike. `__proto__` is refused
 * too: an object holding it as a key turns into a prototype change in the hands of the first
 * `Object.assign`.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what the key must not hold.
const SAFE_KEY = /^(?!\$)(?!__proto__$)[^.\u0000]{1,1000}$/u;

const COMPONENT = 'FreeFormObject';

/**
 * A number every reader gets back as it was sent: finite, and within ±(2^53 − 1), beyond which not
 * every integer has a double (`9007199254740993` would be stored as `…992`, `1e400` as null).
 */
const isExactNumber = (n: number): boolean => Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER;
const INEXACT = `must be a number JSON carries exactly: finite, and at most ${Number.MAX_SAFE_INTEGER} in magnitude`;

/**
 * JSON Schema cannot count depth, so the nesting limit is spelled out level by level, each level a
 * component of its own (`FreeFormValueDepth2` …): a value at level `depth` may be a container only
 * while `depth` is within the limit.
 */
const describeFreeForm = (w: SchemaWalker): JsonSchema => {
  const key: JsonSchema = { type: 'string', pattern: SAFE_KEY.source };
  const number: JsonSchema = { type: 'number', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
  const scalars: readonly JsonSchema[] = [
    { type: 'string', maxLength: FREE_FORM_LIMITS.stringLength },
    number,
    { type: 'boolean' },
    { type: 'null' },
  ];
  const level = (depth: number): JsonSchema =>
    w.define(`FreeFormValueDepth${depth}`, () =>
      depth > FREE_FORM_LIMITS.depth
        ? {
            type: ['string', 'number', 'boolean', 'null'],
            description: `A value at level ${depth} of a free-form object: no deeper object or array.`,
            anyOf: scalars,
          }
        : {
            type: ['string', 'number', 'boolean', 'null', 'object', 'array'],
            description: `A value at level ${depth} of a free-form object.`,
            anyOf: [
              ...scalars,
              { type: 'object', maxProperties: FREE_FORM_LIMITS.keys, propertyNames: key, additionalProperties: level(depth + 1) },
              { type: 'array', maxItems: FREE_FORM_LIMITS.items, items: level(depth + 1) },
            ],
          },
    );
  return {
    type: 'object',
    description:
      `Any JSON object, not an array and not null, within limits: at most ${FREE_FORM_LIMITS.depth} levels of ` +
      `objects and arrays (this object is level 1), at most ${FREE_FORM_LIMITS.keys} keys per object and ` +
      `${FREE_FORM_LIMITS.items} items per array, strings of at most ${FREE_FORM_LIMITS.stringLength} characters, ` +
      `numbers within ±${Number.MAX_SAFE_INTEGER} (every one of them exact as a double), ` +
      'keys that are not empty, are not `__proto__`, do not start with `$` and hold neither `.` nor NUL.',
    maxProperties: FREE_FORM_LIMITS.keys,
    propertyNames: key,
    additionalProperties: level(2),
  };
};

/**
 * A free-form JSON object (customer, fees, metadata, trackingExtras): any JSON inside, within the
 * limits. Each problem is reported at its own path (`metadata.a.b`).
 */
export const freeFormObject = new Documented<JsonObject, JsonObject>(
  COMPONENT,
  (u): u is JsonObject => isPlainObject(u),
  (u, c) => {
    if (!isPlainObject(u)) return t.failure(u, c, 'must be a JSON object');
    const errors: t.ValidationError[] = [];
    const fail = (value: unknown, path: string[], message: string): void => {
      const context = path.reduce<t.Context>((ctx, key) => t.appendContext(ctx, key, t.unknown, value), c);
      errors.push({ value, context, message });
    };
    const walk = (value: unknown, path: string[], depth: number): void => {
      if (typeof value === 'string') {
        if (!codePointsWithin(value, 0, FREE_FORM_LIMITS.stringLength)) {
          fail(value, path, `must be a string of at most ${FREE_FORM_LIMITS.stringLength} characters`);
        }
      } else if (typeof value === 'number') {
        if (!isExactNumber(value)) fail(value, path, INEXACT);
      } else if (Array.isArray(value) || isPlainObject(value)) {
        if (depth > FREE_FORM_LIMITS.depth) {
          fail(value, path, `is nested more than ${FREE_FORM_LIMITS.depth} levels deep`);
        } else if (Array.isArray(value)) {
          if (value.length > FREE_FORM_LIMITS.items) fail(value, path, `must have at most ${FREE_FORM_LIMITS.items} items`);
          else value.forEach((item, index) => walk(item, [...path, String(index)], depth + 1));
        } else {
          const keys = Object.keys(value);
          if (keys.length > FREE_FORM_LIMITS.keys) fail(value, path, `must have at most ${FREE_FORM_LIMITS.keys} keys`);
          for (const key of keys) {
            if (!SAFE_KEY.test(key))
              fail(value, [...path, key], 'is not an allowed key (empty, __proto__, starts with $, or holds . or NUL)');
            else walk(value[key], [...path, key], depth + 1);
          }
        }
      }
    };
    walk(u, [], 1);
    return errors.length > 0 ? t.failures(errors) : t.success(u as JsonObject);
  },
  t.identity,
  describeFreeForm,
  COMPONENT,
);
