import type { ValidationDetail } from './codec-kit';

const MESSAGE = 'must not hold an unpaired UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair)';

/**
 * Every string of a parsed JSON body, keys included, that is not well-formed Unicode: JSON lets
 * `"\ud800"` through, but such a string cannot be encoded as UTF-8, so no store, header or log could
 * hold it faithfully. Paths are dotted like the codecs' (`products.0.name`).
 */
export const unpairedSurrogates = (value: unknown, path: readonly string[] = []): ValidationDetail[] => {
  if (typeof value === 'string') return value.isWellFormed() ? [] : [{ path: pathOf(path), message: MESSAGE }];
  if (Array.isArray(value)) return value.flatMap((item, index) => unpairedSurrogates(item, [...path, String(index)]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) =>
      key.isWellFormed() ? unpairedSurrogates(inner, [...path, key]) : [{ path: pathOf([...path, key]), message: MESSAGE }],
    );
  }
  return [];
};

const pathOf = (path: readonly string[]): string => (path.length === 0 ? '(body)' : path.join('.'));
