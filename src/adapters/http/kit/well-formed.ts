import type { ValidationDetail } from './codec-kit';

/**
 * How deep a body may nest objects and arrays, on every route: the body itself is level 1. An order
 * with a free-form object 5 levels deep needs 7; the rest leaves room for a batch of them.
 */
export const MAX_BODY_DEPTH = 16;

const UNPAIRED = 'must not hold an unpaired UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair)';
const TOO_DEEP = `nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`;

/** Stands in the walk for the value of a key that is not well-formed, so its problem keeps its place in the order. */
const BAD_KEY = Symbol('bad key');

/** A path as a chain to its parent, so that a node costs one link, not a copy of its path. */
interface PathLink {
  readonly parent: PathLink | undefined;
  readonly key: string;
}

const pathOf = (link: PathLink | undefined): string => {
  const keys: string[] = [];
  for (let at = link; at !== undefined; at = at.parent) keys.push(at.key);
  return keys.length === 0 ? '(body)' : keys.reverse().join('.');
};

/** What a body's structure holds that no codec should be asked about. */
export interface BodyShape {
  /** Problems at their paths (dotted like the codecs' `products.0.name`). */
  readonly details: ValidationDetail[];
  /** The body goes deeper than MAX_BODY_DEPTH: the codecs, which recurse, must not see it. */
  readonly tooDeep: boolean;
}

/**
 * One pass over a parsed JSON body, with a stack of its own, so that neither its depth nor its width
 * can overflow the call stack, and the work grows with the body's size alone: a level deeper than
 * MAX_BODY_DEPTH is reported at its path and not entered; every string, keys included, must be
 * well-formed Unicode (JSON lets `"\ud800"` through, but no store, header or log could hold it).
 */
export const bodyShape = (body: unknown): BodyShape => {
  const details: ValidationDetail[] = [];
  let tooDeep = false;
  const stack: { value: unknown; at: PathLink | undefined; depth: number }[] = [{ value: body, at: undefined, depth: 1 }];
  while (stack.length > 0) {
    const { value, at, depth } = stack.pop()!;
    if (value === BAD_KEY) {
      details.push({ path: pathOf(at), message: UNPAIRED });
    } else if (typeof value === 'string') {
      if (!value.isWellFormed()) details.push({ path: pathOf(at), message: UNPAIRED });
    } else if (typeof value === 'object' && value !== null) {
      if (depth > MAX_BODY_DEPTH) {
        tooDeep = true;
        details.push({ path: pathOf(at), message: TOO_DEEP });
      } else if (Array.isArray(value)) {
        for (let index = value.length - 1; index >= 0; index--)
          stack.push({ value: value[index], at: { parent: at, key: String(index) }, depth: depth + 1 });
      } else {
        const keys = Object.keys(value);
        for (let index = keys.length - 1; index >= 0; index--) {
          const key = keys[index];
          const link = { parent: at, key };
          stack.push({ value: key.isWellFormed() ? (value as Record<string, unknown>)[key] : BAD_KEY, at: link, depth: depth + 1 });
        }
      }
    }
  }
  return { details, tooDeep };
};
