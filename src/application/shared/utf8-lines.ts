const utf8 = new TextDecoder('utf-8', { fatal: true });
const LF = 0x0a;
const CR = 0x0d;

/** A line of a file: its text (`undefined` when it is not UTF-8) and the offset of its first byte. */
export interface LineAt {
  readonly text: string | undefined;
  readonly start: number;
}

/** The bytes from `start` up to `end` (a LF, or the end), without a CR before it, decoded strictly. */
const decodeLine = (bytes: Uint8Array, start: number, end: number): string | undefined => {
  try {
    return utf8.decode(bytes.subarray(start, end > start && bytes[end - 1] === CR ? end - 1 : end));
  } catch {
    return undefined;
  }
};

/** Where the line that starts at `start` ends: its LF, or the end of the bytes. */
const endOfLine = (bytes: Uint8Array, start: number): number => {
  const end = bytes.indexOf(LF, start);
  return end === -1 ? bytes.length : end;
};

/** The line of `bytes` that starts at byte `start`, decoded as utf8Lines decodes it. */
export const utf8LineFrom = (bytes: Uint8Array, start: number): string | undefined => decodeLine(bytes, start, endOfLine(bytes, start));

/** utf8Lines with where each line starts in the bytes. */
export function* utf8LinesAt(bytes: Uint8Array): Generator<LineAt> {
  let start = 0;
  while (start <= bytes.length) {
    const end = endOfLine(bytes, start);
    yield { text: decodeLine(bytes, start, end), start };
    start = end + 1;
  }
}

/**
 * A file's lines, each decoded strictly as UTF-8 (`undefined` for a line that is not: a file saved in
 * another encoding is refused where it goes wrong, never read as U+FFFD), without their line ends (`\n`
 * or `\r\n`). Cut on the bytes: a byte 0x0A is never part of a UTF-8 character.
 */
export function* utf8Lines(bytes: Uint8Array): Generator<string | undefined> {
  for (const { text } of utf8LinesAt(bytes)) yield text;
}
