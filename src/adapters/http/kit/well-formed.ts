import { EventLoopSlices } from '../../../application/shared/event-loop-slices';
import type { ValidationDetail } from './codec-kit';

/**
 * How deep a body may nest objects and arrays, on every route: the body itself is level 1. An order
 * with a free-form object 5 levels deep needs 7; the rest leaves room for a batch of them.
 */
export const MAX_BODY_DEPTH = 16;

/**
 * How many JSON values (each object, array, string, number, boolean and null counts one) a route's
 * body may hold, checked on the bytes before anything is built (decision 0023). A route declares the
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

/** Where the items of the capped member lie in the bytes: what `parseBody` parses apart. */
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
  /** The current key of an object, as its span in the bytes (quotes included), decoded only for a path. */
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
const hexDigit = (c: number): number =>
  isDigit(c) ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
/** The code unit of the 4 hex digits at `at`, or -1. */
const hexOf = (bytes: Uint8Array, at: number): number => {
  let unit = 0;
  for (let i = at; i < at + 4; i++) {
    const digit = hexDigit(bytes[i] ?? 0);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
};
const matches = (bytes: Uint8Array, at: number, word: readonly number[]): boolean => word.every((c, i) => bytes[at + i] === c);
const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];
const ESCAPE_U = [0x5c, 0x75];

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** The text of `bytes` from `start` to `end`. */
export const textOf = (bytes: Uint8Array, start = 0, end = bytes.length): string => utf8.decode(bytes.subarray(start, end));

/** Bytes checked between two looks at the clock: the scan yields about every SLICE_MS. */
const BYTES_PER_LOOK = 16_384;

/**
 * One pass over a body's bytes (UTF-8, checked before), before any text, JSON.parse or codec builds
 * anything from them, with a stack of its own: its syntax (RFC 8259, as JSON.parse reads it:
 * `undefined` when it is not JSON), every string and key well-formed Unicode (JSON lets `"\ud800"`
 * through, but no store, header or log could hold it), and two limits that stop the check at once: a
 * level deeper than MAX_BODY_DEPTH, and more values than `limits` allows. JSON's structure is ASCII,
 * so a byte 0x80 or above is always inside a string. The work grows with the bytes alone and is cut
 * into stretches of the event loop; a body stopped early is never turned into text at all.
 */
export const checkBody = async (bytes: Uint8Array, limits: BodyValues): Promise<BodyShape | undefined> => {
  const details: ValidationDetail[] = [];
  const stack: Frame[] = [];
  const slices = new EventLoopSlices();
  const member = limits.items;
  let pieces: Pieces | undefined;
  let values = 0;
  let itemValues = 0;
  let next = Next.Value;
  let look = BYTES_PER_LOOK;
  const key = (start: number, end: number): string => JSON.parse(textOf(bytes, start, end)) as string;
  /** Where the item being read began. */
  let itemStart = 0;

  const pathOf = (extra?: { keyStart: number; keyEnd: number }): string => {
    const keys = stack.map((frame) => (frame.array ? String(frame.index) : key(frame.keyStart, frame.keyEnd)));
    if (extra !== undefined) keys.push(key(extra.keyStart, extra.keyEnd));
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
    for (let i = at + 1; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === 0x22) return i + 1;
      if (c < 0x20) return -1;
      if (c !== 0x5c) continue;
      const e = bytes[++i];
      if (e === 0x75) {
        const unit = hexOf(bytes, i + 1);
        if (unit < 0) return -1;
        i += 4;
        if (unit >= 0xd800 && unit <= 0xdbff) {
          const low = matches(bytes, i + 1, ESCAPE_U) ? hexOf(bytes, i + 3) : -1;
          if (low >= 0xdc00 && low <= 0xdfff) i += 6;
          else unpaired = true;
        } else if (unit >= 0xdc00 && unit <= 0xdfff) unpaired = true;
      } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -1;
    }
    return -1;
  };
  const numberEnd = (at: number): number => {
    let i = at;
    if (bytes[i] === 0x2d) i++;
    if (bytes[i] === 0x30) i++;
    else if (isDigit(bytes[i])) while (isDigit(bytes[i])) i++;
    else return -1;
    if (bytes[i] === 0x2e) {
      if (!isDigit(bytes[++i])) return -1;
      while (isDigit(bytes[i])) i++;
    }
    if (bytes[i] === 0x65 || bytes[i] === 0x45) {
      i++;
      if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
      if (!isDigit(bytes[i])) return -1;
      while (isDigit(bytes[i])) i++;
    }
    return i;
  };
  const afterValue = (): Next => (stack.length === 0 ? Next.End : Next.CommaOrClose);

  let i = 0;
  while (i < bytes.length) {
    if (i >= look) {
      look = i + BYTES_PER_LOOK;
      await slices.pause();
    }
    const c = bytes[i];
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
        key(stack[0].keyStart, stack[0].keyEnd) === member.member;
      if (isItems) {
        pieces ??= { arrays: [], items: undefined };
        pieces.items = [];
        itemValues = 0;
      } else if (member !== undefined && pieces !== undefined && stack.length === 1 && !stack[0].array) {
        if (key(stack[0].keyStart, stack[0].keyEnd) === member.member) pieces.items = undefined;
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
    else if (matches(bytes, i, TRUE)) end = i + 4;
    else if (matches(bytes, i, FALSE)) end = i + 5;
    else if (matches(bytes, i, NULL)) end = i + 4;
    else end = -1;
    if (end < 0) return undefined;
    if (member !== undefined && pieces !== undefined && stack.length === 1 && !stack[0].array) {
      if (key(stack[0].keyStart, stack[0].keyEnd) === member.member) pieces.items = undefined;
    }
    i = end;
    next = afterValue();
    if (stack.length === 2 && stack[1].items) pieces!.items!.push({ start: itemStart, end: i });
  }
  if (next !== Next.End) return undefined;
  return { details, stopped: false, ...(pieces === undefined ? {} : { pieces }) };
};

/** The bytes of the items parsed at once: large enough that a JSON.parse call is worth it, small enough to be a short stretch. */
const GROUP_BYTES = 64 * 1024;

/**
 * The body as JSON.parse builds it, the items of a capped member parsed in groups between stretches
 * of the event loop, and the rest (their arrays left out) on its own: no single call decodes or builds
 * more than one group or the bounded rest. Throws as JSON.parse does.
 */
export const parseBody = async (bytes: Uint8Array, shape: BodyShape, member: string | undefined): Promise<unknown> => {
  const pieces = shape.pieces;
  if (pieces === undefined || member === undefined) return JSON.parse(textOf(bytes));
  let rest = '';
  let from = 0;
  for (const array of pieces.arrays) {
    rest += `${textOf(bytes, from, array.start)}[]`;
    from = array.end;
  }
  const body = JSON.parse(rest + textOf(bytes, from)) as Record<string, unknown>;
  if (pieces.items === undefined) return body;
  const slices = new EventLoopSlices();
  const items: unknown[] = [];
  for (let at = 0; at < pieces.items.length;) {
    let last = at;
    while (last + 1 < pieces.items.length && pieces.items[last + 1].end - pieces.items[at].start <= GROUP_BYTES) last++;
    for (const item of JSON.parse(`[${textOf(bytes, pieces.items[at].start, pieces.items[last].end)}]`) as unknown[]) items.push(item);
    at = last + 1;
    await slices.pause();
  }
  body[member] = items;
  return body;
};
