const utf8 = new TextDecoder('utf-8', { fatal: true });
const LF = 0x0a;
const CR = 0x0d;

/** A line of a file: its text (`undefined` when it is not UTF-8) and the offset of its first byte. */
export interface LineAt {
  readonly text: string | undefined;
  readonly start: number;
}

/** The line of `bytes` that starts at byte `start`, decoded as utf8Lines decodes it. */
export const utf8LineFrom = (bytes: Uint8Array, start: number): string | undefined => {
  let end = bytes.indexOf(LF, start);
  if (end === -1) end = bytes.length;
  try {
    return utf8.decode(bytes.subarray(start, end > start && bytes[end - 1] === CR ? end - 1 : end));
  } catch {
    return undefined;
  }
};

/** utf8Lines with where each line starts in the bytes. */
export function* utf8LinesAt(bytes: Uint8Array): Generator<LineAt> {
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(LF, start);
    if (end === -1) end = bytes.length;
    yield { text: utf8LineFrom(bytes, start), start };
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
