import { EventLoopSlices } from '../../../application/shared/event-loop-slices';
import type { ValidationDetail } from './codec-kit';

/**
 * How deep a body may nest objects and arrays, on every route: the body itself is level 1. An order
 * with a free-form object 5 levels deep needs 7; the rest leaves room for a batch of them.
 */
export const MAX_BODY_DEPTH = 16;

/**
 * How many JSON values (each object, array, string, number, boolean and null counts one) a route's
 * body may hold, checked on the text before anything is built (DECISIONS D23). A route declares the
 * count of its largest legal body; the others take DEFAULT_BODY_VALUES.
 */
export interface BodyValues {
  /** The most values of the body, the items of `items.member` apart. */
  readonly values: number;
  /** A member of the top-level object holding an array whose items are counted, and later parsed, each on its own (a batch's orders). */
  readonly items?: {
    readonly member: string;
    /** The most items; one more stops the check with `tooMany` at the member's path (the codec's own words). */
    readonly most: number;
    readonly tooMany: string;
    /** The most values of one item. */
    readonly values: number;
  };
}

/**
 * The count a route allows for a largest legal body of `largest` values: twice it, so that a body just
 * beyond a limit (1,001 spend entries, 501 products) is still answered by the codec that knows the
 * limit, in its words, while a body built to cost stops long before its byte limit.
 */
export const valuesFor = (largest: number): number => 2 * largest;

/** For the routes that declare no count of their own: their largest bodies hold about 30 values (a link with 20 parameters). */
export const DEFAULT_BODY_VALUES = 1_000;

const UNPAIRED = 'must not hold an unpaired UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair)';
const TOO_DEEP = `nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`;
const tooMany = (values: number): string =>
  `holds more than ${values} JSON values (each object, array, string, number, boolean and null counts one)`;

/** Where the items of the capped member lie in the text: what `parseBody` parses apart. */
interface Pieces {
  /** The `[` … `]` of every occurrence of the member's array in the top-level object: left out of the rest. */
  readonly arrays: { start: number; end: number }[];
  /** The items of the occurrence that JSON keeps (the last), or undefined when the last was not an array. */
  items: { start: number; end: number }[] | undefined;
}

/** What the check found in a body that is JSON. */
export interface BodyShape {
  /** Problems at their paths (dotted like the codecs' `products.0.name`). */
  readonly details: ValidationDetail[];
  /** The check stopped at a limit (too deep, too many values): the body is not parsed, and no codec sees it. */
  readonly stopped: boolean;
  readonly pieces?: Pieces;
}

interface Frame {
  readonly array: boolean;
  /** The current key of an object, as its span in the text (quotes included), decoded only for a path. */
  keyStart: number;
  keyEnd: number;
  /** The current index of an array. */
  index: number;
  /** The array of the capped member, whose children are items. */
  readonly items: boolean;
  readonly start: number;
}

const enum Next {
  Value,
  ValueOrClose,
  KeyOrClose,
  Key,
  Colon,
  CommaOrClose,
  End,
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const hexOf = (text: string, at: number): number => {
  const hex = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : -1;
};

/** Where a string's plain run ends: its closing quote, an escape, or a control character JSON refuses there. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a JSON string must not hold.
const STRING_STOP = /["\\\u0000-\u001f]/g;

/** Chars checked between two looks at the clock: the scan yields about every SLICE_MS. */
const CHARS_PER_LOOK = 16_384;

/**
 * One pass over a body's text, before JSON.parse or any codec builds anything from it, with a stack of
 * its own: its syntax (RFC 8259, as JSON.parse reads it: `undefined` when it is not JSON), every string
 * and key well-formed Unicode (JSON lets `"\ud800"` through, but no store, header or log could hold
 * it), and two limits that stop the check at once: a level deeper than MAX_BODY_DEPTH, and more values
 * than `limits` allows. The work grows with the text alone and is cut into stretches of the event loop.
 */
export const checkBody = async (text: string, limits: BodyValues): Promise<BodyShape | undefined> => {
  const details: ValidationDetail[] = [];
  const stack: Frame[] = [];
  const slices = new EventLoopSlices();
  const member = limits.items;
  let pieces: Pieces | undefined;
  let values = 0;
  let itemValues = 0;
  let next = Next.Value;
  let look = CHARS_PER_LOOK;
  /** Where the item being read began. */
  let itemStart = 0;

  const pathOf = (extra?: { keyStart: number; keyEnd: number }): string => {
    const keys = stack.map((frame) =>
      frame.array ? String(frame.index) : (JSON.parse(text.slice(frame.keyStart, frame.keyEnd)) as string),
    );
    if (extra !== undefined) keys.push(JSON.parse(text.slice(extra.keyStart, extra.keyEnd)) as string);
    return keys.length === 0 ? '(body)' : keys.join('.');
  };
  const stop = (path: string, message: string): BodyShape => {
    details.push({ path, message });
    return { details, stopped: true };
  };
  /** Whether the value starting here is within every limit; counts it. */
  const counted = (): BodyShape | undefined => {
    const inItem = stack.length >= 2 && stack[1].items;
    if (inItem) {
      if (++itemValues > member!.values) return stop(`${member!.member}.${stack[1].index}`, tooMany(member!.values));
    } else if (++values > limits.values) return stop('(body)', tooMany(limits.values));
    return undefined;
  };
  /** Reads the string opening at `at`, checking its escapes; the index after its closing quote, or -1 when it is not JSON. */
  let unpaired = false;
  const stringEnd = (at: number): number => {
    unpaired = false;
    for (let i = at + 1; ; i++) {
      STRING_STOP.lastIndex = i;
      if (STRING_STOP.exec(text) === null) return -1;
      i = STRING_STOP.lastIndex - 1;
      const c = text.charCodeAt(i);
      if (c === 0x22) return i + 1;
      if (c < 0x20) return -1;
      const e = text.charCodeAt(++i);
      if (e === 0x75) {
        const unit = hexOf(text, i + 1);
        if (unit < 0) return -1;
        i += 4;
        if (unit >= 0xd800 && unit <= 0xdbff) {
          const low = text.startsWith('\\u', i + 1) ? hexOf(text, i + 3) : -1;
          if (low >= 0xdc00 && low <= 0xdfff) i += 6;
          else unpaired = true;
        } else if (unit >= 0xdc00 && unit <= 0xdfff) unpaired = true;
      } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -1;
    }
  };
  const numberEnd = (at: number): number => {
    let i = at;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else return -1;
    if (text.charCodeAt(i) === 0x2e) {
      if (!isDigit(text.charCodeAt(++i))) return -1;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
      i++;
      if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) return -1;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    return i;
  };
  const afterValue = (): Next => (stack.length === 0 ? Next.End : Next.CommaOrClose);

  let i = 0;
  while (i < text.length) {
    if (i >= look) {
      look = i + CHARS_PER_LOOK;
      await slices.pause();
    }
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    if (next === Next.End) return undefined;
    if (next === Next.Colon) {
      if (c !== 0x3a) return undefined;
      next = Next.Value;
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (next === Next.CommaOrClose || ((next === Next.ValueOrClose || next === Next.KeyOrClose) && (c === 0x5d || c === 0x7d))) {
      if (c === 0x2c && next === Next.CommaOrClose) {
        if (top.array) top.index++;
        next = top.array ? Next.Value : Next.Key;
        if (top.items) itemValues = 0;
        i++;
        continue;
      }
      if (c !== (top.array ? 0x5d : 0x7d)) return undefined;
      stack.pop();
      i++;
      if (top.items) pieces!.arrays.push({ start: top.start, end: i });
      next = afterValue();
      if (stack.length === 2 && stack[1].items) pieces!.items!.push({ start: itemStart, end: i });
      continue;
    }
    if (next === Next.KeyOrClose || next === Next.Key) {
      if (c !== 0x22) return undefined;
      const end = stringEnd(i);
      if (end < 0) return undefined;
      top.keyStart = i;
      top.keyEnd = end;
      if (unpaired) details.push({ path: pathOf(), message: UNPAIRED });
      next = Next.Colon;
      i = end;
      continue;
    }
    // A value.
    const overLimit = counted();
    if (overLimit !== undefined) return overLimit;
    if (stack.length === 2 && stack[1].items) {
      if (stack[1].index >= member!.most) return stop(member!.member, member!.tooMany);
      itemStart = i;
    }
    if (c === 0x7b || c === 0x5b) {
      if (stack.length + 1 > MAX_BODY_DEPTH) {
        details.push({ path: pathOf(), message: TOO_DEEP });
        return { details, stopped: true };
      }
      const isItems =
        c === 0x5b &&
        member !== undefined &&
        stack.length === 1 &&
        !stack[0].array &&
        JSON.parse(text.slice(stack[0].keyStart, stack[0].keyEnd)) === member.member;
      if (isItems) {
        pieces ??= { arrays: [], items: undefined };
        pieces.items = [];
        itemValues = 0;
      } else if (member !== undefined && pieces !== undefined && stack.length === 1 && !stack[0].array) {
        if (JSON.parse(text.slice(stack[0].keyStart, stack[0].keyEnd)) === member.member) pieces.items = undefined;
      }
      stack.push({ array: c === 0x5b, keyStart: 0, keyEnd: 0, index: 0, items: isItems, start: i });
      next = c === 0x5b ? Next.ValueOrClose : Next.KeyOrClose;
      i++;
      continue;
    }
    let end: number;
    if (c === 0x22) {
      end = stringEnd(i);
      if (end >= 0 && unpaired) details.push({ path: pathOf(), message: UNPAIRED });
    } else if (c === 0x2d || isDigit(c)) end = numberEnd(i);
    else if (text.startsWith('true', i)) end = i + 4;
    else if (text.startsWith('false', i)) end = i + 5;
    else if (text.startsWith('null', i)) end = i + 4;
    else end = -1;
    if (end < 0) return undefined;
    if (member !== undefined && pieces !== undefined && stack.length === 1 && !stack[0].array) {
      if (JSON.parse(text.slice(stack[0].keyStart, stack[0].keyEnd)) === member.member) pieces.items = undefined;
    }
    i = end;
    next = afterValue();
    if (stack.length === 2 && stack[1].items) pieces!.items!.push({ start: itemStart, end: i });
  }
  if (next !== Next.End) return undefined;
  return { details, stopped: false, ...(pieces === undefined ? {} : { pieces }) };
};

/** The text of the items parsed at once: large enough that a JSON.parse call is worth it, small enough to be a short stretch. */
const GROUP_CHARS = 64 * 1024;

/**
 * The body as JSON.parse builds it, the items of a capped member parsed in groups between stretches
 * of the event loop, and the rest (their arrays left out) on its own: no single call builds more than
 * one group or the bounded rest. Throws as JSON.parse does.
 */
export const parseBody = async (text: string, shape: BodyShape, member: string | undefined): Promise<unknown> => {
  const pieces = shape.pieces;
  if (pieces === undefined || member === undefined) return JSON.parse(text);
  let rest = '';
  let from = 0;
  for (const array of pieces.arrays) {
    rest += `${text.slice(from, array.start)}[]`;
    from = array.end;
  }
  const body = JSON.parse(rest + text.slice(from)) as Record<string, unknown>;
  if (pieces.items === undefined) return body;
  const slices = new EventLoopSlices();
  const items: unknown[] = [];
  for (let at = 0; at < pieces.items.length;) {
    let last = at;
    while (last + 1 < pieces.items.length && pieces.items[last + 1].end - pieces.items[at].start <= GROUP_CHARS) last++;
    items.push(...(JSON.parse(`[${text.slice(pieces.items[at].start, pieces.items[last].end)}]`) as unknown[]));
    at = last + 1;
    await slices.pause();
  }
  body[member] = items;
  return body;
};
