const utf8 = new TextDecoder('utf-8', { fatal: true });
const LF = 0x0a;
const CR = 0x0d;

/**
 * A file's lines, each decoded strictly as UTF-8 (`undefined` for a line that is not: a file saved in
 * another encoding is refused where it goes wrong, never read as U+FFFD), without their line ends (`\n`
 * or `\r\n`). Cut on the bytes: a byte 0x0A is never part of a UTF-8 character.
 */
export function* utf8Lines(bytes: Uint8Array): Generator<string | undefined> {
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(LF, start);
    if (end === -1) end = bytes.length;
    try {
      yield utf8.decode(bytes.subarray(start, end > start && bytes[end - 1] === CR ? end - 1 : end));
    } catch {
      yield undefined;
    }
    start = end + 1;
  }
}
